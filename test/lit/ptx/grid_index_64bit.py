# cuda.grid(1), and the same index written out as blockIdx.x * blockDim.x + threadIdx.x, are
# 64-bit: the product is widened (mul.wide.u32), so neither wraps past 2**31 threads.
# RUN: %kaji-compile %s --kernel k --sig 'void(int64[:], int64[:])' --emit ptx -o %t.ptx
# RUN: %FileCheck %s < %t.ptx
# RUN: %ptxas %t.ptx
import kaji


def k(grid_index, written_out):
    i = kaji.grid(1)
    grid_index[0] = i
    written_out[0] = kaji.blockIdx.x * kaji.blockDim.x + kaji.threadIdx.x

# CHECK-LABEL: .entry k(
# CHECK-NOT: mul.lo.s32
# CHECK-NOT: mad.lo.s32
# CHECK: mul.wide.u32
# CHECK-NOT: mul.lo.s32
# CHECK-NOT: mad.lo.s32
# CHECK: ret;
