// kaji_prelude.cuh: what the CUDA C++ that kaji emits builds on. The emitter hands it to
// NVRTC as a header of the program; it includes nothing, so NVRTC needs no CUDA headers.
// A host compiler may include it with __device__ and __forceinline__ defined away (and
// <cmath> included): then only the arithmetic is there, for testing.
//
// kaji IR's arithmetic is total (docs/ir.md): integers wrap, x / 0 == 0, shifts past the
// width saturate, float -> int conversions saturate. C++ leaves signed overflow, division by
// zero, oversized shifts and out-of-range conversions undefined, so every such operation goes
// through a helper here that computes the same result as the LLVM lowering without them.
#pragma once

typedef signed char i8;
typedef short i16;
typedef int i32;
typedef long long i64;
typedef unsigned char u8;
typedef unsigned short u16;
typedef unsigned int u32;
typedef unsigned long long u64;
typedef float f32;
typedef double f64;
// kaji IR's complex numbers (`complex`, `real`, `imag` build and take them apart; the
// frontend computes with their parts): aligned as their parts, as numpy lays them out.
struct c64 {
  f32 re, im;
};
struct c128 {
  f64 re, im;
};
// 8-bit floats as their bits: the frontend converts them with integer operations and bitcasts,
// so they need no arithmetic here.
struct f8e4m3 {
  u8 bits;
};
struct f8e5m2 {
  u8 bits;
};
struct f8e8m0 {
  u8 bits;
};

