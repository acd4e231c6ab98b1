// Type-specific fast paths for the GPU arrays users pass most: CuPy's ndarray and PyTorch's
// Tensor. Their `__cuda_array_interface__` builds a dict (and, for PyTorch, runs Python) at
// every launch, which cost more than the launch itself; here the pointer, shape, strides and
// dtype are read straight from the object, with the same result the protocol gives: PyTorch's
// through the DLPack C exchange API it exports (2.11 does), else, like CuPy's, through the
// attributes the interface is built from, each read through a cached descriptor. Nothing is
// imported: the types are recognized by module and name, and the libraries' modules are looked
// up in sys.modules (an object of the type exists, so they are loaded). Anything unusual (a
// subclass, a tensor needing grad or not on the GPU, an unknown dtype) is left to the general
// protocol, which says what is wrong with it.
#pragma once

#include "array_interop.h"
#include "dlpack_abi.h"

#include <optional>

namespace kaji::python {

// What the readers of one launch share: CuPy's current stream, looked up once per launch.
class KnownArrayReader {
public:
  // Reads `object` into `view` when it is a CuPy ndarray or a PyTorch tensor the fast path
  // takes; false (view untouched) otherwise.
  bool read(py::handle object, ArrayView &view);

private:
  bool readCupy(py::handle array, ArrayView &view);
  bool readTorch(py::handle tensor, ArrayView &view);
  bool readTorchThroughExchangeApi(const dlpack::ExchangeApi &api, py::handle tensor,
                                   ArrayView &view);
  bool readTorchAttributes(py::handle tensor, ArrayView &view);
  // The `stream` CuPy's __cuda_array_interface__ would export now; nullopt when it would
  // not export (the general path then reports what is wrong).
  std::optional<runtime::CUstream> cupyProducerStream();

  std::optional<std::optional<runtime::CUstream>> cupyStream_;
};

} // namespace kaji::python
