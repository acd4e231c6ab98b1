// The DLPack ABI (dlpack.h), declared here as the spec fixes it: the tensor description every
// version shares (v0.8+), and the C exchange API of v1.2, through which a library hands a
// consumer a tensor's description with one C call instead of a Python protocol.
#pragma once

#include <cstdint>

namespace kaji::python::dlpack {

struct Device {
  int32_t deviceType;
  int32_t deviceId;
};

struct DataType {
  uint8_t code;
  uint8_t bits;
  uint16_t lanes;
};

struct Tensor {
  void *data;
  Device device;
  int32_t ndim;
  DataType dtype;
  int64_t *shape;
  int64_t *strides; // in elements; null for row-major contiguous (before v1.2)
  uint64_t byteOffset;
};

struct ManagedTensor {
  Tensor tensor;
  void *managerContext;
  void (*deleter)(ManagedTensor *self);
};

constexpr int32_t kDLCUDA = 2;
constexpr int32_t kDLCUDAManaged = 13;

struct Version {
  uint32_t major;
  uint32_t minor;
};

// DLPackExchangeAPI: a class exports it as the PyCapsule `__dlpack_c_exchange_api__` (capsule
// name "dlpack_exchange_api"). Its layout is fixed within a major version. kaji calls only
// `tensorFromPyObjectNoSync`; the others are declared for the layout.
struct ExchangeApi {
  Version version;
  const ExchangeApi *previousVersion;
  void *managedTensorAllocator;
  void *managedTensorFromPyObjectNoSync;
  void *managedTensorToPyObjectNoSync;
  // Fills `out` with a description of `object` valid while the object lives, or returns -1
  // with a Python exception set; may be null.
  int (*tensorFromPyObjectNoSync)(void *object, Tensor *out);
  void *currentWorkStream;
};

constexpr uint32_t kExchangeApiMajorVersion = 1;
constexpr const char *kExchangeApiCapsuleName = "dlpack_exchange_api";
constexpr const char *kExchangeApiAttribute = "__dlpack_c_exchange_api__";

} // namespace kaji::python::dlpack
