# cuda.pipeline in the CUDA C++ backend: cp.async in inline PTX from the shared window's 32-bit
# address (shared arrays start on 16-byte boundaries), commit and wait as cp.async's group
# instructions; bounds-checked, each span's last element is checked first, then that both
# addresses are aligned to the copy's size (a ValueError otherwise, the table's next entry).
# NVRTC compiles it and ptxas assembles the PTX.
# REQUIRES: nvrtc
# RUN: %kaji-compile %s --backend nvrtc --emit cuda | %FileCheck %s
# RUN: %kaji-compile %s --backend nvrtc --boundscheck --emit cuda | %FileCheck %s --check-prefix=CHECKED
# RUN: %kaji-compile %s --backend nvrtc --emit ptx -o %t.ptx
# RUN: %FileCheck %s --check-prefix=PTX < %t.ptx
# RUN: %ptxas %t.ptx
# CHECK: __shared__ __align__(16) i16 {{shared[0-9]*}}[128];
# CHECK: asm volatile("cp.async.ca.shared.global [%0], [%1], 8;" :: "r"(unsigned(__cvta_generic_to_shared({{v[0-9]+}}.data))), "l"({{v[0-9]+}}.data) : "memory");
# CHECK: asm volatile("cp.async.commit_group;" ::: "memory");
# CHECK: asm volatile("cp.async.wait_group 0;" ::: "memory");
# CHECKED: kaji::checked_index(3, {{v[0-9]+}}.shape[0], kaji::index_site{{.*}}, 0, false); kaji::checked_index(3, {{v[0-9]+}}.shape[0], kaji::index_site{{.*}}, 0, false);
# CHECKED-SAME: if ((reinterpret_cast<u64>({{v[0-9]+}}.data) | reinterpret_cast<u64>({{v[0-9]+}}.data)) & 7ull) { if (atomicCAS(&kaji_exception, 0u, 2u) == 0u) kaji::record_raising_thread(kaji_raising_thread); asm volatile("exit;" ::: "memory"); }
# CHECKED-SAME: asm volatile("cp.async.ca
# PTX: cp.async.ca.shared.global [%r{{[0-9]+}}], [%rd{{[0-9]+}}], 8;
# PTX: cp.async.commit_group;
# PTX: cp.async.wait_group 0;
import numpy as np

from kaji import cuda


@cuda.jit("void(int16[::1], int16[::1])")
def staged(x, out):
    tile = cuda.shared.array(128, np.int16)
    t = cuda.threadIdx.x
    cuda.pipeline.memcpy_async(tile[4 * t:], x[4 * t:], 8)
    cuda.pipeline.commit()
    cuda.pipeline.wait_prior(0)
    cuda.syncthreads()
    out[t] = tile[t]
