// 8-bit floats (float8_e4m3fn, float8_e5m2, float8_e8m0fnu): converting to and from them is
// all kernels do with them (Float8Conversions.cpp), as with CUDA's __nv_fp8_* types; and the
// conversion functions of `kaji.fp8`, Numba's numba.cuda._internal.cuda_fp8 by name.
#pragma once

#include <string_view>
#include <vector>

namespace kaji::frontend {

// kaji.fp8's functions: cvt_float_to_fp8(x, saturate, interpretation),
// cvt_double_to_fp8(...), cvt_float_to_e8m0(x, saturate, rounding), cvt_double_to_e8m0(...),
// each giving the 8-bit float's bits as uint8. The modes are Numba's and CUDA's enum values
// (saturation_t: NOSAT 0, SATFINITE 1; fp8_interpretation_t: E4M3 0, E5M2 1; cudaRoundMode:
// cudaRoundZero 1, cudaRoundPosInf 2), taken at run time.
const std::vector<std::string_view> &float8FunctionNames();

} // namespace kaji::frontend
