// The CUDA C++ backend: what the emitter writes, that NVRTC compiles it to PTX ptxas takes,
// and that the kernel parameters are the LLVM path's.
#include "CodegenTestSupport.h"

#include "kaji/codegen/nvrtc/NvrtcCodegen.h"
#include "kaji/runtime/NvJitLink.h"

#include <limits>
#include <regex>

using namespace kaji;
using namespace kaji::codegen;
using namespace kaji::codegen::test;

namespace {

ir::Location at(unsigned line) {
  return ir::Location{std::make_shared<const std::string>("kernel.py"), line, 5};
}

// PTX through NVRTC, or nothing (and the test skipped) where NVRTC cannot be loaded.
std::optional<std::string> nvrtcPTX(const ir::Module &module) {
  try {
    nvrtc::nvrtcInfo();
  } catch (const nvrtc::NvrtcUnavailable &) {
    return std::nullopt;
  }
  return nvrtc::compileWithNvrtc(module, PTXOptions{});
}

// The `.param` types of the entry `name`, in order (".u64", ".f32", ...; `.ptr` qualifiers
// and alignment dropped).
std::vector<std::string> entryParameterTypes(const std::string &ptx, const std::string &name) {
  size_t start = ptx.find(".entry " + name + "(");
  size_t end = ptx.find(')', start);
  std::string params = ptx.substr(start, end - start);
  static const std::regex param(R"(\.param\s+(\.[a-z]+[0-9]+))");
  std::vector<std::string> types;
  for (std::sregex_iterator it(params.begin(), params.end(), param), last; it != last; ++it) {
    std::string type = (*it)[1];
    type[1] = type[1] == 's' || type[1] == 'b' ? 'u' : type[1]; // s64/b64/u64 are one size
    types.push_back(type);
  }
  return types;
}

} // namespace

TEST(CudaEmitter, SaxpyIsAGlobalFunctionWithTheFlattenedParameters) {
  ir::Module module;
  addSaxpy(module);
  std::string source = nvrtc::emitCUDA(module);
  EXPECT_NE(source.find("#include \"kaji_prelude.cuh\""), std::string::npos) << source;
  EXPECT_NE(source.find("extern \"C\" __global__ void saxpy(f32 *out_data, i64 out_shape0, "
                        "i64 out_stride0, f32 a, f32 *x_data"),
            std::string::npos)
      << source;
  // A C-contiguous array's innermost stride is the element size, as on the LLVM path.
  EXPECT_NE(source.find("const kaji::array<f32, 1> x = {x_data, {x_shape0}, {4}};"),
            std::string::npos)
      << source;
}

TEST(CudaEmitter, NvrtcPTXHasTheLLVMPathsParameterLayout) {
  ir::Module module;
  addSaxpy(module);
  std::optional<std::string> ptx = nvrtcPTX(module);
  if (!ptx)
    GTEST_SKIP() << "no NVRTC here";
  expectPTXAssembles(*ptx);
  std::vector<std::string> nvrtc = entryParameterTypes(*ptx, "saxpy");
  EXPECT_EQ(nvrtc.size(), 10u);
  EXPECT_EQ(nvrtc, entryParameterTypes(emitPTX(module, PTXOptions{}), "saxpy"));
}

TEST(CudaEmitter, LtoIrLinksByNvJitLinkIntoPTXWithTheSameEntry) {
  ir::Module module;
  addSaxpy(module);
  std::optional<std::string> ptx = nvrtcPTX(module);
  try {
    runtime::nvJitLinkInfo();
  } catch (const runtime::NvJitLinkUnavailable &error) {
    GTEST_SKIP() << error.what();
  }
  if (!ptx)
    GTEST_SKIP() << "no NVRTC here";
  std::string ltoIr = nvrtc::compileWithNvrtcToLtoIr(module, PTXOptions{});
  EXPECT_EQ(ltoIr.find(".entry"), std::string::npos); // not PTX
  std::string linked =
      runtime::linkLtoIrToPtx({{runtime::CU_JIT_INPUT_NVVM, "saxpy.ltoir", ltoIr}}, "sm_90");
  expectPTXAssembles(linked);
  EXPECT_EQ(entryParameterTypes(linked, "saxpy"), entryParameterTypes(*ptx, "saxpy"));
}