namespace kaji {

template <bool B, class T, class F> struct conditional { typedef T type; };
template <class T, class F> struct conditional<false, T, F> { typedef F type; };
template <class T> struct is_signed { static const bool value = T(-1) < T(0); };
// Where the wrapping arithmetic of T happens: an unsigned type at least as wide as int, so
// neither integer promotion nor overflow can make it undefined.
template <class T> struct wide_unsigned {
  typedef typename conditional<sizeof(T) <= 4, u32, u64>::type type;
};
template <class T> struct same_unsigned {
  typedef typename conditional<
      sizeof(T) == 1, u8,
      typename conditional<sizeof(T) == 2, u16,
                           typename conditional<sizeof(T) == 4, u32, u64>::type>::type>::type type;
};

template <class T> __device__ __forceinline__ T add(T a, T b) {
  typedef typename wide_unsigned<T>::type U;
  return T(U(a) + U(b));
}
template <class T> __device__ __forceinline__ T sub(T a, T b) {
  typedef typename wide_unsigned<T>::type U;
  return T(U(a) - U(b));
}
template <class T> __device__ __forceinline__ T mul(T a, T b) {
  typedef typename wide_unsigned<T>::type U;
  return T(U(a) * U(b));
}
template <class T> __device__ __forceinline__ T neg(T a) {
  typedef typename wide_unsigned<T>::type U;
  return T(U(0) - U(a));
}
template <class T> __device__ __forceinline__ T abs(T a) { return a < T(0) ? neg(a) : a; }

// Truncating division: x / 0 == 0, MIN / -1 == MIN.
template <class T> __device__ __forceinline__ T div(T a, T b) {
  if (b == T(0))
    return T(0);
  if (is_signed<T>::value && b == T(-1))
    return neg(a);
  return T(a / b);
}
// Python //: rounds toward negative infinity; x // 0 == 0, MIN // -1 == MIN.
template <class T> __device__ __forceinline__ T floordiv(T a, T b) {
  if (b == T(0))
    return T(0);
  if (!is_signed<T>::value)
    return T(a / b);
  if (b == T(-1))
    return neg(a);
  T q = T(a / b), r = T(a % b);
  return (r != T(0) && ((r ^ b) < T(0))) ? T(q - T(1)) : q;
}
// Python %: the result has the divisor's sign; x % 0 == 0, x % -1 == 0.
template <class T> __device__ __forceinline__ T mod(T a, T b) {
  if (b == T(0))
    return T(0);
  if (!is_signed<T>::value)
    return T(a % b);
  if (b == T(-1))
    return T(0);
  T r = T(a % b);
  return (r != T(0) && ((r ^ b) < T(0))) ? T(r + b) : r;
}

// The shift amount is read as unsigned: past the width, << gives 0, >> saturates (0 or -1).
template <class T> __device__ __forceinline__ T shl(T a, T amount) {
  typedef typename wide_unsigned<T>::type U;
  typedef typename same_unsigned<T>::type S;
  return S(amount) >= sizeof(T) * 8 ? T(0) : T(U(a) << S(amount));
}
template <class T> __device__ __forceinline__ T shr(T a, T amount) {
  typedef typename same_unsigned<T>::type S;
  const S width = sizeof(T) * 8;
  if (is_signed<T>::value)
    return T(a >> (S(amount) >= width ? width - 1 : S(amount)));
  return S(amount) >= width ? T(0) : T(a >> S(amount));
}

// Integer ** by squaring, wrapping; a negative exponent gives 1 for base 1, +-1 for base -1
// by parity, else 0.
template <class T> __device__ T pow(T base, T exponent) {
  if (is_signed<T>::value && exponent < T(0)) {
    if (base == T(1))
      return T(1);
    if (base == T(-1))
      return (exponent & T(1)) ? T(-1) : T(1);
    return T(0);
  }
  T result = T(1);
  for (typename same_unsigned<T>::type e = exponent; e != 0; e >>= 1) {
    if (e & 1)
      result = mul(result, base);
    base = mul(base, base);
  }
  return result;
}

// float -> int truncates toward zero, saturates out of range and gives 0 for NaN, as LLVM's
// fpto[su]i.sat (the powers of two below are exact in every float type).
template <class T, class F> __device__ __forceinline__ T to_int(F x) {
  const int bits = sizeof(T) * 8;
  if (x != x)
    return T(0);
  if (is_signed<T>::value) {
    const F limit = F(u64(1) << (bits - 1));
    if (x <= -limit)
      return T(typename same_unsigned<T>::type(1) << (bits - 1));
    if (x >= limit)
      return T(~(typename same_unsigned<T>::type(1) << (bits - 1)));
    return T(x);
  }
  const F limit = F(u64(1) << (bits - 1)) * F(2);
  if (x <= F(0))
    return T(0);
  if (x >= limit)
    return T(~T(0));
  return T(x);
}
// CPython's float_divmod: the remainder takes the divisor's sign, the quotient is the
// exactly-rounded floor of the true quotient.
__device__ __forceinline__ f32 floor_of(f32 x) { return floorf(x); }
__device__ __forceinline__ f64 floor_of(f64 x) { return ::floor(x); }
__device__ __forceinline__ f32 fmod_of(f32 a, f32 b) { return fmodf(a, b); }
__device__ __forceinline__ f64 fmod_of(f64 a, f64 b) { return ::fmod(a, b); }
__device__ __forceinline__ f32 copysign_of(f32 a, f32 b) { return copysignf(a, b); }
__device__ __forceinline__ f64 copysign_of(f64 a, f64 b) { return ::copysign(a, b); }
template <class F> struct divmod_result { F quotient, remainder; };
template <class F> __device__ divmod_result<F> float_divmod(F a, F b) {
  F mod = fmod_of(a, b);
  F div = (a - mod) / b;
  bool adjust = mod != F(0) && ((b < F(0)) != (mod < F(0)));
  F adjustedMod = adjust ? mod + b : mod;
  F adjustedDiv = adjust ? div - F(1) : div;
  divmod_result<F> result;
  result.remainder = mod != F(0) ? adjustedMod : copysign_of(F(0), b);
  F floored = floor_of(adjustedDiv);
  if (adjustedDiv - floored > F(0.5))
    floored = floored + F(1);
  result.quotient = adjustedDiv != F(0) ? floored : copysign_of(F(0), a / b);
  return result;
}
template <class F> __device__ __forceinline__ F float_floordiv(F a, F b) {
  return float_divmod(a, b).quotient;
}
template <class F> __device__ __forceinline__ F float_mod(F a, F b) {
  return float_divmod(a, b).remainder;
}
// `take_b ? b : a` as one selp: NVVM turns the float select of Python's min and max (also
// one between the bits) into min.f64/max.f64, which gives -0.0 for min(0.0, -0.0) where
// Python gives 0.0. A host compiler testing the arithmetic has no PTX: a plain select there.
#ifdef __CUDA_ARCH__
template <class F> __device__ __forceinline__ F choose(bool take_b, F b, F a) {
  F chosen;
  if constexpr (sizeof(F) == 4)
    asm("{\n\t.reg .pred p;\n\tsetp.ne.b32 p, %3, 0;\n\tselp.f32 %0, %1, %2, p;\n\t}"
        : "=f"(chosen)
        : "f"(b), "f"(a), "r"(int(take_b)));
  else
    asm("{\n\t.reg .pred p;\n\tsetp.ne.b32 p, %3, 0;\n\tselp.f64 %0, %1, %2, p;\n\t}"
        : "=d"(chosen)
        : "d"(b), "d"(a), "r"(int(take_b)));
  return chosen;
}
#else
template <class F> F choose(bool take_b, F b, F a) { return take_b ? b : a; }
#endif
// numpy's minimum/maximum: NaN if either is NaN, and -0.0 below +0.0 (LLVM's llvm.minimum).
template <class F> __device__ __forceinline__ F minimum(F a, F b) {
  if (a != a || b != b)
    return a + b;
  if (a == b)
    return copysign_of(F(1), a) < F(0) ? a : b;
  return a < b ? a : b;
}
template <class F> __device__ __forceinline__ F maximum(F a, F b) {
  if (a != a || b != b)
    return a + b;
  if (a == b)
    return copysign_of(F(1), a) < F(0) ? b : a;
  return a > b ? a : b;
}

} // namespace kaji

