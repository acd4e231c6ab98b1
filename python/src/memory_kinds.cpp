// kaji._core's memory kinds: page-locked (pinned), mapped and managed memory, page-locking
// existing numpy arrays, the process's memory limit and the pending frees of device memory.
// kaji.cuda builds Numba's pinned_array, mapped_array, managed_array, pinned() and mapped() on
// these.

#include "array_sizes.h"
#include "bindings.h"
#include "host_memory.h"
#include "integers.h"

#include "kaji/runtime/ManagedMemory.h"
#include "kaji/runtime/MemoryLimit.h"
#include "kaji/runtime/PageLockedMemory.h"
#include "kaji/runtime/PendingFrees.h"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <memory>
#include <optional>

namespace kaji::python {

namespace {

// A 1-d uint8 numpy array over the memory `owner` holds, which is freed when the last view
// of the array goes.
template <class Owner> py::array bytesOwnedBy(std::unique_ptr<Owner> owner, std::size_t bytes) {
  auto *data = static_cast<uint8_t *>(owner->data());
  py::capsule base(owner.release(), [](void *held) { delete static_cast<Owner *>(held); });
  return py::array_t<uint8_t>({py::ssize_t(bytes)}, {py::ssize_t(1)}, data, base);
}

// Host bytes and their reservation against the memory limit, freed together.
class LimitedHostBytes {
public:
  explicit LimitedHostBytes(std::size_t bytes)
      : reservation_(bytes), bytes_(std::make_unique_for_overwrite<uint8_t[]>(bytes)) {}
  void *data() { return bytes_.get(); }

private:
  runtime::MemoryReservation reservation_; // first: nothing is allocated past the limit
  std::unique_ptr<uint8_t[]> bytes_;
};

// The bytes a numpy array's elements span: (first byte, byte count, offset of the first
// element from the first byte).
struct HostSpan {
  void *start;
  std::size_t bytes;
  int64_t firstElement;
};

HostSpan spanOf(const py::array &array) {
  std::vector<int64_t> shape(array.shape(), array.shape() + array.ndim());
  std::vector<int64_t> strides(array.strides(), array.strides() + array.ndim());
  auto [low, high] = byteExtent(shape, strides, array.itemsize());
  auto *data = static_cast<char *>(const_cast<void *>(array.data()));
  return {data + low, std::size_t(high - low), -low};
}

// A numpy array page-locked for the life of this object (kaji.cuda.pinned and mapped).
class PageLock {
public:
  PageLock(const py::array &array, bool portable, bool mapped)
      : array_(array), span_(spanOf(array)),
        registration_(span_.start, span_.bytes, {.portable = portable, .mapped = mapped}) {}

