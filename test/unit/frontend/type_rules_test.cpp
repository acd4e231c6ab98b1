// Promotion, observed through the return type of device functions.
#include "lowering_test_support.h"

namespace kaji::frontend::test {
namespace {

std::string resultType(const std::string &expr, const std::string &params) {
  std::string source = "def f(a, b):\n    return " + expr + "\n";
  auto lowered = lowerSource(source, "f", "void(" + params + ")", ir::Function::Kind::Device);
  return std::string(ir::numpyName(lowered->function->returnType().scalarKind()));
}

TEST(TypeRules, StrongTypesFollowNumpyResultType) {
  EXPECT_EQ(resultType("a + b", "int32, int64"), "int64");
  EXPECT_EQ(resultType("a + b", "int64, uint64"), "float64");
  EXPECT_EQ(resultType("a + b", "int8, uint8"), "int16");
  EXPECT_EQ(resultType("a + b", "uint32, int32"), "int64");
  EXPECT_EQ(resultType("a + b", "float32, int32"), "float64");
  EXPECT_EQ(resultType("a + b", "float32, int16"), "float32");
  EXPECT_EQ(resultType("a + b", "float16, int8"), "float16");
  EXPECT_EQ(resultType("a + b", "float32, float64"), "float64");
  EXPECT_EQ(resultType("a + b", "bool, bool"), "int64");
  EXPECT_EQ(resultType("a & b", "bool, bool"), "bool");
  EXPECT_EQ(resultType("a + b", "bool, uint8"), "uint8");
}

// ml_dtypes' rules for bfloat16; int16 and wider as float16 takes them (numpy has no rule).
TEST(TypeRules, BFloat16FollowsMlDtypes) {
  const std::pair<const char *, const char *> cases[] = {
      {"bfloat16, bfloat16", "bfloat16"},  {"bfloat16, float16", "float32"},
      {"float16, bfloat16", "float32"},    {"bfloat16, float32", "float32"},
      {"float64, bfloat16", "float64"},    {"bfloat16, int8", "bfloat16"},
      {"uint8, bfloat16", "bfloat16"},     {"bfloat16, bool", "bfloat16"},
      {"bfloat16, int16", "float32"},      {"bfloat16, int32", "float64"},
      {"bfloat16, complex64", "complex64"}};
  for (auto [params, expected] : cases)
    EXPECT_EQ(resultType("a + b", params), expected) << params;
  EXPECT_EQ(resultType("a * 0.1", "bfloat16, int8"), "bfloat16");
  EXPECT_EQ(resultType("a + 1", "bfloat16, int8"), "bfloat16");
  EXPECT_EQ(resultType("a * 1j", "bfloat16, int8"), "complex64");
}

TEST(TypeRules, WeakLiteralsAdoptTheOtherKind) {
  EXPECT_EQ(resultType("a * 2.0", "float32, int32"), "float32");
  EXPECT_EQ(resultType("b + 1", "float32, int32"), "int32");
  EXPECT_EQ(resultType("a + 1", "float16, int32"), "float16");
  EXPECT_EQ(resultType("b * 2.5", "float32, int16"), "float64");
  EXPECT_EQ(resultType("a + True", "int8, int8"), "int8");
  EXPECT_EQ(resultType("1 + 2", "int8, int8"), "int64");
  EXPECT_EQ(resultType("1 + 2.0", "int8, int8"), "float64");
  EXPECT_EQ(resultType("(a > 0) + 1", "float32, int8"), "int64");
}

TEST(TypeRules, OperatorResults) {
  EXPECT_EQ(resultType("a / b", "int32, int32"), "float64");
  EXPECT_EQ(resultType("a / b", "float32, int8"), "float32");
  EXPECT_EQ(resultType("a // b", "int32, int32"), "int32");
  EXPECT_EQ(resultType("a % 3", "uint16, int32"), "uint16");
  EXPECT_EQ(resultType("a ** b", "int32, int32"), "int32");
  EXPECT_EQ(resultType("a ** 2.0", "int32, int32"), "float64");
  EXPECT_EQ(resultType("a << b", "int32, int8"), "int32");
  EXPECT_EQ(resultType("-a", "bool, int8"), "int64");
  EXPECT_EQ(resultType("a < b", "float32, int8"), "bool");
  EXPECT_EQ(resultType("a and b", "float32, int8"), "float32");
  EXPECT_EQ(resultType("a if b else 0", "float32, int8"), "float32");
}

TEST(TypeRules, VariablesUnifyEveryAssignment) {
  auto lowered = lowerSource("def f(x, n):\n"
                             "    s = 0\n"
                             "    for i in range(n):\n"
                             "        s += x\n"
                             "    return s\n",
                             "f", "void(float32, int32)", ir::Function::Kind::Device);
  EXPECT_EQ(lowered->function->returnType(), ir::Type::scalar(ir::ScalarKind::Float32));
  auto mixed = lowerSource("def f(x, n):\n"
                           "    s = n\n"
                           "    if n > 0:\n"
                           "        s = x\n"
                           "    return s\n",
                           "f", "void(int64, int32)", ir::Function::Kind::Device);
  EXPECT_EQ(mixed->function->returnType(), ir::Type::scalar(ir::ScalarKind::Int64));
}

TEST(TypeRules, BitwiseOnFloatsIsAnError) {
  EXPECT_EQ(loweringError("def k(a):\n    a[0] = a[0] & 1\n", "void(float32[:])"),
            "2:12: cannot bitwise-and 'float32' and 'int64' in 'a[0] & 1'");
}

} // namespace
} // namespace kaji::frontend::test