// What needs a GPU: float16's conversions, CUDA's bit and atomic intrinsics. The part above
// also compiles for the host, where kaji's unit tests check it against Python's rules.
#ifdef __CUDACC__

// binary16 as its bits; arithmetic converts to float32 and rounds back once, which gives the
// correctly rounded float16 result of + - * / and sqrt (float32 carries more than twice
// float16's precision, so the double rounding is innocuous).
struct f16 {
  u16 bits;
  f16() = default;
  __device__ explicit f16(f32 x) { asm("cvt.rn.f16.f32 %0, %1;" : "=h"(bits) : "f"(x)); }
  __device__ explicit f16(f64 x) { asm("cvt.rn.f16.f64 %0, %1;" : "=h"(bits) : "d"(x)); }
  __device__ operator f32() const {
    f32 x;
    asm("cvt.f32.f16 %0, %1;" : "=f"(x) : "h"(bits));
    return x;
  }
};
__device__ inline f16 kaji_f16_bits(u16 bits) {
  f16 x;
  x.bits = bits;
  return x;
}

// float16's + - * and comparisons, and negation and abs in kaji::, by the GPU's float16
// instructions from sm_53 (numba-cuda's), else through float32: the same results either way
// (+ - * round once; the rest are exact). As NVVM's float32 ones, add.f16 and mul.f16 carry no
// rounding modifier, so that ptxas may fuse them into fma.rn.f16; without fast math the driver
// rounds every other (roundUnroundedFloatOps, kaji/codegen/PtxasMiscompiledOps.h).
#if __CUDA_ARCH__ >= 530
#define KAJI_F16_ARITHMETIC(op, instruction)                                                     \
  __device__ __forceinline__ f16 operator op(f16 a, f16 b) {                                     \
    f16 r;                                                                                       \
    asm(instruction " %0, %1, %2;" : "=h"(r.bits) : "h"(a.bits), "h"(b.bits));                   \
    return r;                                                                                    \
  }
#define KAJI_F16_COMPARISON(op, instruction)                                                     \
  __device__ __forceinline__ bool operator op(f16 a, f16 b) {                                    \
    u16 r;                                                                                       \
    asm("{ .reg .pred p; " instruction " p, %1, %2; selp.u16 %0, 1, 0, p; }"                     \
        : "=h"(r)                                                                                \
        : "h"(a.bits), "h"(b.bits));                                                             \
    return r != 0;                                                                               \
  }
#else
#define KAJI_F16_ARITHMETIC(op, instruction)                                                     \
  __device__ __forceinline__ f16 operator op(f16 a, f16 b) { return f16(f32(a) op f32(b)); }
#define KAJI_F16_COMPARISON(op, instruction)                                                     \
  __device__ __forceinline__ bool operator op(f16 a, f16 b) { return f32(a) op f32(b); }
