# The CUDA C++ backend spells a raise as the LLVM one does: the first raise's number in the
# module's exception slot, then the thread exits.
# REQUIRES: nvrtc
# RUN: %kaji-compile %s --backend nvrtc --debug --emit cuda | %FileCheck %s
import kaji


@kaji.jit("void(float32[:], int64)")
def k(x, n):
    i = kaji.grid(1)
    if i >= n:
        raise IndexError("i over n")
    x[i] = 1.0

# CHECK: __device__ u32 kaji_exception;
# CHECK: __device__ u32 kaji_raising_thread[6];
# CHECK: if (atomicCAS(&kaji_exception, 0u, 1u) == 0u) kaji::record_raising_thread(kaji_raising_thread);
# CHECK: asm volatile("exit;" ::: "memory");
