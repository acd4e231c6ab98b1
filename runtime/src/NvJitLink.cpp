#include "kaji/runtime/NvJitLink.h"

#include "kaji/abi/PtxTarget.h"
#include "kaji/abi/ToolkitLibrary.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <regex>

namespace kaji::runtime {

namespace {

// nvJitLink.h's types, as much of them as kaji uses. The plain names are exported since 12.0;
// the header maps them to versioned ones (__nvJitLinkCreate_13_0), which kaji does not need.
using nvJitLinkResult = int;
using nvJitLinkHandle = struct nvJitLink *;
constexpr nvJitLinkResult kNvJitLinkSuccess = 0;

// nvJitLinkInputType's values by the driver's input type they correspond to.
int nvJitLinkInputType(CUjitInputType type) {
  switch (type) {
  case CU_JIT_INPUT_CUBIN:
    return 1;
  case CU_JIT_INPUT_PTX:
    return 2;
  case CU_JIT_INPUT_NVVM:
    return 3;
  case CU_JIT_INPUT_FATBINARY:
    return 4;
  case CU_JIT_INPUT_OBJECT:
    return 5;
  case CU_JIT_INPUT_LIBRARY:
    return 6;
  }
  throw std::invalid_argument("nvJitLink takes no input of type " + std::to_string(int(type)));
}

// nvJitLinkResult's names, in its order.
constexpr std::array<const char *, 19> kResultNames = {
    "NVJITLINK_SUCCESS",
    "NVJITLINK_ERROR_UNRECOGNIZED_OPTION",
    "NVJITLINK_ERROR_MISSING_ARCH",
    "NVJITLINK_ERROR_INVALID_INPUT",
    "NVJITLINK_ERROR_PTX_COMPILE",
    "NVJITLINK_ERROR_NVVM_COMPILE",
    "NVJITLINK_ERROR_INTERNAL",
    "NVJITLINK_ERROR_THREADPOOL",
    "NVJITLINK_ERROR_UNRECOGNIZED_INPUT",
    "NVJITLINK_ERROR_FINALIZE",
    "NVJITLINK_ERROR_NULL_INPUT",
    "NVJITLINK_ERROR_INCOMPATIBLE_OPTIONS",
    "NVJITLINK_ERROR_INCORRECT_INPUT_TYPE",
    "NVJITLINK_ERROR_ARCH_MISMATCH",
    "NVJITLINK_ERROR_OUTDATED_LIBRARY",
    "NVJITLINK_ERROR_MISSING_FATBIN",
    "NVJITLINK_ERROR_UNRECOGNIZED_ARCH",
    "NVJITLINK_ERROR_UNSUPPORTED_ARCH",
    "NVJITLINK_ERROR_LTO_NOT_ENABLED",
};

std::string resultName(nvJitLinkResult result) {
  return result >= 0 && std::size_t(result) < kResultNames.size()
             ? kResultNames[std::size_t(result)]
             : "nvJitLinkResult " + std::to_string(result);
}

struct NvJitLinkApi {
  nvJitLinkResult (*create)(nvJitLinkHandle *, std::uint32_t, const char **);
  nvJitLinkResult (*destroy)(nvJitLinkHandle *);
  nvJitLinkResult (*addData)(nvJitLinkHandle, int, const void *, std::size_t, const char *);
  nvJitLinkResult (*complete)(nvJitLinkHandle);
  nvJitLinkResult (*getLinkedCubinSize)(nvJitLinkHandle, std::size_t *);
  nvJitLinkResult (*getLinkedCubin)(nvJitLinkHandle, void *);
  nvJitLinkResult (*getLinkedPtxSize)(nvJitLinkHandle, std::size_t *);
  nvJitLinkResult (*getLinkedPtx)(nvJitLinkHandle, char *);
  nvJitLinkResult (*getErrorLogSize)(nvJitLinkHandle, std::size_t *);
  nvJitLinkResult (*getErrorLog)(nvJitLinkHandle, char *);
  nvJitLinkResult (*version)(unsigned *, unsigned *);
};

struct LoadedNvJitLink {
  NvJitLinkInfo info;
  NvJitLinkApi api;
};

LoadedNvJitLink load(const std::vector<std::string> &extraDirectories) {
  abi::ToolkitLibrarySearch search{"libnvJitLink.so",
                                   "KAJI_NVJITLINK",
                                   extraDirectories,
                                   {"libnvJitLink.so.13", "libnvJitLink.so.12", "libnvJitLink.so"},
                                   "an nvJitLink entry point kaji needs (CUDA 12.0 or newer)"};
  LoadedNvJitLink loaded;
  NvJitLinkApi &api = loaded.api;
  auto bindAll = [&api](void *library) {
    return abi::bindEntryPoint(library, api.create, "nvJitLinkCreate") &&
           abi::bindEntryPoint(library, api.destroy, "nvJitLinkDestroy") &&
           abi::bindEntryPoint(library, api.addData, "nvJitLinkAddData") &&
           abi::bindEntryPoint(library, api.complete, "nvJitLinkComplete") &&
           abi::bindEntryPoint(library, api.getLinkedCubinSize, "nvJitLinkGetLinkedCubinSize") &&
           abi::bindEntryPoint(library, api.getLinkedCubin, "nvJitLinkGetLinkedCubin") &&
           abi::bindEntryPoint(library, api.getLinkedPtxSize, "nvJitLinkGetLinkedPtxSize") &&
           abi::bindEntryPoint(library, api.getLinkedPtx, "nvJitLinkGetLinkedPtx") &&
           abi::bindEntryPoint(library, api.getErrorLogSize, "nvJitLinkGetErrorLogSize") &&
           abi::bindEntryPoint(library, api.getErrorLog, "nvJitLinkGetErrorLog") &&
           abi::bindEntryPoint(library, api.version, "nvJitLinkVersion");
  };
  loaded.info.path = abi::openToolkitLibrary(search, bindAll, [](const std::string &where) {
                       throw NvJitLinkUnavailable(
                           "no nvJitLink (libnvJitLink.so from the CUDA toolkit 12.0 or newer, "
                           "or the nvidia-nvjitlink wheel) was found; " +
                           where + ". Set KAJI_NVJITLINK to the library's path");
                     }).path;
  api.version(&loaded.info.major, &loaded.info.minor);
  return loaded;
}

abi::LazyToolkitLibrary<LoadedNvJitLink> &nvJitLinkLibrary() {
  static abi::LazyToolkitLibrary<LoadedNvJitLink> library(load);
  return library;
}

const LoadedNvJitLink &nvJitLink() { return nvJitLinkLibrary().get(); }

// Destroys the handle on every path.
struct LinkHandle {
  const NvJitLinkApi &api;
  nvJitLinkHandle handle = nullptr;
  ~LinkHandle() {
    if (handle)
      api.destroy(&handle);
  }
};

std::string inputNames(const std::vector<LinkInput> &inputs) {
  std::string names;
  for (const LinkInput &input : inputs)
    names += (names.empty() ? "'" : ", '") + input.name + "'";
  return names;
}

bool isLtoIr(const LinkInput &input) { return input.type == CU_JIT_INPUT_NVVM; }

// What a link gives: the cubin, or (-lto -ptx) the PTX of the optimised LTO-IR.
enum class LinkOutput { Cubin, Ptx };

std::string link(const std::vector<LinkInput> &inputs, const std::string &arch,
                 PtxOptimization optimization, LinkOutput output) {
  checkLinkInputs(inputs);
  // nvJitLink 13.0 ends the process ("fatal: Unknown arch name") on a one-digit architecture,
  // where it reports other unknown ones as an error.
  static const std::regex archPattern("sm_[1-9][0-9]+[af]?");
  if (!std::regex_match(arch, archPattern))
    throw std::invalid_argument("unknown GPU architecture '" + arch + "': expected sm_XX");
  bool lto = std::any_of(inputs.begin(), inputs.end(), isLtoIr);
  const NvJitLinkApi *api = nullptr;
  try {
    api = &nvJitLink().api;
  } catch (const NvJitLinkUnavailable &error) {
    auto ltoIr = std::find_if(inputs.begin(), inputs.end(), isLtoIr);
    throw NvJitLinkUnavailable("cannot link '" +
                               (ltoIr == inputs.end() ? inputs.front() : *ltoIr).name +
                               "': " + error.what());
  }
  // A PTX input for sm_90a (wgmma) makes the whole link sm_90a's.
  std::string linkedArch = arch;
  for (const LinkInput &input : inputs)
    if (std::string specific = abi::ptxAssemblyArchitecture(input.data, arch);
        input.type == CU_JIT_INPUT_PTX && specific != arch)
      linkedArch = specific;
  std::string archOption = "-arch=" + linkedArch;
  std::vector<const char *> options = {archOption.c_str()};
  if (lto)
    options.push_back("-lto");
  if (output == LinkOutput::Ptx)
    options.push_back("-ptx");
  if (optimization == PtxOptimization::None)
    options.push_back("-O0");
  LinkHandle state{*api};
  auto failure = [&](nvJitLinkResult result, const std::string &call) {
    std::string log;
    std::size_t size = 0;
    if (state.handle && api->getErrorLogSize(state.handle, &size) == kNvJitLinkSuccess && size) {
      log.assign(size, '\0');
      api->getErrorLog(state.handle, log.data());
      log.resize(log.find_last_not_of(std::string_view("\n\0", 2)) + 1);
    }
    return LinkError("nvJitLink could not link " + inputNames(inputs) + " for " + arch + ": " +
                     call + " failed with " + resultName(result) + (log.empty() ? "" : "\n") + log);
  };
  if (nvJitLinkResult result =
          api->create(&state.handle, std::uint32_t(options.size()), options.data());
      result != kNvJitLinkSuccess)
    throw failure(result, "nvJitLinkCreate");
  for (const LinkInput &input : inputs) {
    // PTX is text nvJitLink reads up to its NUL, which std::string keeps after data().
    std::size_t size = input.data.size() + (input.type == CU_JIT_INPUT_PTX ? 1 : 0);
    if (nvJitLinkResult result = api->addData(state.handle, nvJitLinkInputType(input.type),
                                              input.data.c_str(), size, input.name.c_str());
        result != kNvJitLinkSuccess)
      throw failure(result, "nvJitLinkAddData of '" + input.name + "'");
  }
  if (nvJitLinkResult result = api->complete(state.handle); result != kNvJitLinkSuccess)
    throw failure(result, "nvJitLinkComplete");
  auto fetch = [&](auto getSize, auto get, const std::string &call) {
    std::size_t bytes = 0;
    if (nvJitLinkResult result = getSize(state.handle, &bytes); result != kNvJitLinkSuccess)
      throw failure(result, call + "Size");
    std::string linked(bytes, '\0');
    if (nvJitLinkResult result = get(state.handle, linked.data()); result != kNvJitLinkSuccess)
      throw failure(result, call);
    return linked;
  };
  if (output == LinkOutput::Cubin)
    return fetch(api->getLinkedCubinSize, api->getLinkedCubin, "nvJitLinkGetLinkedCubin");
  std::string ptx = fetch(api->getLinkedPtxSize, api->getLinkedPtx, "nvJitLinkGetLinkedPtx");
  ptx.resize(std::strlen(ptx.c_str())); // the size nvJitLink gives counts the NUL
  return ptx;
}

} // namespace

void addNvJitLinkSearchDirectory(const std::string &directory) {
  nvJitLinkLibrary().addSearchDirectory(directory);
}

NvJitLinkInfo nvJitLinkInfo() { return nvJitLink().info; }

std::string linkWithNvJitLink(const std::vector<LinkInput> &inputs, const std::string &arch,
                              PtxOptimization optimization) {
  return link(inputs, arch, optimization, LinkOutput::Cubin);
}

std::string linkLtoIrToPtx(const std::vector<LinkInput> &inputs, const std::string &arch) {
  for (const LinkInput &input : inputs)
    if (!isLtoIr(input))
      throw std::invalid_argument("nvJitLink makes PTX of LTO-IR only, and '" + input.name +
                                  "' is not LTO-IR");
  return link(inputs, arch, PtxOptimization::Full, LinkOutput::Ptx);
}

} // namespace kaji::runtime
