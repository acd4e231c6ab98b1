# A device function compiled on its own: a .visible .func by the C ABI (the result returned,
# converted to the signature's type) or Numba's (the result stored through the first
# parameter, 0 returned), which ptxas assembles as relocatable code; no .entry.
# RUN: %kaji-compile %s --kernel hypot_squared --sig 'float32(float32, float32)' --export c | %FileCheck %s --check-prefix=C
# RUN: %kaji-compile %s --kernel hypot_squared --sig 'float32(float32, float32)' --export numba | %FileCheck %s --check-prefix=NUMBA
# RUN: %kaji-compile %s --kernel hypot_squared --sig 'int32(int64, int64)' --export c | %FileCheck %s --check-prefix=CONVERTED
# RUN: %kaji-compile %s --kernel hypot_squared --sig 'float32(float32, float32)' --export numba --backend nvrtc | %FileCheck %s --check-prefix=NUMBA
# RUN: %kaji-compile %s --kernel hypot_squared --sig 'float32(float32, float32)' --export c -o %t.ptx
# RUN: %ptxas-for -c --gpu-name sm_90 %t.ptx
# RUN: %not %kaji-compile %s --kernel hypot_squared --kernel other --sig 'float32(float32, float32)' --export c 2>&1 | %FileCheck %s --check-prefix=TWO
# RUN: %not %kaji-compile %s --kernel hypot_squared --sig 'float32(float32, float32)' --export fortran 2>&1 | %FileCheck %s --check-prefix=ABI
import kaji


@kaji.jit(device=True)
def hypot_squared(x, y):
    return x * x + y * y


@kaji.jit(device=True)
def other(x, y):
    return x


# C: .visible .func (.param .b32 func_retval0) hypot_squared(
# C-NEXT: .param .b32 hypot_squared_param_0,
# C-NEXT: .param .b32 hypot_squared_param_1
# C-NOT: .entry
# C: fma.rn.f32
# C: st.param.f32 [func_retval0+0]
# NUMBA: .visible .func (.param .b32 func_retval0) hypot_squared(
# NUMBA-NEXT: .param .b64 {{.*}}hypot_squared_param_0,
# NUMBA: st{{(.global)?}}.f32 [%rd{{[0-9]+}}]
# NUMBA: mov.{{[bu]}}32 [[STATUS:%r[0-9]+]], 0;
# NUMBA: st.param.b32 [func_retval0+0], [[STATUS]];
# CONVERTED: .visible .func (.param .b32 func_retval0) hypot_squared(
# CONVERTED-NEXT: .param .b64
# CONVERTED: cvt.u32.u64
# TWO: error: --export compiles one function: give one --kernel
# ABI: unknown --export 'fortran' (expected c or numba)