#endif
KAJI_F16_ARITHMETIC(+, "add.f16")
KAJI_F16_ARITHMETIC(-, "sub.f16")
KAJI_F16_ARITHMETIC(*, "mul.f16")
KAJI_F16_COMPARISON(==, "setp.eq.f16")
KAJI_F16_COMPARISON(!=, "setp.neu.f16")
KAJI_F16_COMPARISON(<, "setp.lt.f16")
KAJI_F16_COMPARISON(<=, "setp.le.f16")
KAJI_F16_COMPARISON(>, "setp.gt.f16")
KAJI_F16_COMPARISON(>=, "setp.ge.f16")
#undef KAJI_F16_ARITHMETIC
#undef KAJI_F16_COMPARISON
namespace kaji {
#if __CUDA_ARCH__ >= 530
__device__ __forceinline__ f16 neg(f16 a) {
  f16 r;
  asm("neg.f16 %0, %1;" : "=h"(r.bits) : "h"(a.bits));
  return r;
}
__device__ __forceinline__ f16 abs(f16 a) {
  f16 r;
  asm("abs.f16 %0, %1;" : "=h"(r.bits) : "h"(a.bits));
  return r;
}
#else
__device__ __forceinline__ f16 neg(f16 a) { return kaji_f16_bits(a.bits ^ 0x8000u); }
__device__ __forceinline__ f16 abs(f16 a) { return kaji_f16_bits(a.bits & 0x7fffu); }
#endif
} // namespace kaji

// bfloat16 as its bits: float32's upper half. Rounding float32 to nearest even is integer
// arithmetic on its bits (exact for subnormals too, a carry past the largest finite value
// gives infinity), so it needs no sm_80 instruction; a NaN stays a quiet NaN. float64 goes
// through float32, as ml_dtypes converts. Arithmetic rounds float32's result once, which is
// the correctly rounded bfloat16 result of + - * / and sqrt.
struct bf16 {
  u16 bits;
  bf16() = default;
  __device__ explicit bf16(f32 x) {
    u32 word = __float_as_uint(x);
    bits = (word & 0x7fffffffu) > 0x7f800000u ? u16((word >> 16) | 0x40u)
                                              : u16((word + 0x7fffu + ((word >> 16) & 1u)) >> 16);
  }
  __device__ explicit bf16(f64 x) : bf16(f32(x)) {}
  __device__ operator f32() const { return __uint_as_float(u32(bits) << 16); }
};

namespace kaji {

// int -> float16 with one rounding: every integer of magnitude 2^17 or more rounds to
// infinity, and every smaller one is exact in float32.
template <class T> __device__ __forceinline__ f16 int_to_f16(T x) {
  if (sizeof(T) < 4)
    return f16(f32(x));
  const T limit = T(131072);
  if (x > limit)
    x = limit;
  if (is_signed<T>::value && x < T(0) - limit)
    x = T(0) - limit;
  return f16(f32(x));
}

// float16 as numpy's npy_half_divmod: computed in float32, each result rounded once.
__device__ __forceinline__ f16 float_floordiv(f16 a, f16 b) {
  return f16(float_divmod(f32(a), f32(b)).quotient);
}
__device__ __forceinline__ f16 float_mod(f16 a, f16 b) {
  return f16(float_divmod(f32(a), f32(b)).remainder);
}
__device__ __forceinline__ bf16 float_floordiv(bf16 a, bf16 b) {
  return bf16(float_divmod(f32(a), f32(b)).quotient);
}
__device__ __forceinline__ bf16 float_mod(bf16 a, bf16 b) {
  return bf16(float_divmod(f32(a), f32(b)).remainder);
}

// __match_all_sync's mask alone: it is 0 exactly where the predicate it also gives is false.
template <class T> __device__ __forceinline__ u32 match_all_sync(u32 mask, T value) {
  int predicate;
  return __match_all_sync(mask, value, &predicate);
}

// A load or store of global memory with PTX's cache operator OP (cuda.ldcg, cuda.stwb, ...):
// load_OP_bN(p) gives the N bits at p (8 in a u16, as ld.b8 writes a 16-bit register) and
// store_OP_bN(p, bits) writes them, each a `memory` clobber so it stays ordered with the
// accesses around it. The operators and which accesses take them are OperationAttributes.def's.
#define KAJI_CACHED_LOAD(op, bits, reg, constraint)                                            \
  __device__ __forceinline__ reg load_##op##_b##bits(const void *p) {                          \
    reg r;                                                                                     \
    asm volatile("ld.global." #op ".b" #bits " %0, [%1];"                                      \
                 : "=" constraint(r)                                                           \
                 : "l"(__cvta_generic_to_global(p))                                            \
                 : "memory");                                                                  \
    return r;                                                                                  \
  }
