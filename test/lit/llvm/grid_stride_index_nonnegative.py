# RUN: %kaji-compile %s --emit llvm | %FileCheck %s --check-prefix=LLVM
# RUN: %kaji-compile %s --emit ptx -o %t.ptx
# RUN: %FileCheck %s --check-prefix=PTX < %t.ptx
# RUN: %ptxas %t.ptx
import kaji


@kaji.jit("void(float32[:], float32[:])")
def grid_stride_sum(out, x):
    acc = 0.0
    for i in range(kaji.grid(1), x.size, kaji.gridsize(1)):
        acc += x[i]
    kaji.atomic.add(out, 0, acc)

# A kernel's extents lie in [0, 2**62] (the ABI); with that, LLVM proves that the index, which
# starts at grid(1) >= 0 and steps by gridsize(1) > 0 while below x.size, never overflows and
# stays non-negative: the wraparound of negative indices (a compare and a select) is gone.
# LLVM: define {{.*}}void @grid_stride_sum({{.*}}i64 range(i64 0, 4611686018427387905) %out.shape0,{{.*}}i64 range(i64 0, 4611686018427387905) %x.shape0,
# LLVM: load float
# LLVM-NOT: select
# LLVM: br i1
#
# The loop, unrolled by four with a remainder loop before it (GPULoopUnrollPolicy.h), loads,
# adds, steps and compares; no sign-bit arithmetic (shr.s64) anywhere in the kernel.
# PTX-LABEL: .entry grid_stride_sum(
# PTX-NOT: shr.s64
# PTX: .pragma "nounroll";
# PTX-NEXT: ld.global.f32
# PTX-COUNT-4: ld.global.f32
# PTX-NOT: ld.global.f32
# PTX-NOT: shr.s64
# PTX: }
