#include "arguments.h"
#include "bindings.h"
#include "code_object.h"
#include "compilation.h"
#include "linked_module.h"
#include "record_dtypes.h"

#include "kaji/driver/DiskCache.h"
#include "kaji/driver/Fatbin.h"
#include "kaji/driver/Language.h"
#include "kaji/driver/Toolkit.h"
#include "kaji/driver/Version.h"
#include "kaji/runtime/NvJitLink.h"

#include <pybind11/stl.h>

namespace kaji::python {

namespace {

// The compiler's tables name their entries by string_view; Python gets copies.
std::vector<std::string> copiedNames(const std::vector<std::string_view> &names) {
  return {names.begin(), names.end()};
}

// A type as the kaji.types module builds its objects from it: (dtype, ndim, layout), with
// ndim and layout None for a scalar and everything None for void.
py::tuple typeDescription(const ir::Type &type) {
  if (type.isVoid())
    return py::make_tuple(py::none(), py::none(), py::none());
  if (type.isVector()) // by its Numba name, float32x4, as kaji.types names vector types
    return py::make_tuple(driver::typeString(type), py::none(), py::none());
  // A record goes by kaji IR's spelling; kaji.types makes the Record object of it.
  py::str dtype(type.isRecordArray() ? type.record()->str()
                                     : std::string(ir::numpyName(type.scalarKind())));
  if (type.isScalar())
    return py::make_tuple(dtype, py::none(), py::none());
  const char *layout = type.layout() == ir::Layout::C   ? "C"
                       : type.layout() == ir::Layout::F ? "F"
                                                        : "A";
  return py::make_tuple(dtype, type.ndim(), layout);
}

} // namespace

void bindCompiler(py::module_ &m) {
  py::class_<driver::FunctionSource, std::shared_ptr<driver::FunctionSource>>(
      m, "FunctionSource",
      "A function's dedented source with its file, first line and the columns dedenting "
      "removed, so diagnostics point into the user's file. Parsed on first compile.")
      .def(py::init<std::string, std::string, unsigned, unsigned, std::string>(), py::arg("text"),
           py::arg("file"), py::arg("first_line"), py::arg("column_offset"), py::arg("name"))
      .def_static(
          "from_code",
          [](const py::tuple &code) {
            return std::make_shared<driver::FunctionSource>(codeObject(code));
          },
          py::arg("code"),
          "A function without source text, from its code object described as plain data "
          "(kaji._bytecode builds it); translated into the AST on first compile.")
      .def_property_readonly("name", &driver::FunctionSource::functionName)
      .def_property_readonly("file",
                             [](const driver::FunctionSource &s) { return *s.source().name; })
      .def_property_readonly("first_line",
                             [](const driver::FunctionSource &s) { return s.source().firstLine; })
      .def_property_readonly(
          "column_offset", [](const driver::FunctionSource &s) { return s.source().columnOffset; })
      .def_property_readonly("text",
                             [](const driver::FunctionSource &s) { return s.source().text; })
      .def_property_readonly(
          "syntax_tree", &driver::syntaxTree,
          "The parsed (or, without source text, translated) module as `kaji-compile --emit "
          "ast` prints it; raises CompileError as a compile would.")
      .def(py::pickle(
          [](const driver::FunctionSource &s) {
            if (s.translation())
              throw py::type_error("kaji cannot pickle '" + s.functionName() +
                                   "': it has no source text (define it in a file)");
            return py::make_tuple(s.source().text, *s.source().name, s.source().firstLine,
                                  s.source().columnOffset, s.functionName());
          },
          [](const py::tuple &state) {
            return std::make_shared<driver::FunctionSource>(
                state[0].cast<std::string>(), state[1].cast<std::string>(),
                state[2].cast<unsigned>(), state[3].cast<unsigned>(), state[4].cast<std::string>());
          }));

  m.def(
      "compile",
      [](std::shared_ptr<driver::FunctionSource> source, py::object describeGlobals,
         const std::string &signature, const std::string &stage, const std::string &arch,
         py::handle opt, bool fastMath, const std::string &backend) {
        driver::CompileRequest settings;
        std::optional<driver::Backend> driverBackend = driver::backendFromName(backend);
        if (!driverBackend)
          throw py::value_error("backend must be 'llvm' or 'nvrtc', not '" + backend + "'");
        settings.backend = *driverBackend;
        settings.ptx.arch = arch;
        settings.ptx.optLevel = readOptLevel(opt);
        settings.ptx.fastMath = fastMath;
        KernelDefinition kernel{std::move(source), std::move(describeGlobals)};
        return emitKernelStage(kernel, parseKernelSignature(signature), stageNamed(stage),
                               settings);
      },
      py::arg("source"), py::arg("describe_globals"), py::arg("signature"),
      py::arg("stage") = "ptx", py::arg("arch") = "sm_90", py::arg("opt") = 3,
      py::arg("fast_math") = false, py::arg("backend") = "llvm",
      "The kaji IR, LLVM IR, CUDA C++ or PTX of the kernel in `source` for a signature such as "
      "'void(float32[:], float32)', by the llvm or nvrtc backend. Raises CompileError.");
  m.def("cuda_include_directories", &cudaIncludeDirectories,
        "The directories NVRTC searches for the #include files of the CUDA C++ files kernels "
        "link (Numba's CUDA_NVRTC_EXTRA_SEARCH_PATHS).");
  m.def("set_cuda_include_directories", &setCudaIncludeDirectories, py::arg("directories"));
  m.def(
      "compile_cuda_source",
      [](const std::string &source, const std::string &fileName, const std::string &arch,
         bool lto) -> py::object {
        std::vector<std::string> includes = cudaIncludeDirectories();
        if (lto)
          return py::bytes(driver::compileCudaSource(source, fileName, arch,
                                                     driver::DeviceCodeFormat::LtoIr, includes));
        return py::str(driver::compileCudaSource(source, fileName, arch,
                                                 driver::DeviceCodeFormat::Ptx, includes));
      },
      py::arg("source"), py::arg("file_name"), py::arg("arch") = "sm_90", py::arg("lto") = false,
      "The relocatable PTX (str) NVRTC makes of a CUDA C++ file to link into kernels "
      "(cuda.declare_device), or with lto=True its LTO-IR (bytes, NVRTC -dlto, for nvJitLink); "
      "RuntimeError naming the file with NVRTC's log.");
  m.def(
      "link_kernel",
      [](const std::string &ptx, const std::string &kernel, const std::string &arch,
         const std::vector<std::string> &files) {
        return py::bytes(linkedCubin(ptx, kernel, arch, files));
      },
      py::arg("ptx"), py::arg("kernel"), py::arg("arch"), py::arg("files"),
      "The cubin of kernel `kernel`'s PTX linked with `files` as a kernel's link= files are: "
      "with a .ltoir file by nvJitLink (no GPU needed), else by the driver's linker. Raises "
      "LinkError with the linker's log, naming a missing symbol.");
  m.def(
      "assemble_ptx",
      [](const std::string &ptx, const std::string &arch, bool optimize) {
        std::string cubin = runtime::linkWithNvJitLink(
            {{runtime::CU_JIT_INPUT_PTX, "kernel.ptx", ptx}}, arch,
            optimize ? runtime::PtxOptimization::Full : runtime::PtxOptimization::None);
        return py::bytes(cubin);
      },
      py::arg("ptx"), py::arg("arch"), py::arg("optimize") = true,
      "The cubin of `ptx` for `arch` ('sm_90'), assembled in this process by the ptxas inside "
      "nvJitLink (no GPU needed; optimize=False assembles at -O0, about twice as fast). Raises "
      "LinkError with ptxas's log where it refuses the PTX.");
  m.def(
      "pack_fatbin",
      [](const std::vector<std::pair<std::string, std::string>> &cubins, const std::string &ptxArch,
         const std::string &ptx) { return py::bytes(driver::packFatbin(cubins, ptxArch, ptx)); },
      py::arg("cubins"), py::arg("ptx_arch"), py::arg("ptx"),
      "The fatbin (bytes) of `cubins` ([('sm_80', cubin), ...]) and `ptx` for `ptx_arch`, packed "
      "by the CUDA toolkit's fatbinary; RuntimeError naming fatbinary without it, ValueError "
      "for an architecture that is not sm_NN.");
  m.def("add_nvjitlink_search_directory", &runtime::addNvJitLinkSearchDirectory,
        py::arg("directory"), "Also look for libnvJitLink.so* in `directory`.");
  m.def(
      "nvjitlink_version",
      [] {
        runtime::NvJitLinkInfo info = runtime::nvJitLinkInfo();
        return py::make_tuple(info.major, info.minor, info.path);
      },
      "(major, minor, path) of the nvJitLink that links LTO-IR; raises RuntimeError when there "
      "is none.");
  m.def(
      "typeof",
      [](py::handle value, const std::string &target) {
        if (target != "cuda" && target != "cpu")
          throw py::value_error("target must be 'cpu' or 'cuda', not '" + target + "'");
        return typeDescription(
            inspectArgument(value, target == "cpu" ? ArgumentTarget::Cpu : ArgumentTarget::Cuda)
                .type);
      },
      py::arg("value"), py::arg("target") = "cuda",
      "The type a kernel argument for `target` is specialized on, as (dtype, ndim, layout): "
      "('float32', 2, 'C'); ('int64', None, None) for a scalar.");
  m.def(
      "canonical_signature",
      [](const std::string &text) {
        return driver::signatureString(parseSignatureText(text, /*kernel=*/false));
      },
      py::arg("text"),
      "The canonical spelling of a signature, 'float32(float32, int64[:])', for any spelling "
      "kaji reads; CompileError pointing into `<signature>` for a malformed one.");
  m.def(
      "signature_parts",
      [](const std::string &text) {
        frontend::Signature signature = parseSignatureText(text, /*kernel=*/false);
        py::object returned = signature.resultInferred
                                  ? py::object(py::none())
                                  : py::object(py::str(driver::typeString(signature.returnType)));
        return py::make_tuple(returned, driver::parameterStrings(signature));
      },
      py::arg("text"),
      "(return type, [parameter, ...]) of a signature, each as the canonical spelling gives it; "
      "the return type is None for `(PARAMS)`, which gives none. CompileError as "
      "canonical_signature.");
  m.def(
      "parse_type",
      [](const std::string &text) {
        try {
          return typeDescription(driver::parseType(text));
        } catch (const ir::CompileError &error) {
          throw py::type_error("'" + text + "' is no kaji type: " + error.what());
        }
      },
      py::arg("text"),
      "A type as signatures spell it ('float32[:, ::1]', 'array(float32, 2d, C)', 'f4', "
      "'none') as (dtype, ndim, layout), like typeof(); TypeError naming the problem.");
  m.def(
      "record_spelling",
      [](const py::dtype &dtype) {
        if (!isStructured(dtype))
          throw py::type_error("dtype " + py::str(dtype).cast<std::string>() +
                               " is not a structured (record) dtype");
        return recordFromDtype(dtype)->str();
      },
      py::arg("dtype"),
      "kaji IR's spelling of the structured `dtype`, 'record<8, align 4, x: f32 at 0, y: i32 at "
      "4>'; TypeError for fields kernels cannot take.");
  m.def(
      "record_dtype",
      [](const std::string &spelling) {
        std::string_view rest = spelling;
        const ir::RecordType *record = ir::parseRecordType(rest);
        if (!record || rest.find_first_not_of(' ') != std::string_view::npos)
          throw py::type_error("'" + spelling + "' is no record type");
        return dtypeOfRecord(*record);
      },
      py::arg("spelling"), "The structured dtype with the layout of a record kaji IR spells.");
  m.def(
      "argument_view",
      [](py::handle value) {
        Argument argument = inspectArgument(value, ArgumentTarget::Cuda);
        if (!argument.type.isArray() || argument.host)
          throw py::type_error("argument_view describes GPU arrays, not '" +
                               std::string(Py_TYPE(value.ptr())->tp_name) + "'");
        py::dict view;
        view["type"] = argument.type.str();
        view["data"] = argument.data;
        auto tupleOf = [](std::span<const int64_t> values) {
          py::tuple tuple(values.size());
          for (size_t i = 0; i < values.size(); ++i)
            tuple[i] = py::int_(values[i]);
          return tuple;
        };
        view["shape"] = tupleOf(argument.shape);
        view["strides"] = tupleOf(argument.strides);
        runtime::CUstream producer = argument.foreign.producerStream;
        view["stream"] = producer ? py::object(py::int_(reinterpret_cast<uintptr_t>(producer)))
                                  : py::object(py::none());
        return view;
      },
      py::arg("value"),
      "What a cuda launch takes from a GPU array: type, data pointer, shape, strides (bytes) "
      "and the stream whose work it waits for (None: none), for tests and debugging.");
  m.def("compiler_version", &driver::compilerVersion);
  m.def(
      "disk_cache_stats",
      [] {
        driver::DiskCacheStats stats = driver::DiskCache::stats();
        py::dict counts;
        counts["hits"] = stats.hits;
        counts["misses"] = stats.misses;
        counts["rejected"] = stats.rejected;
        counts["stores"] = stats.stores;
        counts["store_failures"] = stats.storeFailures;
        return counts;
      },
      "Counts of this process's on-disk kernel cache: hits, misses, rejected (damaged entries "
      "removed), stores and store_failures.");
  m.def(
      "default_cache_dir", [] { return driver::DiskCache::defaultDirectory().string(); },
      "Where cache=True kernels keep their PTX now: $KAJI_CACHE_DIR, else "
      "$XDG_CACHE_HOME/kaji, else ~/.cache/kaji.");
  m.def("find_libdevice", &driver::findLibdevice);
  m.def(
      "libdevice_functions",
      [] {
        py::dict functions;
        for (const driver::LibdeviceSignature &function : driver::libdeviceSignatures())
          functions[py::str(function.name)] =
              py::make_tuple(std::string(function.result), copiedNames(function.parameters),
                             copiedNames(function.outputs));
        return functions;
      },
      "The functions cuda.libdevice has (libdevice's names, without __nv_): name -> (result, "
      "parameters, outputs) in Numba's type names; result 'void' for none, outputs the values "
      "written through pointer parameters, returned after the result.");
  m.def(
      "half_precision_functions", [] { return copiedNames(driver::halfPrecisionFunctionNames()); },
      "The names of the functions cuda.fp16 has (hadd, hsin, heq, __float2half_rz, ...).");
  m.def(
      "bfloat16_functions", [] { return copiedNames(driver::bfloat16FunctionNames()); },
      "The names of the functions cuda.bf16 has (hadd, ..., int32_to_bfloat16_rz, ...).");
  m.def(
      "float8_functions", [] { return copiedNames(driver::float8FunctionNames()); },
      "The names of the functions kaji.fp8 has (cvt_float_to_fp8, ...).");
  m.def("add_nvrtc_search_directory", &driver::addNvrtcSearchDirectory, py::arg("directory"),
        "Also look for libnvrtc.so* in `directory`.");
  m.def(
      "nvrtc_version",
      [] {
        driver::NvrtcInfo info = driver::nvrtcInfo();
        return py::make_tuple(info.major, info.minor, info.path);
      },
      "(major, minor, path) of the NVRTC the nvrtc backend uses; raises NvrtcUnavailable "
      "(a RuntimeError) when there is none.");
}

} // namespace kaji::python
