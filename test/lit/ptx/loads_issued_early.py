# A block's loads are issued before the arithmetic that needs none of them
# (IssueLoadsEarly.h): sqrt(years[i]) is written first, but the loads of price[i] and strike[i]
# come before the sqrt, so one memory round trip covers all three, as NVVM orders them. A load
# after a store to memory it may read stays after the store.
# RUN: %kaji-compile %s --kernel options --emit ptx | %FileCheck %s
# RUN: %kaji-compile %s --kernel after_store --emit ptx | %FileCheck %s --check-prefix=STORE
# RUN: %kaji-compile %s --kernel address_after_store --emit ptx | %FileCheck %s --check-prefix=ADDRESS
# RUN: %kaji-compile %s --kernel shared_address --emit ptx | %FileCheck %s --check-prefix=SHARED
# RUN: %kaji-compile %s --emit ptx -o %t.ptx
# RUN: %ptxas %t.ptx
import math

from kaji import cuda


@cuda.jit("void(float32[::1], float32[::1], float32[::1], float32[::1])")
def options(out, price, strike, years):
    i = cuda.grid(1)
    if i < out.size:
        root = math.sqrt(years[i])
        out[i] = math.log(price[i] / strike[i]) / root

# CHECK-LABEL: .entry options(
# CHECK: ld.global.f32
# CHECK: ld.global.f32
# CHECK: ld.global.f32
# CHECK: sqrt.rn.f32
# CHECK-NOT: ld.global
# CHECK: }


@cuda.jit("void(float32[::1], float32[::1])")
def after_store(out, x):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = math.sqrt(x[i])
        out[i] += x[i + 1]

# STORE-LABEL: .entry after_store(
# STORE: ld.global.f32
# STORE: sqrt.rn.f32
# STORE: st.global.f32
# STORE: ld.global.f32
# STORE: st.global.f32


# The address arithmetic of a load that stays after a store stays after it too: computed
# before the store, it would hold a register across the store for nothing (a tile copy's
# addresses, all computed first, took a GEMM from 124 registers to 146).
@cuda.jit("void(float32[::1], float32[::1], int64)")
def address_after_store(out, x, stride):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = x[i]
        out[i] += x[(i * stride) % 1000003]

# ADDRESS-LABEL: .entry address_after_store(
# ADDRESS: ld.global.f32
# ADDRESS: st.global.f32
# ADDRESS: mul.hi.s64
# ADDRESS: ld.global.f32
# ADDRESS: st.global.f32


# Address arithmetic that a load before a store already uses is not moved down to the later
# load behind the store: the first load would read a register not yet computed (the batched
# matmul's loads read undefined addresses that way, and the launch failed as misaligned).
@cuda.jit("void(float32[::1], float32[::1])")
def shared_address(out, x):
    i = cuda.grid(1)
    if i < out.size:
        j = (i * 7) % 1000003
        out[i] = x[j]
        out[i] += x[j + 1]

# SHARED-LABEL: .entry shared_address(
# SHARED: mul.hi
# SHARED: ld.global.f32
# SHARED: st.global.f32
# SHARED: ld.global.f32
