#include "kaji/frontend/Signature.h"

#include <gtest/gtest.h>

namespace kaji::frontend {
namespace {

using ir::Layout;
using ir::ScalarKind;
using ir::Type;

Type single(const std::string &type) {
  Signature sig = parseSignature("void(" + type + ")", {});
  EXPECT_EQ(sig.params.size(), 1u);
  return sig.params.at(0);
}

std::string errorOf(const std::string &text) {
  auto file = std::make_shared<const std::string>("sig");
  try {
    parseSignature(text, ir::Location{file, 1, 1});
  } catch (const ir::CompileError &error) {
    return std::to_string(error.location().col) + ": " + error.what();
  }
  return "<no error>";
}

TEST(Signature, ScalarAliases) {
  const std::pair<const char *, ScalarKind> cases[] = {
      {"bool", ScalarKind::Bool},
      {"boolean", ScalarKind::Bool},
      {"b1", ScalarKind::Bool},
      {"int8", ScalarKind::Int8},
      {"i1", ScalarKind::Int8},
      {"int16", ScalarKind::Int16},
      {"i2", ScalarKind::Int16},
      {"int32", ScalarKind::Int32},
      {"i4", ScalarKind::Int32},
      {"int64", ScalarKind::Int64},
      {"i8", ScalarKind::Int64},
      {"int_", ScalarKind::Int64},
      {"intp", ScalarKind::Int64},
      {"uint8", ScalarKind::UInt8},
      {"u1", ScalarKind::UInt8},
      {"uint16", ScalarKind::UInt16},
      {"u2", ScalarKind::UInt16},
      {"uint32", ScalarKind::UInt32},
      {"u4", ScalarKind::UInt32},
      {"uint64", ScalarKind::UInt64},
      {"u8", ScalarKind::UInt64},
      {"uintp", ScalarKind::UInt64},
      {"float16", ScalarKind::Float16},
      {"f2", ScalarKind::Float16},
      {"float32", ScalarKind::Float32},
      {"f4", ScalarKind::Float32},
      {"float64", ScalarKind::Float64},
      {"f8", ScalarKind::Float64},
      {"double", ScalarKind::Float64},
      {"complex64", ScalarKind::Complex64},
      {"c8", ScalarKind::Complex64},
      {"complex128", ScalarKind::Complex128},
      {"c16", ScalarKind::Complex128},
      {"char", ScalarKind::Int8},
      {"uchar", ScalarKind::UInt8},
      {"uint", ScalarKind::UInt64},
      {"long_", ScalarKind::Int64},
      {"ulong", ScalarKind::UInt64},
      // Numba's meaning, not numpy's.
      {"byte", ScalarKind::UInt8},
      {"float_", ScalarKind::Float32},
  };
  for (auto [name, kind] : cases)
    EXPECT_EQ(single(name), Type::scalar(kind)) << name;
}

TEST(Signature, NumpyNamesKeepNumpysMeaning) {
  EXPECT_EQ(scalarKindFromNumpyName("byte"), ScalarKind::Int8);
  EXPECT_EQ(scalarKindFromNumpyName("float_"), ScalarKind::Float64);
  EXPECT_EQ(scalarKindFromNumpyName("float32"), ScalarKind::Float32);
  EXPECT_EQ(scalarKindFromNumpyName("f4"), ScalarKind::Float32);
  EXPECT_EQ(scalarKindFromNumpyName("float"), std::nullopt);
}

TEST(Signature, ArraysAsNumbaPrintsThem) {
  EXPECT_EQ(single("array(float32, 1d, A)"), Type::array(ScalarKind::Float32, 1, Layout::Any));
  EXPECT_EQ(single("array(float32, 1d, C)"), Type::array(ScalarKind::Float32, 1, Layout::C));
  EXPECT_EQ(single("array(float32, 1d, F)"), Type::array(ScalarKind::Float32, 1, Layout::C));
  // A 0-d array has no layout: every spelling of it is `[]`'s (a fuzz-signature finding).
  EXPECT_EQ(single("array(float32, 0d, C)"), single("float32[]"));
  EXPECT_EQ(single("array(float32, 0d, F)"), Type::array(ScalarKind::Float32, 0, Layout::Any));
  EXPECT_EQ(single("array( int64 ,2d,F )"), Type::array(ScalarKind::Int64, 2, Layout::F));
  EXPECT_EQ(single("array(bool, 3d, C)"), Type::array(ScalarKind::Bool, 3, Layout::C));
}

TEST(Signature, SignaturesAsNumbaPrintsThem) {
  Signature sig = parseSignature("(array(float32, 2d, C), int32) -> none", {});
  EXPECT_TRUE(sig.returnType.isVoid());
  ASSERT_EQ(sig.params.size(), 2u);
  EXPECT_EQ(sig.params[0], Type::array(ScalarKind::Float32, 2, Layout::C));
  EXPECT_EQ(sig.params[1], Type::scalar(ScalarKind::Int32));
  EXPECT_EQ(parseSignature("(float32,) -> float64", {}).returnType,
            Type::scalar(ScalarKind::Float64));
  EXPECT_TRUE(parseSignature("() -> none", {}).params.empty());
  EXPECT_TRUE(parseSignature("none(int32)", {}).returnType.isVoid());
  // Numba's tuple of argument types: a kernel's signature.
  Signature arguments = parseSignature("(float32[:], int32)", {});
  EXPECT_TRUE(arguments.returnType.isVoid());
  EXPECT_EQ(arguments.params.size(), 2u);
}

TEST(Signature, SingleTypes) {
  EXPECT_EQ(parseType("float32[:, ::1]", {}), Type::array(ScalarKind::Float32, 2, Layout::C));
  EXPECT_EQ(parseType(" i8 ", {}), Type::scalar(ScalarKind::Int64));
  EXPECT_TRUE(parseType("none", {}).isVoid());
}

TEST(Signature, VectorsByNumbasAndCudaCsNames) {
  Signature sig = parseSignature("float32x4(float4, int2, ulonglong1)", {});
  EXPECT_EQ(sig.returnType, Type::vector(ScalarKind::Float32, 4));
  ASSERT_EQ(sig.params.size(), 3u);
  EXPECT_EQ(sig.params[0], Type::vector(ScalarKind::Float32, 4));
  EXPECT_EQ(sig.params[1], Type::vector(ScalarKind::Int32, 2));
  EXPECT_EQ(sig.params[2], Type::vector(ScalarKind::UInt64, 1));
  EXPECT_EQ(signatureString(sig), "float32x4(float32x4, int32x2, uint64x1)");
  // The scalar names that end in a digit stay scalars.
  EXPECT_EQ(single("int32"), Type::scalar(ScalarKind::Int32));
  EXPECT_EQ(errorOf("void(float32x5)"), "6: unknown type 'float32x5' in signature");
  EXPECT_EQ(errorOf("void(int2[:])"),
            "10: no kernel or device function takes an array of int32x2: arrays of vectors exist "
            "only inside kernels (cuda.local.array, cuda.shared.array)");
}

TEST(Signature, AKernelReturnsVoidAndTakesNoVector) {
  auto kernelError = [](const std::string &text) -> std::string {
    try {
      checkKernelSignature(parseSignature(text, {}), {});
    } catch (const ir::CompileError &error) {
      return error.what();
    }
    return "<no error>";
  };
  EXPECT_EQ(kernelError("void(float32[:], int64)"), "<no error>");
  EXPECT_EQ(kernelError("int32(float32[:])"), "a kernel's signature must return void, not 'int32'");
  EXPECT_EQ(kernelError("void(float32[:], Tuple(int32, float32x3))"),
            "a kernel cannot take a float32x3: its arguments come from the host, which has no "
            "vector values (as in Numba); pass the lanes, or an array, and build the vector in "
            "the kernel");
}

TEST(Signature, ArrayLayouts) {
  EXPECT_EQ(single("float32[:]"), Type::array(ScalarKind::Float32, 1, Layout::Any));
  EXPECT_EQ(single("float32[::1]"), Type::array(ScalarKind::Float32, 1, Layout::C));
  EXPECT_EQ(single("f8[:, ::1]"), Type::array(ScalarKind::Float64, 2, Layout::C));
  EXPECT_EQ(single("f8[::1, :]"), Type::array(ScalarKind::Float64, 2, Layout::F));
  EXPECT_EQ(single("int64[:,:,:]"), Type::array(ScalarKind::Int64, 3, Layout::Any));
}

TEST(Signature, ZeroDimensionalArray) {
  EXPECT_EQ(single("float32[]"), Type::array(ScalarKind::Float32, 0, Layout::Any));
  EXPECT_EQ(single("int8[ ]"), Type::array(ScalarKind::Int8, 0, Layout::Any));
  EXPECT_EQ(typeString(single("float32[]")), "float32[]");
}

TEST(Signature, WhitespaceInsensitive) {
  Signature sig = parseSignature("  void ( float32 [ : , : : 1 ] ,int32 )  ", {});
  ASSERT_EQ(sig.params.size(), 2u);
  EXPECT_EQ(sig.params[0], Type::array(ScalarKind::Float32, 2, Layout::C));
  EXPECT_EQ(sig.params[1], Type::scalar(ScalarKind::Int32));
  EXPECT_TRUE(sig.returnType.isVoid());
}

TEST(Signature, DeviceReturnTypeAndNoParameters) {
  Signature sig = parseSignature("float32(float32, float32)", {});
  EXPECT_EQ(sig.returnType, Type::scalar(ScalarKind::Float32));
  EXPECT_TRUE(parseSignature("void()", {}).params.empty());
}

TEST(Signature, RoundTripsThroughItsCanonicalSpelling) {
  for (const char *text : {"void(float32[:], float32, float32[:, ::1])", "float32(float32, int64)",
                           "void(int64[:, :, :], uint8[::1, :], bool)", "void()"})
    EXPECT_EQ(signatureString(parseSignature(text, {})), text);
}

TEST(Signature, TuplesFlattenIntoTheirLeaves) {
  Signature sig = parseSignature(
      "void(UniTuple(int32 x 3), Tuple(float64[:], Tuple(int8, bool)), Tuple(), f4)", {});
  ASSERT_EQ(sig.structure.size(), 4u);
  EXPECT_EQ(sig.params,
            (std::vector<Type>{Type::scalar(ScalarKind::Int32), Type::scalar(ScalarKind::Int32),
                               Type::scalar(ScalarKind::Int32),
                               Type::array(ScalarKind::Float64, 1, Layout::Any),
                               Type::scalar(ScalarKind::Int8), Type::scalar(ScalarKind::Bool),
                               Type::scalar(ScalarKind::Float32)}));
  EXPECT_TRUE(sig.structure[0].tuple);
  EXPECT_EQ(sig.structure[0].elements.size(), 3u);
  EXPECT_EQ(sig.structure[1].leafCount(), 3u);
  EXPECT_TRUE(sig.structure[2].tuple);
  EXPECT_EQ(sig.structure[2].leafCount(), 0u);
  EXPECT_FALSE(sig.structure[3].tuple);
}

TEST(Signature, NamedTuplesKeepClassAndFields) {
  Signature sig = parseSignature("void(NamedTuple(Point, x=float32, y=int64))", {});
  ASSERT_EQ(sig.structure.size(), 1u);
  EXPECT_EQ(sig.structure[0].tupleClass, "Point");
  EXPECT_EQ(sig.structure[0].fields, (std::vector<std::string>{"x", "y"}));
  EXPECT_EQ(sig.params.size(), 2u);
}

TEST(Signature, TuplesRoundTripAsNumbaPrintsThem) {
  for (const char *text : {"void(UniTuple(int32 x 3))", "void(Tuple(float64, int32))",
                           "void(Tuple())", "void(UniTuple(UniTuple(int64 x 2) x 2), float32[:])",
                           "void(Tuple(float32[:, ::1], Tuple(int8, bool)))",
                           "void(NamedTuple(Point, x=float32, y=float32))"})
    EXPECT_EQ(signatureString(parseSignature(text, {})), text);
  // Tuple() of elements all alike is spelled UniTuple, as Numba types such a tuple.
  EXPECT_EQ(signatureString(parseSignature("void(Tuple(int8, int8))", {})),
            "void(UniTuple(int8 x 2))");
}

TEST(Signature, ErrorsPointAtTheOffendingColumn) {
  EXPECT_EQ(errorOf("void(flaot32[:])"), "6: unknown type 'flaot32' in signature");
  EXPECT_EQ(errorOf("void(float32[:)"), "15: expected ']', found ')'");
  EXPECT_EQ(errorOf("void float32"), "6: expected '(' after the return type, found 'f'");
  EXPECT_EQ(errorOf("void(float32"), "13: expected ',' or ')' at the end of the signature");
  EXPECT_EQ(errorOf("void(void)"), "6: 'void' is only valid as a return type");
  EXPECT_EQ(errorOf("void(int32) x"), "13: unexpected 'x' after the signature");
  EXPECT_EQ(errorOf("void(f4[::2])"), "11: expected '1' after '::' (only '::1' marks a contiguous "
                                      "dimension), found '2'");
  EXPECT_EQ(errorOf("void(f4[:, ::1, :])"),
            "12: '::1' may mark only the last dimension (C layout) or the first (F layout)");
  EXPECT_EQ(errorOf("void(f4[::1, ::1])"),
            "14: '::1' may mark only the last dimension (C layout) or the first (F layout)");
  EXPECT_EQ(errorOf(""), "1: empty signature: expected e.g. 'void(float32[:])'");
  EXPECT_EQ(errorOf("void(,)"), "6: expected a type");
  EXPECT_EQ(errorOf("void(UniTuple(int32, 3))"),
            "20: expected 'x' and a count in 'UniTuple(type x count)'");
  EXPECT_EQ(errorOf("void(UniTuple(int32 x 0))"),
            "23: expected a positive count in 'UniTuple(type x count)'");
  EXPECT_EQ(errorOf("void(Tuple(int32 float32))"), "18: expected ',' or ')', found 'f'");
  EXPECT_EQ(errorOf("void(NamedTuple(Point, x:int32))"), "25: expected '=' after the field name, "
                                                         "found ':'");
  EXPECT_EQ(errorOf("void(array(f4, 2, C))"), "17: expected the array's dimensions, such as '2d'");
  EXPECT_EQ(errorOf("void(array(f4, 2d, K))"), "20: expected the array's layout: C, F or A");
  EXPECT_EQ(errorOf("(int32) none"), "9: expected '->' before the return type, found 'n'");
  EXPECT_EQ(errorOf("void(none)"), "6: 'none' is only valid as a return type");
}

} // namespace
} // namespace kaji::frontend
