// nvJitLink, the toolkit's linker library (libnvJitLink.so, CUDA 12.0 on), opened with dlopen:
// it links LTO-IR (.ltoir, nvcc -dlto / NVRTC -dlto), which the driver's linker does not, with
// PTX, cubins, fatbinaries, objects and libraries into a cubin. It runs on the CPU: no driver
// or GPU is needed to link.
#pragma once

#include "kaji/runtime/Linker.h"

#include <stdexcept>
#include <string>
#include <vector>

namespace kaji::runtime {

// nvJitLink cannot be loaded, or lacks an entry point kaji needs.
class NvJitLinkUnavailable : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

// nvJitLink refused the inputs; the message names them and carries its error log, which
// names an undefined symbol and the input that wants it.
class LinkError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

// Also looks for libnvJitLink.so* in `directory` (the Python package adds the nvidia-nvjitlink
// wheel's), after $KAJI_NVJITLINK, $CUDA_HOME, $CUDA_PATH and /usr/local/cuda.
void addNvJitLinkSearchDirectory(const std::string &directory);

// The loaded library's path and version; throws NvJitLinkUnavailable naming every place
// searched.
struct NvJitLinkInfo {
  std::string path;
  unsigned major = 0;
  unsigned minor = 0;
};
NvJitLinkInfo nvJitLinkInfo();

// How hard the ptxas inside nvJitLink optimises PTX inputs: -O3 as ptxas does by default, or
// -O0, which assembles in about half the time and refuses the same PTX.
enum class PtxOptimization { Full, None };

// Links `inputs` into a cubin for `arch` ("sm_90"). With an LTO-IR input (CU_JIT_INPUT_NVVM)
// the link optimises the LTO-IR inputs together (-lto); nvJitLink refuses -lto without one.
// Throws std::invalid_argument for no inputs, an empty one or an `arch` not of the form sm_XX,
// LinkError with nvJitLink's log (an architecture it does not know among its reasons),
// NvJitLinkUnavailable naming the LTO-IR input (or the first) when there is no nvJitLink.
std::string linkWithNvJitLink(const std::vector<LinkInput> &inputs, const std::string &arch,
                              PtxOptimization optimization = PtxOptimization::Full);

// The PTX of LTO-IR `inputs` linked and optimised together for `arch` (-lto -ptx): what
// nvJitLink would hand its ptxas, so that the caller can prepare it for ptxas itself or look at
// it (Numba's inspect_lto_ptx). A function no input defines stays an `.extern` declaration, for
// a later link with code that is not LTO-IR. Throws std::invalid_argument naming an input that
// is not LTO-IR (nvJitLink makes PTX of LTO-IR alone), otherwise as linkWithNvJitLink.
std::string linkLtoIrToPtx(const std::vector<LinkInput> &inputs, const std::string &arch);

} // namespace kaji::runtime
