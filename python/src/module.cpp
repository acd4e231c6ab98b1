// kaji._core: the C++ half of the kaji package. The Python half (python/kaji) is thin:
// decorator, globals description, the Numba spelling.
#include "bindings.h"
#include "errors.h"
#include "performance_warnings.h"

PYBIND11_MODULE(_core, m) {
  m.doc() = "kaji's compiler and CUDA runtime, bound for the kaji package";
  kaji::python::registerErrors(m);
  kaji::python::bindPerformanceWarnings(m);
  kaji::python::bindCompiler(m);
  kaji::python::bindRuntime(m);
  kaji::python::bindDeviceArray(m);
  kaji::python::bindMemoryKinds(m);
  kaji::python::bindDispatcher(m);
  kaji::python::bindGraphs(m);
  kaji::python::bindIpc(m);
}