#define KAJI_CACHED_STORE(op, bits, reg, constraint)                                           \
  __device__ __forceinline__ void store_##op##_b##bits(void *p, reg value) {                   \
    asm volatile("st.global." #op ".b" #bits " [%0], %1;"                                      \
                 :                                                                             \
                 : "l"(__cvta_generic_to_global(p)), constraint(value)                         \
                 : "memory");                                                                  \
  }
#define KAJI_CACHED_ACCESSES(access, op)                                                       \
  access(op, 8, u16, "h") access(op, 16, u16, "h") access(op, 32, u32, "r")                    \
      access(op, 64, u64, "l")
KAJI_CACHED_ACCESSES(KAJI_CACHED_LOAD, ca)
KAJI_CACHED_ACCESSES(KAJI_CACHED_LOAD, cg)
KAJI_CACHED_ACCESSES(KAJI_CACHED_LOAD, cs)
KAJI_CACHED_ACCESSES(KAJI_CACHED_LOAD, lu)
KAJI_CACHED_ACCESSES(KAJI_CACHED_LOAD, cv)
KAJI_CACHED_ACCESSES(KAJI_CACHED_STORE, cg)
KAJI_CACHED_ACCESSES(KAJI_CACHED_STORE, cs)
KAJI_CACHED_ACCESSES(KAJI_CACHED_STORE, wb)
KAJI_CACHED_ACCESSES(KAJI_CACHED_STORE, wt)
#undef KAJI_CACHED_ACCESSES
#undef KAJI_CACHED_STORE
#undef KAJI_CACHED_LOAD

// kaji IR's bitcast: the bits of one scalar as another of the same width (f16 and bf16 are
// structs of their bits, so CUDA's __float_as_int family does not cover them).
template <class To, class From> __device__ __forceinline__ To bit_cast(From x) {
  static_assert(sizeof(To) == sizeof(From), "bitcast needs types of one width");
  To y;
  memcpy(&y, &x, sizeof y);
  return y;
}

// Bit functions on the value's own width (a narrow value is zero-extended, never
// sign-extended, into the 32-bit instruction).
template <class T> __device__ __forceinline__ T popc(T x) {
  typedef typename same_unsigned<T>::type S;
  return sizeof(T) == 8 ? T(__popcll(u64(x))) : T(__popc(u32(S(x))));
}
template <class T> __device__ __forceinline__ T brev(T x) {
  typedef typename same_unsigned<T>::type S;
  return sizeof(T) == 8 ? T(__brevll(u64(x))) : T(__brev(u32(S(x))) >> (32 - 8 * sizeof(T)));
}
template <class T> __device__ __forceinline__ T clz(T x) {
  typedef typename same_unsigned<T>::type S;
  return sizeof(T) == 8 ? T(__clzll(i64(x))) : T(__clz(i32(S(x))) - (32 - 8 * int(sizeof(T))));
}
template <class T> __device__ __forceinline__ T ffs(T x) {
  typedef typename same_unsigned<T>::type S;
  return sizeof(T) == 8 ? T(__ffsll(i64(x))) : T(__ffs(i32(S(x))));
}

// A CUDA vector value (kaji IR's vec<T, N>: float4 is vec<f32, 4>). kaji's own rather than
// CUDA's float4...: CUDA 13 deprecates double4, longlong4 and ulonglong4 for renamed alignment
// variants older toolkits lack, and nothing stores a vector in memory, so no layout must match.
template <class T, int N> struct vec;
template <class T> struct vec<T, 1> { T x; };
template <class T> struct vec<T, 2> { T x, y; };
template <class T> struct vec<T, 3> { T x, y, z; };
template <class T> struct vec<T, 4> { T x, y, z, w; };

// A strided array: data pointer, extents and byte strides, the kernel parameter ABI's parts.
template <class T, int N> struct array {
  T *data;
  i64 shape[N];
  i64 strides[N];
};
// A thread's part of a warp's matrix (kaji IR's fragment<...>): the registers of PTX's wmma
// instructions in order, N elements of T (CudaFragments.cpp).
template <class T, int N> struct fragment {
  alignas(16) T x[N];
};
// The address of element (indices[0], ...): data + sum of index_k * stride_k bytes.
template <class T, int N>
__device__ __forceinline__ T *element_at(const array<T, N> &a, const i64 (&indices)[N]) {
  u64 offset = 0;
#pragma unroll
  for (int d = 0; d < N; ++d)
    offset += u64(indices[d]) * u64(a.strides[d]);
  return reinterpret_cast<T *>(reinterpret_cast<char *>(a.data) + offset);
}
template <class T, int N, class... I>
__device__ __forceinline__ T *element(const array<T, N> &a, I... index) {
  const i64 indices[N] = {i64(index)...};
  return element_at(a, indices);
}