  // The device address of the array's first element (for mapped memory).
  runtime::CUdeviceptr devicePointer() const {
    return registration_.devicePointer() + runtime::CUdeviceptr(span_.firstElement);
  }
  void release() { registration_.release(); }

private:
  py::array array_; // kept alive while its memory is registered
  HostSpan span_;
  runtime::HostRegistration registration_;
};

} // namespace

py::array limitedHostMemory(std::size_t bytes) {
  return bytesOwnedBy(std::make_unique<LimitedHostBytes>(bytes), bytes);
}

void bindMemoryKinds(py::module_ &m) {
  m.def(
      "pinned_host_memory",
      [](std::size_t bytes, bool portable, bool mapped, bool writeCombined) {
        auto buffer = std::make_unique<runtime::PinnedHostBuffer>(
            bytes, runtime::PageLockOptions{portable, mapped, writeCombined});
        runtime::CUdeviceptr devicePointer = mapped ? buffer->devicePointer() : 0;
        return py::make_tuple(bytesOwnedBy(std::move(buffer), bytes), devicePointer);
      },
      py::arg("nbytes"), py::arg("portable") = false, py::arg("mapped") = false,
      py::arg("write_combined") = false,
      "(uint8 numpy array over new page-locked host memory, its device address or 0 when not "
      "`mapped`).");
  m.def(
      "managed_memory",
      [](std::size_t bytes, bool attachGlobal) {
        return bytesOwnedBy(std::make_unique<runtime::ManagedBuffer>(bytes, attachGlobal), bytes);
      },
      py::arg("nbytes"), py::arg("attach_global") = true,
      "A uint8 numpy array over new managed memory, whose host address is its device address.");
  py::class_<PageLock>(m, "PageLock",
                       "A numpy array page-locked (and, if `mapped`, mapped into the device's "
                       "address space) until release().")
      .def(py::init<const py::array &, bool, bool>(), py::arg("array"), py::arg("portable") = false,
           py::arg("mapped") = false)
      .def_property_readonly("device_pointer", &PageLock::devicePointer,
                             "The device address of the array's first element (mapped only).")
      .def("release", &PageLock::release, "Unregisters the memory; later calls do nothing.");
  m.def(
      "is_page_locked",
      [](const py::array &array) {
        HostSpan span = spanOf(array);
        return runtime::isPageLocked(span.start, span.bytes);
      },
      py::arg("array"), "Whether the array's memory lies in memory kaji page-locked.");
  m.def("memory_limit", &runtime::memoryLimit,
        "The process's limit on kaji's device memory in bytes, or None.");
  m.def(
      "set_memory_limit",
      [](const py::object &bytes) {
        // Read as the project reads every int (integers.h): one past 2**64-1 is a ValueError
        // naming it and the range, not pybind11's "incompatible function arguments".
        runtime::setMemoryLimit(
            bytes.is_none() ? std::nullopt
                            : std::optional<std::size_t>(readUint64(bytes, "the memory limit")));
      },
      py::arg("nbytes"), "Sets (None removes) the process's limit on kaji's device memory.");
  m.def("limited_host_memory", &limitedHostMemory, py::arg("nbytes"),
        "A uint8 numpy array over new host memory counted against the memory limit while it "
        "lives: what stands in for device memory on the cpu target.");
  m.def("parse_byte_size", &runtime::parseByteSize, py::arg("text"),
        "'512MiB' -> 536870912, as KAJI_MEMORY_LIMIT is read; ValueError for anything else.");
  m.def(
      "pending_frees",
      [](int device) {
        const runtime::PendingFrees &queue = runtime::PendingFrees::ofDevice(device);
        return py::make_tuple(queue.count(), queue.bytes(), queue.maxBytes(), queue.deferred());
      },
      py::arg("device"),
      "(count, bytes, the bytes past which they are done, whether deferred) of the device "
      "memory frees pending on `device`.");
  m.def(
      "flush_pending_frees",
      [](int device) { return runtime::PendingFrees::ofDevice(device).flush(); }, py::arg("device"),
      "Does the frees pending on `device` unless they are deferred; returns how many.");
  m.def(
      "defer_frees", [](int device) { runtime::PendingFrees::ofDevice(device).defer(); },
      py::arg("device"), "Holds back every free on `device` until resume_frees (nested).");
  m.def(
      "resume_frees", [](int device) { runtime::PendingFrees::ofDevice(device).resume(); },
      py::arg("device"), "Ends one defer_frees.");
  m.def(
      "pending_free_limits",
      [] {
        runtime::PendingFreeLimits limits = runtime::pendingFreeLimits();
        return py::make_tuple(limits.count, limits.deviceMemoryShare);
      },
      "(count, share of device memory) past which pending frees are done.");
  m.def(
      "set_pending_free_limits",
      [](std::size_t count, double share) {
        runtime::setPendingFreeLimits({count, share});
      },
      py::arg("count"), py::arg("share"),
      "Sets the count and the share of device memory past which pending frees are done.");
  m.def("memory_in_use", &runtime::memoryInUse,
        "The bytes of kaji's live device and managed buffers (on the cpu target, of the host "
        "memory standing in for them).");
}

} // namespace kaji::python