TEST(CudaEmitter, NvvmPTXGetsThePtxasRewritesUnroundedOnesOnlyWithoutFastMath) {
  std::string ptx = "\tabs.s32 \t%r2, %r1;\n"
                    "\tmul.f32 \t%f3, %f1, %f2;\n"
                    "\tst.global.f32 \t[%rd1], %f3;\n";
  std::string exact = nvrtc::rewriteNvvmPtxForPtxas(ptx, /*fastMath=*/false);
  EXPECT_EQ(exact.find("abs.s32"), std::string::npos) << exact;
  EXPECT_NE(exact.find("mul.rn.f32"), std::string::npos) << exact;
  std::string fast = nvrtc::rewriteNvvmPtxForPtxas(ptx, /*fastMath=*/true);
  EXPECT_EQ(fast.find("abs.s32"), std::string::npos) << fast;
  EXPECT_NE(fast.find("\tmul.f32"), std::string::npos) << fast;
}

TEST(CudaEmitter, BoolParameterIsOneByteAndNonzeroIsTrue) {
  ir::Module module;
  auto [function, b] =
      addFunction(module, "k", ir::Function::Kind::Kernel,
                  {ir::Type::array(ir::ScalarKind::Bool, 1), kBool}, {"out", "flag"});
  store(b, function->entry()->argument(1), function->entry()->argument(0),
        {b.intConstant(kI64, 0)});
  b.ret();
  std::string source = nvrtc::emitCUDA(module);
  EXPECT_NE(source.find("u8 *out_data"), std::string::npos) << source;
  EXPECT_NE(source.find("u8 flag_byte"), std::string::npos) << source;
  EXPECT_NE(source.find("const bool flag = flag_byte != 0;"), std::string::npos) << source;
  if (std::optional<std::string> ptx = nvrtcPTX(module)) {
    expectPTXAssembles(*ptx);
    EXPECT_EQ(entryParameterTypes(*ptx, "k"),
              entryParameterTypes(emitPTX(module, PTXOptions{}), "k"));
  }
}

TEST(CudaEmitter, ParameterNamesThatCollideWithCxxAreRenamed) {
  ir::Module module;
  auto [function, b] = addFunction(module, "k", ir::Function::Kind::Kernel,
                                   {ir::Type::array(ir::ScalarKind::Float32, 1), kF32, kF32, kF32},
                                   {"out", "int", "v0", "sin"});
  ir::Value *sum = b.create(ir::Opcode::Add, kF32,
                            {function->entry()->argument(1), function->entry()->argument(2)})
                       ->result();
  sum = b.create(ir::Opcode::Add, kF32, {sum, function->entry()->argument(3)})->result();
  sum = b.math(ir::MathFunctionKind::Sin, kF32, {sum});
  store(b, sum, function->entry()->argument(0), {b.intConstant(kI64, 0)});
  b.ret();
  std::string source = nvrtc::emitCUDA(module);
  EXPECT_EQ(source.find("f32 int"), std::string::npos) << source;
  EXPECT_EQ(source.find("f32 sin"), std::string::npos) << source;
  EXPECT_NE(source.find("f32 v0"), std::string::npos) << source; // a Python name kept
  EXPECT_NE(source.find("f32 arg0"), std::string::npos) << source;
  if (std::optional<std::string> ptx = nvrtcPTX(module))
    expectPTXAssembles(*ptx);
}

TEST(CudaEmitter, LineDirectivesNameThePythonLines) {
  ir::Module module;
  auto [function, b] = addFunction(module, "k", ir::Function::Kind::Kernel,
                                   {ir::Type::array(ir::ScalarKind::Int32, 1)}, {"out"});
  b.setLocation(at(3));
  ir::Value *zero = b.intConstant(kI64, 0);
  ir::Value *value = load(b, function->entry()->argument(0), {zero});
  b.setLocation(at(4));
  ir::Value *twice = b.create(ir::Opcode::Add, kI32, {value, value})->result();
  b.setLocation(at(9));
  store(b, twice, function->entry()->argument(0), {zero});
  b.ret();
  std::string source = nvrtc::emitCUDA(module);
  // Line 4 follows line 3 without a directive of its own; line 9 needs one.
  EXPECT_NE(source.find("#line 3 \"kernel.py\"\n  v0 = 0ll; v1 = *kaji::element(out, v0);\n"
                        "  v2 = kaji::add(v1, v1);\n#line 9 \"kernel.py\"\n"),
            std::string::npos)
      << source;
}