// Bounds checks (debug=True, boundscheck=True): where an access reports an index out of
// range — the module's exception slot and index-error record (kaji/ir/ExceptionTable.h:
// axis, index, extent, whether the index is unsigned) and the access's number in the table.
struct index_site {
  u32 *slot;
  i64 *record;
  u32 *thread;
  u32 number;
};
// The thread that won the exception slot: its threadIdx and blockIdx, in the module's
// kaji_raising_thread (kaji/abi/KernelABI.h).
__device__ __forceinline__ void record_raising_thread(u32 *thread) {
  thread[0] = threadIdx.x;
  thread[1] = threadIdx.y;
  thread[2] = threadIdx.z;
  thread[3] = blockIdx.x;
  thread[4] = blockIdx.y;
  thread[5] = blockIdx.z;
}
// As a raise: the first thread to report fills the records; the thread exits. Static:
// relocatable code (an exported function's) would otherwise export it with every module.
static __device__ __noinline__ void index_error(const index_site &site, int axis, i64 index,
                                                i64 extent, bool is_unsigned) {
  if (atomicCAS(site.slot, 0u, site.number) == 0u) {
    site.record[0] = axis;
    site.record[1] = index;
    site.record[2] = extent;
    site.record[3] = is_unsigned;
    record_raising_thread(site.thread);
  }
  asm volatile("exit;" ::: "memory");
  __builtin_unreachable();
}
// `index` into an axis of `extent`, a negative signed one counting from the end (Python's
// wraparound), checked as the LLVM lowering checks it.
__device__ __forceinline__ i64 checked_index(i64 index, i64 extent, const index_site &site,
                                             int axis, bool is_unsigned) {
  if (u64(index) < u64(extent))
    return index;
  const u64 wrapped = u64(index) + u64(extent); // in range exactly for -extent <= index < 0
  if (!is_unsigned && wrapped < u64(extent))
    return i64(wrapped);
  index_error(site, axis, index, extent, is_unsigned);
  __builtin_unreachable();
}
template <class T, int N, class... I>
__device__ __forceinline__ T *checked_element(const array<T, N> &a, const index_site &site,
                                              I... index) {
  i64 indices[N] = {i64(index)...};
  const bool is_unsigned[N] = {!is_signed<I>::value...};
#pragma unroll
  for (int d = 0; d < N; ++d)
    indices[d] = checked_index(indices[d], a.shape[d], site, d, is_unsigned[d]);
  return element_at(a, indices);
}

// Atomics, relaxed as CUDA's are, returning the old value. Signed 64-bit integers and
// doubles go through the unsigned 64-bit instructions where CUDA has no overload; float max
// and min and 64-bit inc/dec are compare-and-swap loops.
template <class T> struct atomic_word {
  typedef typename conditional<sizeof(T) == 4, u32, u64>::type type;
};
template <class T> union atomic_bits {
  T value;
  typename atomic_word<T>::type word;
};
template <class T> __device__ __forceinline__ typename atomic_word<T>::type word_of(T x) {
  atomic_bits<T> bits;
  bits.value = x;
  return bits.word;
}
template <class T> __device__ __forceinline__ T value_of(typename atomic_word<T>::type w) {
  atomic_bits<T> bits;
  bits.word = w;
  return bits.value;
}
__device__ __forceinline__ u32 cas_word(u32 *p, u32 expected, u32 desired) {
  return atomicCAS(p, expected, desired);
}
__device__ __forceinline__ u64 cas_word(u64 *p, u64 expected, u64 desired) {
  return atomicCAS(reinterpret_cast<unsigned long long *>(p), expected, desired);
}
template <class T, class Update> __device__ T atomic_update(T *p, Update update) {
  typedef typename atomic_word<T>::type W;
  W *word = reinterpret_cast<W *>(p);
  W old = *reinterpret_cast<volatile W *>(word), assumed;
  do {
    assumed = old;
    old = cas_word(word, assumed, word_of(update(value_of<T>(assumed))));
  } while (old != assumed);
  return value_of<T>(old);
}
template <class T> __device__ __forceinline__ T atomic_cas(T *p, T expected, T desired) {
  typedef typename atomic_word<T>::type W;
  return value_of<T>(cas_word(reinterpret_cast<W *>(p), word_of(expected), word_of(desired)));
}
template <class T> __device__ __forceinline__ T atomic_exch(T *p, T v) {
  return value_of<T>(atomicExch(reinterpret_cast<unsigned long long *>(p), u64(word_of(v))));
}
__device__ __forceinline__ i32 atomic_exch(i32 *p, i32 v) { return atomicExch(p, v); }
__device__ __forceinline__ u32 atomic_exch(u32 *p, u32 v) { return atomicExch(p, v); }
__device__ __forceinline__ f32 atomic_exch(f32 *p, f32 v) { return atomicExch(p, v); }

