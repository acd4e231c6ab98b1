#include "lowering_test_support.h"

#include "kaji/frontend/Environment.h"

namespace kaji::frontend::test {
namespace {

bool contains(const std::string &text, const std::string &part) {
  return text.find(part) != std::string::npos;
}

TEST(Lowering, SaxpyLoadsMultipliesAndStores) {
  std::string ir = optimizedIR("import kaji\n"
                               "def k(out, a, x, y):\n"
                               "    i = kaji.grid(1)\n"
                               "    if i < x.size:\n"
                               "        out[i] = a * x[i] + y[i]\n",
                               "void(float32[:], float32, float32[:], float32[:])");
  EXPECT_TRUE(contains(ir, "sreg tid.x : i32")) << ir;
  EXPECT_TRUE(contains(ir, "load %x[")) << ir;
  EXPECT_TRUE(contains(ir, "mul %a, ")) << ir;
  EXPECT_TRUE(contains(ir, "store ")) << ir;
  EXPECT_FALSE(contains(ir, "f64")) << ir;
}

TEST(Lowering, LoopCarriesTheAccumulatorInABlockArgument) {
  std::string ir = optimizedIR("def k(a, n):\n"
                               "    s = 0.0\n"
                               "    for j in range(n):\n"
                               "        s += a[j]\n"
                               "    a[0] = s\n",
                               "void(float32[::1], int32)");
  EXPECT_TRUE(contains(ir, " : i32, f32)")) << ir;
  EXPECT_TRUE(contains(ir, "cmp lt")) << ir;
}

TEST(Lowering, DynamicStepSelectsTheLoopCondition) {
  std::string ir = optimizedIR("def k(a, s):\n"
                               "    for j in range(10, 0, s):\n"
                               "        a[j] = 1\n",
                               "void(int64[:], int64)");
  EXPECT_TRUE(contains(ir, "cmp gt %s")) << ir;
  EXPECT_TRUE(contains(ir, "select")) << ir;
}

TEST(Lowering, DeviceFunctionsAreSpecialisedOncePerTypeTuple) {
  auto lowered = lowerSource("from kaji import jit\n"
                             "@jit(device=True)\n"
                             "def add(p, q):\n"
                             "    return p + q\n"
                             "def k(a, b):\n"
                             "    a[0] = add(a[0], a[1]) + add(a[1], a[2])\n"
                             "    b[0] = add(b[0], b[1])\n",
                             "k", "void(float32[:], int32[:])");
  std::string ir = ir::printModule(lowered->module);
  EXPECT_TRUE(contains(ir, "device @add__f32_f32(")) << ir;
  EXPECT_TRUE(contains(ir, "device @add__i32_i32(")) << ir;
  EXPECT_EQ(lowered->module.functions().size(), 3u);
}

TEST(Lowering, WeakLiteralArgumentsKeepDeviceFunctionsInFloat32) {
  std::string ir = optimizedIR("from kaji import jit\n"
                               "@jit(device=True)\n"
                               "def clamp(v, lo, hi):\n"
                               "    return min(max(v, lo), hi)\n"
                               "def k(a):\n"
                               "    a[0] = clamp(a[0], 0.0, 1.0)\n",
                               "void(float32[:])");
  EXPECT_TRUE(contains(ir, "device @clamp__f32_f64w_f64w(%v: f32, %lo: f64, %hi: f64) -> f32"))
      << ir;
  EXPECT_TRUE(contains(ir, "max %v")) << ir;
}

TEST(Lowering, ShortCircuitBranchesWithoutEvaluatingTheRightOperand) {
  std::string ir = optimizedIR("def k(a, n):\n"
                               "    if n > 0 and a[n] > 1.0:\n"
                               "        a[0] = 2.0\n",
                               "void(float32[:], int64)");
  // The load of a[n] sits behind the first conditional branch.
  size_t branch = ir.find("cond_br");
  size_t load = ir.find("load");
  ASSERT_NE(branch, std::string::npos);
  EXPECT_LT(branch, load);
}

TEST(Lowering, NegativeIndicesWrapAroundTheExtent) {
  std::string ir = optimizedIR("def k(a, i):\n    a[i] = a[-1]\n", "void(float32[:], int32)");
  EXPECT_TRUE(contains(ir, "select")) << ir;
  EXPECT_TRUE(contains(ir, "add %")) << ir;
}

TEST(Lowering, TuplesAreCompileTimeOnly) {
  std::string ir = optimizedIR("def k(a):\n"
                               "    n, m = a.shape\n"
                               "    x, y = m, n\n"
                               "    a[0, 0] = x - y + a.shape[-1] + a.ndim\n",
                               "void(int64[:, :])");
  EXPECT_TRUE(contains(ir, "array_dim %a, 1")) << ir;
  EXPECT_TRUE(contains(ir, "sub")) << ir;
}

TEST(Lowering, OnlyTuplesUnpackIntoArguments) {
  EXPECT_EQ(loweringError("def f(x, y):\n    return x\n"
                          "def k(a):\n    a[0] = f(*a)\n",
                          "void(float32[:])"),
            "4:14: only a tuple can be unpacked into a call's arguments in a kernel, not "
            "'float32[:]' ('*a')");
}

TEST(Lowering, UnknownNamesAndAttributes) {
  EXPECT_EQ(loweringError("def k(a):\n    a[0] = foo\n", "void(float32[:])"),
            "2:12: name 'foo' is not defined");
  EXPECT_EQ(loweringError("import math\ndef k(a):\n    a[0] = math.foo(1.0)\n", "void(float32[:])"),
            "3:12: module 'math' has no attribute 'foo'");
  EXPECT_EQ(loweringError("import kaji\ndef k(a):\n    a[0] = kaji.foo\n", "void(float32[:])"),
            "3:12: kaji has no attribute 'foo' supported in kernels");
}

TEST(Lowering, TypeErrorsNameBothTypesAndTheExpression) {
  EXPECT_EQ(loweringError("def k(x):\n    y = x + 1\n", "void(float32[:])"),
            "2:9: cannot add 'float32[:]' and 'int64' in 'x + 1'");
  EXPECT_EQ(loweringError("def k(x):\n    x[0, 1] = 1\n", "void(float32[:])"),
            "2:5: 'x' has 1 dimension but is indexed with 2 indices in 'x[0, 1]'");
  EXPECT_EQ(loweringError("def k(x):\n    x[1.5] = 1\n", "void(float32[:])"),
            "2:7: array indices must be integers, not 'float64', in 'x[1.5]'");
}

TEST(Lowering, UnsupportedConstructsNameThemselves) {
  EXPECT_EQ(loweringError("def k(x):\n    y = [1, 2]\n", "void(float32[:])"),
            "2:9: lists are not supported in kernels");
  EXPECT_EQ(loweringError("def k(x):\n    x[1:] += 1\n", "void(float32[:])"),
            "2:7: an operator-assignment to a slice is not supported in kernels; assign each "
            "element, in 'x[1:]'");
  EXPECT_EQ(loweringError("def k(x):\n    for v in 3.5:\n        pass\n", "void(float32[:])"),
            "2:14: 'float64' is not iterable in '3.5'; kernels iterate over range(), 1-d arrays, "
            "tuples, enumerate() and zip()");
  EXPECT_EQ(loweringError("def k(x):\n    if x[0] > 0:\n        x = 1\n    x[0] = 2\n",
                          "void(float32[:])"),
            "3:9: variable 'x' is assigned both 'float32[:]' and 'int64'; a variable has one type");
}

TEST(Lowering, KernelsAndDeviceFunctions) {
  EXPECT_EQ(loweringError("def k(x):\n    return 1\n", "void(float32[:])"),
            "2:5: a kernel cannot return a value ('return 1'); write results into an array "
            "argument");
  EXPECT_EQ(loweringError("def k(x, y):\n    pass\n", "void(float32[:])"),
            "1:1: kernel 'k' takes 2 arguments but the signature gives 1");
  EXPECT_EQ(loweringError("from kaji import jit\n"
                          "@jit(device=True)\n"
                          "def f(v):\n"
                          "    return f(v)\n"
                          "def k(x):\n"
                          "    x[0] = f(x[0])\n",
                          "void(float32[:])"),
            "4:12: recursion without a signature: cannot type infer runaway recursion, as every "
            "return of 'f' depends on what its "
            "recursive call returns; give it a signature (@jit(\"int64(int64)\", device=True)) "
            "or a return that does not call it");
  EXPECT_EQ(loweringError("from kaji import jit\n"
                          "@jit(device=True)\n"
                          "def f(v):\n"
                          "    if v > 0:\n"
                          "        return v\n"
                          "def k(x):\n"
                          "    x[0] = f(x[0])\n",
                          "void(float32[:])"),
            "3:1: function 'f' returns a value on some paths and None on others");
}

TEST(Lowering, TupleArityAndUnassignedVariables) {
  EXPECT_EQ(loweringError("import kaji\ndef k(x):\n    i, j = kaji.grid(3)\n", "void(float32[:])"),
            "3:5: too many values to unpack (expected 2, got 3)");
  EXPECT_EQ(loweringError("def k(x):\n    x[0] = s\n    s = 1.0\n", "void(float32[:])"),
            "2:12: local variable 's' is referenced before assignment");
}

TEST(Environment, ModuleImportsConstantsAndFunctions) {
  SourceFile file;
  file.name = std::make_shared<const std::string>("m.py");
  file.text = "import numpy as np\n"
              "import math, os\n"
              "from numba import cuda, float32\n"
              "from math import sqrt as root\n"
              "N = -3\n"
              "X = 2.5\n"
              "F = True\n"
              "@cuda.jit(device=True)\n"
              "def dev(a):\n    return a\n"
              "def ker(a):\n    pass\n";
  auto env = environmentFromModule(parseModule(file));
  EXPECT_EQ(env->lookup("np")->qualifiedName, "numpy");
  EXPECT_EQ(env->lookup("math")->kind, GlobalValue::Kind::Module);
  EXPECT_EQ(env->lookup("os"), nullptr);
  EXPECT_EQ(env->lookup("cuda")->qualifiedName, "kaji");
  EXPECT_EQ(env->lookup("float32")->qualifiedName, "numpy.float32");
  EXPECT_EQ(env->lookup("root")->qualifiedName, "math.sqrt");
  EXPECT_EQ(env->lookup("N")->intValue, -3);
  EXPECT_TRUE(env->lookup("N")->weak);
  EXPECT_EQ(env->lookup("X")->floatValue, 2.5);
  EXPECT_EQ(env->lookup("F")->constantType, ir::ScalarKind::Bool);
  EXPECT_TRUE(env->lookup("dev")->function.isDevice);
  EXPECT_FALSE(env->lookup("ker")->function.isDevice);
}

} // namespace
} // namespace kaji::frontend::test
