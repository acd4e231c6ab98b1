#include "kaji/ir/Type.h"

#include <gtest/gtest.h>

using namespace kaji::ir;

TEST(Type, ScalarNamesRoundTrip) {
  for (int k = 0; k <= int(ScalarKind::Float64); ++k) {
    auto kind = ScalarKind(k);
    EXPECT_EQ(scalarKindFromName(irName(kind)), kind);
    EXPECT_EQ(scalarKindFromName(numpyName(kind)), kind);
    EXPECT_EQ(parseIRType(Type::scalar(kind).str()), Type::scalar(kind));
  }
  EXPECT_EQ(scalarKindFromName("float"), std::nullopt);
  EXPECT_EQ(scalarKindFromName("int"), std::nullopt);
}

TEST(Type, Properties) {
  EXPECT_TRUE(isInteger(ScalarKind::UInt8));
  EXPECT_FALSE(isInteger(ScalarKind::Bool));
  EXPECT_FALSE(isSigned(ScalarKind::UInt64));
  EXPECT_TRUE(isSigned(ScalarKind::Int16));
  EXPECT_TRUE(isFloat(ScalarKind::Float16));
  EXPECT_EQ(bitWidth(ScalarKind::Bool), 1u);
  EXPECT_EQ(byteSize(ScalarKind::Bool), 1u);
  EXPECT_EQ(byteSize(ScalarKind::Float64), 8u);
  EXPECT_TRUE(Type::scalar(ScalarKind::Int32).isSignedInteger());
  EXPECT_FALSE(Type::scalar(ScalarKind::UInt32).isSignedInteger());
  EXPECT_TRUE(Type().isVoid());
}

TEST(Type, ArraySpelling) {
  EXPECT_EQ(Type::array(ScalarKind::Float32, 2, Layout::C).str(), "array<f32, 2, C>");
  EXPECT_EQ(Type::array(ScalarKind::Float32, 1, Layout::Any, MemorySpace::Shared).str(),
            "array<f32, 1, any, shared>");
  EXPECT_EQ(Type::array(ScalarKind::Int8, 3, Layout::F, MemorySpace::Local).str(),
            "array<i8, 3, F, local>");
  for (std::string_view text :
       {"array<f32, 2, C>", "array<f32, 1, any, shared>", "array<u64, 0, F, local>", "void"})
    EXPECT_EQ(parseIRType(text)->str(), text);
}

TEST(Type, VectorSpelling) {
  Type float4 = Type::vector(ScalarKind::Float32, 4);
  EXPECT_TRUE(float4.isVector());
  EXPECT_FALSE(float4.isScalar() || float4.isFloat() || float4.isArray());
  EXPECT_EQ(float4.scalarKind(), ScalarKind::Float32);
  EXPECT_EQ(float4.lanes(), 4u);
  EXPECT_EQ(float4.str(), "vec<f32, 4>");
  EXPECT_NE(float4, Type::vector(ScalarKind::Float32, 3));
  EXPECT_NE(float4, Type::vector(ScalarKind::Int32, 4));
  for (std::string_view text : {"vec<f32, 4>", "vec<i8, 1>", "vec<u64, 3>"})
    EXPECT_EQ(parseIRType(text)->str(), text);
}

TEST(Type, ArraysOfVectors) {
  Type f4 = Type::arrayOf(Type::vector(ScalarKind::Float32, 4), 1, Layout::C, MemorySpace::Local);
  EXPECT_TRUE(f4.isVectorArray());
  EXPECT_EQ(f4.str(), "array<vec<f32, 4>, 1, C, local>");
  EXPECT_EQ(parseIRType(f4.str()), f4);
  EXPECT_EQ(f4.elementType(), Type::vector(ScalarKind::Float32, 4));
  EXPECT_EQ(f4.elementSize(), 16u);
  EXPECT_EQ(f4.elementAlignment(), 16u);
  Type d3 = Type::arrayOf(Type::vector(ScalarKind::Float64, 3), 2, Layout::C, MemorySpace::Shared);
  EXPECT_EQ(parseIRType("array<vec<f64, 3>, 2, C, shared>"), d3);
  EXPECT_EQ(d3.elementSize(), 24u);
  EXPECT_EQ(d3.elementAlignment(), 8u); // a three-lane vector is aligned as its lane
  EXPECT_EQ(Type::arrayOf(Type::vector(ScalarKind::Int64, 4), 1).elementAlignment(), 16u);
  EXPECT_EQ(Type::arrayOf(Type::vector(ScalarKind::UInt8, 2), 1).elementAlignment(), 2u);
  EXPECT_FALSE(Type::arrayOf(Type::scalar(ScalarKind::Float32), 1).isVectorArray());
  EXPECT_FALSE(parseIRType("array<vec<f32, 4, 1, C>"));
}

TEST(Type, RejectsMalformedSpellings) {
  for (std::string_view text :
       {"", "f33", "float32", "array<f32>", "array<f32, 1>", "array<f32, x, C>", "array<f32, 1, D>",
        "array<f32, 1, C, heap>", "array<f32, 1, C, shared, x>", "array<f32, 300, C>",
        "array<void, 1, C>", "array<f32, 1, C", "vec<f32>", "vec<f32, 0>", "vec<f32, 5>",
        "vec<float32, 2>", "vec<f32, 2, 3>", "vec<f32, 2"})
    EXPECT_EQ(parseIRType(text), std::nullopt) << text;
}