__device__ __forceinline__ i32 atomic_add(i32 *p, i32 v) { return atomicAdd(p, v); }
__device__ __forceinline__ u32 atomic_add(u32 *p, u32 v) { return atomicAdd(p, v); }
__device__ __forceinline__ u64 atomic_add(u64 *p, u64 v) {
  return atomicAdd(reinterpret_cast<unsigned long long *>(p), v);
}
__device__ __forceinline__ i64 atomic_add(i64 *p, i64 v) {
  return i64(atomic_add(reinterpret_cast<u64 *>(p), u64(v)));
}
__device__ __forceinline__ f32 atomic_add(f32 *p, f32 v) { return atomicAdd(p, v); }
__device__ __forceinline__ f64 atomic_add(f64 *p, f64 v) { return atomicAdd(p, v); }
// GPUs add atomically but cannot subtract: x - v is x + (-v), wrapping for integers.
template <class T> __device__ __forceinline__ T atomic_sub(T *p, T v) {
  return atomic_add(p, T(0) - v);
}
__device__ __forceinline__ i32 atomic_sub(i32 *p, i32 v) { return atomic_add(p, neg(v)); }
__device__ __forceinline__ i64 atomic_sub(i64 *p, i64 v) { return atomic_add(p, neg(v)); }
__device__ __forceinline__ f32 atomic_sub(f32 *p, f32 v) { return atomic_add(p, -v); }
__device__ __forceinline__ f64 atomic_sub(f64 *p, f64 v) { return atomic_add(p, -v); }
// float16 and bfloat16 (H: f16 or bf16): a compare-and-swap loop on the aligned 32-bit word
// that holds the element, which every architecture has (the LLVM backend emits atom.add.f16
// and .bf16 where the GPU has them).
template <class H> __device__ __forceinline__ H atomic_add_half(H *p, f32 v) {
  u32 *word = reinterpret_cast<u32 *>(reinterpret_cast<u64>(p) & ~u64(3));
  const u32 shift = (reinterpret_cast<u64>(p) & 2u) * 8u;
  u32 seen = *word, assumed;
  H old;
  do {
    assumed = seen;
    old.bits = u16(assumed >> shift);
    const u32 sum = H(f32(old) + v).bits;
    seen = atomicCAS(word, assumed, (assumed & ~(0xffffu << shift)) | (sum << shift));
  } while (seen != assumed);
  return old;
}
__device__ __forceinline__ f16 atomic_add(f16 *p, f16 v) { return atomic_add_half(p, f32(v)); }
__device__ __forceinline__ bf16 atomic_add(bf16 *p, bf16 v) { return atomic_add_half(p, f32(v)); }
__device__ __forceinline__ f16 atomic_sub(f16 *p, f16 v) { return atomic_add_half(p, -f32(v)); }
__device__ __forceinline__ bf16 atomic_sub(bf16 *p, bf16 v) { return atomic_add_half(p, -f32(v)); }

#define KAJI_ATOMIC_INTEGER(name, cuda)                                                            \
  __device__ __forceinline__ i32 atomic_##name(i32 *p, i32 v) { return cuda(p, v); }               \
  __device__ __forceinline__ u32 atomic_##name(u32 *p, u32 v) { return cuda(p, v); }               \
  __device__ __forceinline__ u64 atomic_##name(u64 *p, u64 v) {                                    \
    return cuda(reinterpret_cast<unsigned long long *>(p), v);                                     \
  }
