# RUN: %kaji-compile %s --kernel fast_tanh --kernel fast_tanhf --emit ptx -o %t.ptx
# RUN: %FileCheck %s < %t.ptx
# RUN: %ptxas %t.ptx
# RUN: %kaji-compile %s --kernel fast_tanh --kernel fast_tanhf -O0 --emit ptx | %FileCheck %s --check-prefix=O0
# RUN: %kaji-compile %s --kernel fast_tanh --kernel fast_tanhf --arch sm_75 --emit ptx \
# RUN:   | %FileCheck %s --check-prefixes=CHECK,SM75
# RUN: %kaji-compile %s --kernel fast_tanh --kernel fast_tanhf --arch sm_60 --emit ptx \
# RUN:   | %FileCheck %s --check-prefix=SM60
# RUN: %kaji-compile %s --kernel precise_tanh --emit ptx | %FileCheck %s --check-prefix=PRECISE
# Fast-math float32 tanh and cuda.libdevice.fast_tanhf are the hardware's tanh.approx.f32 on
# sm_75 and newer (libdevice's __nv_fast_tanhf, whose intrinsic kaji selects itself), as
# nvcc's --use_fast_math and Numba give them; PTX 7.0 at least, which the instruction needs.
# Older GPUs compute libdevice's tanhf.
import math

import kaji
from kaji.cuda import libdevice


@kaji.jit("void(float32[::1], float32)", fastmath=True)
def fast_tanh(out, x):
    out[0] = math.tanh(x)


@kaji.jit("void(float32[::1], float32)", fastmath=True)
def fast_tanhf(out, x):
    out[0] = libdevice.fast_tanhf(x)


@kaji.jit("void(float32[::1], float32)")
def precise_tanh(out, x):
    out[0] = math.tanh(x)

# SM75: .version 7.0
# CHECK-LABEL: .entry fast_tanh(
# CHECK: tanh.approx.f32
# CHECK: ret;
# CHECK-LABEL: .entry fast_tanhf(
# CHECK: tanh.approx.f32
# CHECK: ret;
# PRECISE-LABEL: .entry precise_tanh(
# PRECISE-NOT: tanh.approx
# PRECISE: ret;
# At -O0 the kernels call libdevice's function, which holds the instruction.
# O0: tanh.approx.f32
# SM60: .version 6.2
# SM60-NOT: tanh.approx
