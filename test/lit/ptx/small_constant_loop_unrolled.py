# A range loop with a small constant trip count is unrolled completely on the GPU, as nvcc
# does, though its guarded body is over LLVM's own unrolling budget
# (codegen/llvm/src/GPULoopUnrollPolicy.h), and its copies keep only the guards that the enclosing
# one does not decide; a long loop stays a loop.
# RUN: %kaji-compile %s --kernel convolution --emit ptx | %FileCheck %s --check-prefix=SHORT
# RUN: %kaji-compile %s --kernel convolution --emit llvm | %FileCheck %s --check-prefix=GUARDS
# RUN: %kaji-compile %s --kernel long_sum --emit ptx | %FileCheck %s --check-prefix=LONG
# RUN: %kaji-compile %s --emit ptx -o %t.ptx
# RUN: %ptxas %t.ptx
import numpy as np
from kaji import cuda


@cuda.jit("void(float32[::1], float32[::1], float32[::1])")
def convolution(out, x, weights):
    i = cuda.grid(1)
    if i < x.size:
        acc = np.float32(0)
        for k in range(17):
            j = i + k - 8
            if j >= 0 and j < x.size:
                acc += weights[k] * x[j]
        out[i] = acc

# Seventeen taps, each its own guarded multiply-add, and no loop counter left:
# SHORT-LABEL: .entry convolution(
# SHORT-COUNT-17: fma.rn.f32
# SHORT-NOT: fma.rn.f32
# SHORT-NOT: setp.eq.s64 {{.*}}, 16;
# SHORT: st.global.f32

# Each unrolled copy's guard tests a constant offset from i, and the enclosing `i < x.size`
# decides half of them: taps left of i are below x.size whenever i is, taps right of i are at
# least 0. ConstraintElimination runs again after the loop passes
# (codegen/llvm/include/kaji/codegen/llvm/OptimizationPipeline.cpp) and removes those tests, so the left taps compare
# only i with a constant and the right taps only their index with x.size.
# GUARDS-LABEL: define {{.*}}void @convolution(
# GUARDS: [[I:%[0-9]+]] = add nuw nsw i64
# GUARDS: icmp ult i64 [[I]], %x.shape0
# Taps 0..6 (j = i - 8 .. i - 2): only j >= 0 is left, as i > 8 - k.
# GUARDS-COUNT-7: icmp ugt i64 [[I]], {{[1-7]}}
# Tap 7 (j = i - 1: both tests in one unsigned compare), then taps 9..16: only j < x.size.
# Tap 8 (j = i) needs no test at all.
# GUARDS-COUNT-9: icmp ult i64 %{{[0-9.a-z]+}}, %x.shape0
# GUARDS-NOT: icmp
# GUARDS: }


@cuda.jit("void(float32[::1], float32[::1])")
def long_sum(out, x):
    acc = np.float32(0)
    for k in range(1000):
        acc += x[k]
    out[0] = acc

# LONG-LABEL: .entry long_sum(
# LONG: [[LOOP:\$L__BB[0-9_]+]]:
# LONG: bra.uni {{.*}}[[LOOP]];