KAJI_ATOMIC_INTEGER(max, atomicMax)
KAJI_ATOMIC_INTEGER(min, atomicMin)
KAJI_ATOMIC_INTEGER(and, atomicAnd)
KAJI_ATOMIC_INTEGER(or, atomicOr)
KAJI_ATOMIC_INTEGER(xor, atomicXor)
#undef KAJI_ATOMIC_INTEGER
__device__ __forceinline__ i64 atomic_max(i64 *p, i64 v) {
  return atomicMax(reinterpret_cast<long long *>(p), v);
}
__device__ __forceinline__ i64 atomic_min(i64 *p, i64 v) {
  return atomicMin(reinterpret_cast<long long *>(p), v);
}
__device__ __forceinline__ i64 atomic_and(i64 *p, i64 v) {
  return i64(atomic_and(reinterpret_cast<u64 *>(p), u64(v)));
}
__device__ __forceinline__ i64 atomic_or(i64 *p, i64 v) {
  return i64(atomic_or(reinterpret_cast<u64 *>(p), u64(v)));
}
__device__ __forceinline__ i64 atomic_xor(i64 *p, i64 v) {
  return i64(atomic_xor(reinterpret_cast<u64 *>(p), u64(v)));
}
// nanmax and nanmin treat NaN as missing, as fmax does; max and min (Numba's) also leave an
// element that is NaN as it is.
__device__ __forceinline__ f32 atomic_nanmax(f32 *p, f32 v) {
  return atomic_update(p, [v](f32 old) { return fmaxf(old, v); });
}
__device__ __forceinline__ f64 atomic_nanmax(f64 *p, f64 v) {
  return atomic_update(p, [v](f64 old) { return ::fmax(old, v); });
}
__device__ __forceinline__ f32 atomic_nanmin(f32 *p, f32 v) {
  return atomic_update(p, [v](f32 old) { return fminf(old, v); });
}
__device__ __forceinline__ f64 atomic_nanmin(f64 *p, f64 v) {
  return atomic_update(p, [v](f64 old) { return ::fmin(old, v); });
}
__device__ __forceinline__ f32 atomic_max(f32 *p, f32 v) {
  return atomic_update(p, [v](f32 old) { return old != old ? old : fmaxf(old, v); });
}
__device__ __forceinline__ f64 atomic_max(f64 *p, f64 v) {
  return atomic_update(p, [v](f64 old) { return old != old ? old : ::fmax(old, v); });
}
__device__ __forceinline__ f32 atomic_min(f32 *p, f32 v) {
  return atomic_update(p, [v](f32 old) { return old != old ? old : fminf(old, v); });
}
__device__ __forceinline__ f64 atomic_min(f64 *p, f64 v) {
  return atomic_update(p, [v](f64 old) { return old != old ? old : ::fmin(old, v); });
}
// inc: old >= v ? 0 : old + 1; dec: old == 0 || old > v ? v : old - 1.
__device__ __forceinline__ u32 atomic_inc(u32 *p, u32 v) { return atomicInc(p, v); }
__device__ __forceinline__ u32 atomic_dec(u32 *p, u32 v) { return atomicDec(p, v); }
__device__ __forceinline__ u64 atomic_inc(u64 *p, u64 v) {
  return atomic_update(p, [v](u64 old) { return old >= v ? u64(0) : old + 1; });
}
__device__ __forceinline__ u64 atomic_dec(u64 *p, u64 v) {
  return atomic_update(p, [v](u64 old) { return old == 0 || old > v ? v : old - 1; });
}

// The grid-wide barrier of a cooperative launch on the module's `counter`, as the LLVM backend
// builds it (codegen/nvptx/src/NVPTXGridSync.cpp): block 0 adds 2^31 - (blocks - 1), every other
// block 1, so the top bit flips when the last block arrives.
__device__ __forceinline__ void grid_sync(volatile u32 *counter) {
  __syncthreads();
  if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0) {
    u32 blocks = gridDim.x * gridDim.y * gridDim.z;
    bool first = blockIdx.x == 0 && blockIdx.y == 0 && blockIdx.z == 0;
    __threadfence();
    u32 old = atomicAdd(const_cast<u32 *>(counter), first ? 0x80000000u - (blocks - 1) : 1u);
    while (((old ^ *counter) & 0x80000000u) == 0) {
    }
    __threadfence();
  }
  __syncthreads();
}

// The launch's dynamic shared memory in bytes (CUDA C++ has no name for it).
__device__ __forceinline__ u64 dynamic_shared_bytes() {
  u32 bytes;
  asm("mov.u32 %0, %%dynamic_smem_size;" : "=r"(bytes));
  return bytes;
}

} // namespace kaji

#endif // __CUDACC__
