// Math functions: native intrinsics where NVPTX has them, libdevice otherwise.
#include "CodegenTestSupport.h"

#include "kaji/ir/Verifier.h"

using namespace kaji;
using namespace kaji::codegen;
using namespace kaji::codegen::test;

namespace {

// out[0] = name(x[0], ...) for a kernel over arrays of `kind`; predicates write to a bool
// array.
ir::Module mathKernel(const std::string &name, unsigned arity, ir::ScalarKind kind,
                      bool predicate = false) {
  ir::Module module;
  ir::Type type = scalar(kind);
  ir::Type resultKind = predicate ? kBool : type;
  auto [function, b] = addFunction(module, "math", ir::Function::Kind::Kernel,
                                   {ir::Type::array(resultKind.scalarKind(), 1, ir::Layout::C),
                                    ir::Type::array(kind, 1, ir::Layout::C)},
                                   {"out", "x"});
  std::vector<ir::Value *> args;
  for (unsigned i = 0; i < arity; ++i)
    args.push_back(load(b, function->entry()->argument(1), {b.intConstant(kI64, i)}));
  store(b, b.math(ir::findMathFunction(name)->kind, resultKind, args),
        function->entry()->argument(0), {b.intConstant(kI64, 0)});
  b.ret();
  ir::verify(module);
  return module;
}

struct MathCase {
  std::string name;
  unsigned arity;
  ir::ScalarKind kind;
};

class MathFunctions : public ::testing::TestWithParam<MathCase> {};

} // namespace

TEST_P(MathFunctions, AssembleWithLibdeviceInlined) {
  const MathCase &c = GetParam();
  std::string ptx = emitPTX(mathKernel(c.name, c.arity, c.kind), PTXOptions{});
  EXPECT_EQ(ptx.find("__nv_"), std::string::npos) << "libdevice must be inlined:\n" << ptx;
  EXPECT_EQ(ptx.find("__nvvm_reflect"), std::string::npos) << ptx;
  expectPTXAssembles(ptx);
}

using ir::ScalarKind;

INSTANTIATE_TEST_SUITE_P(
    Codegen, MathFunctions,
    ::testing::Values(
        MathCase{"sqrt", 1, ScalarKind::Float32}, MathCase{"exp", 1, ScalarKind::Float32},
        MathCase{"exp", 1, ScalarKind::Float64}, MathCase{"log", 1, ScalarKind::Float32},
        MathCase{"log2", 1, ScalarKind::Float64}, MathCase{"log10", 1, ScalarKind::Float32},
        MathCase{"sin", 1, ScalarKind::Float32}, MathCase{"cos", 1, ScalarKind::Float64},
        MathCase{"tan", 1, ScalarKind::Float32}, MathCase{"tanh", 1, ScalarKind::Float32},
        MathCase{"asin", 1, ScalarKind::Float32}, MathCase{"acos", 1, ScalarKind::Float64},
        MathCase{"atan", 1, ScalarKind::Float32}, MathCase{"atan2", 2, ScalarKind::Float64},
        MathCase{"rsqrt", 1, ScalarKind::Float32}, MathCase{"floor", 1, ScalarKind::Float32},
        MathCase{"ceil", 1, ScalarKind::Float64}, MathCase{"fabs", 1, ScalarKind::Float32},
        MathCase{"erf", 1, ScalarKind::Float32}, MathCase{"expm1", 1, ScalarKind::Float32},
        MathCase{"log1p", 1, ScalarKind::Float64}, MathCase{"sinh", 1, ScalarKind::Float32},
        MathCase{"cosh", 1, ScalarKind::Float32}, MathCase{"asinh", 1, ScalarKind::Float32},
        MathCase{"acosh", 1, ScalarKind::Float64}, MathCase{"atanh", 1, ScalarKind::Float32},
        MathCase{"hypot", 2, ScalarKind::Float32}, MathCase{"copysign", 2, ScalarKind::Float64},
        MathCase{"fmod", 2, ScalarKind::Float32}, MathCase{"trunc", 1, ScalarKind::Float32},
        MathCase{"round", 1, ScalarKind::Float64}, MathCase{"cbrt", 1, ScalarKind::Float32},
        MathCase{"exp2", 1, ScalarKind::Float64}, MathCase{"erfc", 1, ScalarKind::Float32},
        MathCase{"lgamma", 1, ScalarKind::Float64}, MathCase{"tgamma", 1, ScalarKind::Float32},
        MathCase{"sin", 1, ScalarKind::Float16}, MathCase{"sqrt", 1, ScalarKind::Float16},
        MathCase{"exp", 1, ScalarKind::BFloat16}, MathCase{"sqrt", 1, ScalarKind::BFloat16}),
    [](const auto &info) {
      return info.param.name + "_" + std::string(ir::irName(info.param.kind));
    });

TEST(Math, NativeFunctionsNeedNoLibdevice) {
  std::string llvmIR = emitLLVMIR(mathKernel("sqrt", 1, ScalarKind::Float32), PTXOptions{});
  EXPECT_NE(llvmIR.find("@llvm.sqrt.f32"), std::string::npos) << llvmIR;
  EXPECT_EQ(llvmIR.find("__nv_"), std::string::npos) << llvmIR;
  std::string ptx = emitPTX(mathKernel("sqrt", 1, ScalarKind::Float32), PTXOptions{});
  EXPECT_NE(ptx.find("sqrt.rn.f32"), std::string::npos) << ptx;
}

TEST(Math, LibdeviceIsLinkedOnlyWhereCalledAndReflectsFtz) {
  PTXOptions unoptimized;
  unoptimized.optLevel = 0;
  std::string llvmIR = emitLLVMIR(mathKernel("sin", 1, ScalarKind::Float32), unoptimized);
  EXPECT_NE(llvmIR.find("define internal float @__nv_sinf("), std::string::npos) << llvmIR;
  EXPECT_EQ(llvmIR.find("@__nv_cosf("), std::string::npos) << "only what is needed";
  EXPECT_NE(llvmIR.find("!\"nvvm-reflect-ftz\", i32 0"), std::string::npos) << llvmIR;
  std::string unoptimizedPTX = emitPTX(mathKernel("sin", 1, ScalarKind::Float32), unoptimized);
  EXPECT_EQ(unoptimizedPTX.find("__nvvm_reflect"), std::string::npos) << unoptimizedPTX;
  expectPTXAssembles(unoptimizedPTX);

  PTXOptions fast;
  fast.fastMath = true;
  std::string fastIR = emitLLVMIR(mathKernel("sin", 1, ScalarKind::Float32), fast);
  EXPECT_EQ(fastIR.find("@__nv_sinf("), std::string::npos) << "inlined at O3:\n" << fastIR;
  EXPECT_NE(fastIR.find("!\"nvvm-reflect-ftz\", i32 1"), std::string::npos) << fastIR;
  expectPTXAssembles(emitPTX(mathKernel("sin", 1, ScalarKind::Float32), fast));
}

TEST(Math, PredicatesAreComparisons) {
  std::string isnan = emitLLVMIR(mathKernel("isnan", 1, ScalarKind::Float64, true), PTXOptions{});
  EXPECT_NE(isnan.find("fcmp uno double"), std::string::npos) << isnan;
  std::string isinf = emitLLVMIR(mathKernel("isinf", 1, ScalarKind::Float32, true), PTXOptions{});
  EXPECT_NE(isinf.find("0x7FF0000000000000"), std::string::npos) << isinf;
  expectPTXAssembles(emitPTX(mathKernel("isinf", 1, ScalarKind::Float32, true), PTXOptions{}));
}
