# --backend picks who makes the GPU code; the nvrtc backend has no LLVM IR and no cpu target,
# and a missing NVRTC is an error naming where it was looked for.
# RUN: %not %kaji-compile %s --backend clang 2>&1 | %FileCheck %s --check-prefix=UNKNOWN
# RUN: %not %kaji-compile %s --backend nvrtc --emit llvm 2>&1 | %FileCheck %s --check-prefix=LLVM
# RUN: %not %kaji-compile %s --backend nvrtc --target cpu 2>&1 | %FileCheck %s --check-prefix=CPU
# RUN: %not %kaji-compile %s --target cpu --emit cuda 2>&1 | %FileCheck %s --check-prefix=CPU-CUDA
# RUN: env KAJI_NVRTC=/nonexistent/libnvrtc.so CUDA_HOME=/nonexistent %not %kaji-compile %s --backend nvrtc --emit ptx 2>&1 | %FileCheck %s --check-prefix=MISSING
# Without NVRTC the CUDA C++ is still there: emitting it needs no NVRTC.
# RUN: env KAJI_NVRTC=/nonexistent/libnvrtc.so CUDA_HOME=/nonexistent %kaji-compile %s --backend nvrtc --emit cuda | %FileCheck %s --check-prefix=SOURCE
# The llvm backend is the default.
# RUN: %kaji-compile %s --backend llvm --emit ptx | %FileCheck %s --check-prefix=PTX
import kaji


@kaji.jit("void(float32[:])")
def scale(a):
    a[0] *= 2.0

# UNKNOWN: kaji-compile: error: unknown --backend 'clang' (expected llvm or nvrtc)
# LLVM: kaji-compile: error: --backend nvrtc makes no LLVM IR: use --emit cuda, ptx or cubin
# CPU: kaji-compile: error: --backend nvrtc compiles for the GPU; --target cpu always uses LLVM
# CPU-CUDA: kaji-compile: error: --target cpu has no CUDA C++: use --emit ast, ir or llvm
# MISSING: kaji-compile: error: the nvrtc backend needs NVRTC {{.*}}; searched $KAJI_NVRTC=/nonexistent/libnvrtc.so
# SOURCE: extern "C" __global__ void scale(
# PTX: .visible .entry scale(
