// A grid or block shape as cuLaunchKernel takes it.
#pragma once

namespace kaji::runtime {

// A grid or block shape as cuLaunchKernel takes it. Build one from untrusted sizes with
// validateLaunch (Launch.h), which checks them against the device.
struct Dim3 {
  unsigned x = 1;
  unsigned y = 1;
  unsigned z = 1;

  friend bool operator==(const Dim3 &, const Dim3 &) = default;
};

} // namespace kaji::runtime