TEST(CudaEmitter, LoopSwappingTwoValuesGoesThroughTemporaries) {
  // ^header(%x, %y) → br ^header(%y, %x): both must read the old values.
  ir::Module module;
  auto [function, b] = addFunction(module, "k", ir::Function::Kind::Kernel,
                                   {ir::Type::array(ir::ScalarKind::Int32, 1)}, {"out"});
  ir::Block *header = function->addBlock();
  ir::Value *x = header->addArgument(kI32);
  ir::Value *y = header->addArgument(kI32);
  ir::Block *exit = function->addBlock();
  ir::Value *zero = b.intConstant(kI64, 0);
  b.br(header, {b.intConstant(kI32, 1), b.intConstant(kI32, 2)});
  b.setBlock(header);
  ir::Value *done = b.cmp(ir::CmpPredicate::Lt, x, y);
  b.condBr(done, exit, {}, header, {y, x});
  b.setBlock(exit);
  store(b, x, function->entry()->argument(0), {zero});
  b.ret();
  std::string source = nvrtc::emitCUDA(module);
  EXPECT_NE(
      source.find("const i32 kaji_t0 = v4; const i32 kaji_t1 = v3; v3 = kaji_t0; v4 = kaji_t1;"),
      std::string::npos)
      << source;
  if (std::optional<std::string> ptx = nvrtcPTX(module))
    expectPTXAssembles(*ptx);
}

TEST(CudaEmitter, UnknownArchIsAnError) {
  ir::Module module;
  addSaxpy(module);
  PTXOptions options;
  options.arch = "compute-90";
  EXPECT_THROW(nvrtc::compileWithNvrtc(module, options), std::runtime_error);
}

TEST(CudaEmitter, ConstantArrayIsAConstantAtFileScope) {
  ir::Module module;
  auto [function, b] = addFunction(module, "k", ir::Function::Kind::Kernel,
                                   {ir::Type::array(ir::ScalarKind::Float32, 1)}, {"out"});
  float weights[] = {0.5f, -2.0f, std::numeric_limits<float>::infinity()};
  ir::ConstantData data{{3}, std::string(reinterpret_cast<const char *>(weights), sizeof weights)};
  ir::Value *table = b.create(ir::Opcode::ConstArray,
                              ir::Type::array(ir::ScalarKind::Float32, 1, ir::Layout::C,
                                              ir::MemorySpace::Constant),
                              {}, data)
                         ->result();
  ir::Value *two = b.intConstant(kI64, 2);
  store(b, load(b, table, {two}), function->entry()->argument(0), {two});
  b.ret();
  std::string source = nvrtc::emitCUDA(module);
  // Floats as their bits: infinity has no literal a constant initialiser may use.
  EXPECT_NE(source.find("__constant__ __align__(16) u32 constant0[3] = {0x3f000000u, "
                        "0xc0000000u, 0x7f800000u};"),
            std::string::npos)
      << source;
  EXPECT_NE(source.find("kaji::array<f32, 1>{reinterpret_cast<f32 *>(constant0), {3}, {4}}"),
            std::string::npos)
      << source;
  if (std::optional<std::string> ptx = nvrtcPTX(module))
    expectPTXAssembles(*ptx);
}

TEST(CudaEmitter, KernelNamedLikeACxxKeywordGetsAnEntryOfItsOwn) {
  ir::Module module;
  auto [function, b] = addFunction(module, "double", ir::Function::Kind::Kernel, {}, {});
  b.ret();
  EXPECT_EQ(nvrtc::cudaName(*function), "kaji_double");
  EXPECT_NE(nvrtc::emitCUDA(module).find("extern \"C\" __global__ void kaji_double()"),
            std::string::npos);
}
