// Instructions that ptxas (CUDA 13.0, sm_90 and others) miscompiles, rewritten on the PTX text
// before it reaches ptxas.
//
// 16 bits: for `neg.s16` and `abs.s16` ptxas computes -x or |x| in a 32-bit register from the
// sign-extended x and keeps that as the 16-bit result without sign-extending it again, so
// -(-32768) and |-32768| reach whatever widens, compares, shifts or divides them as +32768
// instead of wrapping to -32768 (an H100 stored 32768 for `-x` of int16 -32768 widened to int64;
// nvcc's own PTX for `(long long)(short)-x` is compiled the same way). It does sign-extend after
// a `cvt.u16.u32`, so a 32-bit neg/abs of the sign-extended value, narrowed by that conversion,
// is compiled right (checked in the SASS: the result passes through `PRMT ..., 0x9910` before
// use).
//
// 32 and 64 bits: ptxas takes the result of `abs.s32`/`abs.s64` to be non-negative, though
// |INT_MIN| is INT_MIN, and folds later tests of its sign away: libdevice's exp tests
// `x < 0` of the converted |x| and an H100 gave inf for np.exp(np.abs(int64 min)) (the SASS of
// `abs.s64; cvt.rn.f64.s64; setp.lt.s64` has no compare left). A compare, a negation and a
// select are compiled as written (the SASS keeps the ISETP).
//
// 16-bit min and max: ptxas folds `max.u16 M, X, 1; setp.eq.s16 P, M, 1` (and the signed and
// min forms) into one `VIMNMX.U16x2 R, P, P, X, 0x1`, the packed two-lane instruction with a
// predicate per lane, both written to P; the upper lane (0 against 0) sets it whatever the
// lower lane holds. An H100 gave `True % (254 & v)` as 0 for uint8 v = 6, and took
// `max(a * -2 + 1, False // b)` as 0. nvcc never emits 16-bit min/max (C promotes the operands
// to int); a 32-bit min/max of the extended operands narrowed by cvt.u16.u32 compiles to
// `VIMNMX.U32`, a sign extension and an `ISETP` of the result.
//
// f32 compares with a non-positive immediate: ptxas takes `abs.f32` and `x * x` results to be
// non-negative and folds `setp.gt.f32 P, |x|, 0fBF800000` to true, forgetting that |NaN| is
// NaN, for which every ordered compare is false (an H100 gave True for `abs(x) > -1`,
// `abs(x) >= 0` and `x * x >= 0` of a float32 NaN; the f64 forms keep their DSETP). Such a
// compare becomes the same compare joined with a NaN test of its register operand
// (`setp.num` and `.and` for gt, ge and ne; `setp.nan` and `.or` for the unordered ltu, leu and
// equ, which the same assumption would fold to false), which ptxas keeps.
//
// LLVM's NVPTX backend turns such sequences written in LLVM IR back into neg.s16 and abs (it
// matches the select pattern), and creates negations of its own (`x * -2` becomes
// `-(x << 1)`), so the rewrite is made on the PTX it prints, where every one is visible.
// NVRTC's PTX (the CUDA C++ backend) holds them too and gets the same rewrite in the driver.
#pragma once

#include <string>

namespace kaji::codegen {

// `ptx` with every `neg.s16 D, S;`, `abs.s16 D, S;` and `{min,max}.{s,u}16 D, A, B;` replaced
// by the 32-bit forms above, every `abs.s32 D, S;` and `abs.s64 D, S;` by a compare, negation
// and select, and the f32 compares above by their NaN-guarded forms, each in a scope of its own
// declaring the registers it needs.
std::string rewriteMiscompiledOpsForPtxas(const std::string &ptx);

// `ptx` with `.rn` on the f16, f32 and f64 `add`, `sub` and `mul` that have no rounding modifier,
// except a multiply read only by such adds and subtracts, and those: the pairs ptxas may fuse
// into an fma. PTX leaves an unrounded instruction's rounding to ptxas, which may do more than
// fuse it: on an H100 (driver 580.159.04) `t = x * x; t = t * 0.5` of float32 x = 2**64 gave
// 2**127 where each rounded step gives inf, the two multiplies scaled as one. The LLVM backend
// marks what it leaves unfused `.rn` itself (PTXEmitter's allowMultiplyAddContraction). NVRTC's
// PTX without fast math gets this rewrite: NVVM fuses `a * b + c` (--fmad=true) but leaves
// `c - a * b` as an unrounded multiply and subtract for ptxas to fuse.
std::string roundUnroundedFloatOps(const std::string &ptx);

} // namespace kaji::codegen
