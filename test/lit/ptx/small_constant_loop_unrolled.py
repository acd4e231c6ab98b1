# A range loop with a small constant trip count is unrolled completely on the GPU, as nvcc
# does, though its guarded body is over LLVM's own unrolling budget
# (codegen/src/SmallLoopFullUnroll.h); a long one stays a loop.
# RUN: %kaji-compile %s --kernel convolution --emit ptx | %FileCheck %s --check-prefix=SHORT
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


@cuda.jit("void(float32[::1], float32[::1])")
def long_sum(out, x):
    acc = np.float32(0)
    for k in range(1000):
        acc += x[k]
    out[0] = acc

# LONG-LABEL: .entry long_sum(
# LONG: [[LOOP:\$L__BB[0-9_]+]]:
# LONG: bra.uni {{.*}}[[LOOP]];
