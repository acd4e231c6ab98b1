// Kernel entry marking, parameter flattening, address computation and the saxpy path.
#include "CodegenTestSupport.h"

#include "kaji/ir/Verifier.h"

#include <regex>

using namespace kaji;
using namespace kaji::codegen;
using namespace kaji::codegen::test;

TEST(KernelABI, SaxpyLLVMIRMarksTheKernelAndUsesGlobalPointers) {
  ir::Module module;
  addSaxpy(module);
  std::string llvmIR = emitLLVMIR(module, PTXOptions{});
  EXPECT_NE(llvmIR.find("define void @saxpy(ptr addrspace(1)"), std::string::npos) << llvmIR;
  EXPECT_NE(llvmIR.find("!nvvm.annotations"), std::string::npos) << llvmIR;
  EXPECT_NE(llvmIR.find("!\"kernel\", i32 1"), std::string::npos) << llvmIR;
  EXPECT_NE(llvmIR.find("target triple = \"nvptx64-nvidia-cuda\""), std::string::npos);
  // Parameters keep readable names: data pointer, shape, strides.
  EXPECT_NE(llvmIR.find("%x.shape0"), std::string::npos) << llvmIR;
  EXPECT_NE(llvmIR.find("llvm.nvvm.read.ptx.sreg.tid.x"), std::string::npos) << llvmIR;
  EXPECT_EQ(llvmIR.find("__nv_"), std::string::npos) << "saxpy must not link libdevice";
}

TEST(KernelABI, SaxpyPTXIsAnEntryWithFusedMultiplyAdd) {
  ir::Module module;
  addSaxpy(module);
  CodegenTimings timings;
  std::string ptx = emitPTX(module, PTXOptions{}, &timings);
  EXPECT_NE(ptx.find(".visible .entry saxpy("), std::string::npos) << ptx;
  EXPECT_NE(ptx.find(".target sm_90"), std::string::npos) << ptx;
  EXPECT_NE(ptx.find("fma.rn.f32"), std::string::npos) << ptx;
  EXPECT_NE(ptx.find("ld.global"), std::string::npos) << ptx;
  EXPECT_NE(ptx.find("st.global"), std::string::npos) << ptx;
  // out, a, x, y flatten to 3 × (pointer, shape, stride) + 1 scalar = 10 parameters.
  EXPECT_EQ(countOccurrences(ptx, ".param .u64 saxpy_param_"), 9u) << ptx;
  EXPECT_EQ(countOccurrences(ptx, ".param .f32 saxpy_param_"), 1u) << ptx;
  EXPECT_GT(timings.lowerMs + timings.optimizeMs + timings.emitMs, 0.0);
  expectPTXAssembles(ptx);
}

// Compile time is measured by bench/compile_latency and bench/first_call.py, not here.
TEST(KernelABI, RepeatedCompilationGivesTheSamePTX) {
  ir::Module module;
  addSaxpy(module);
  std::string first = emitPTX(module, PTXOptions{});
  EXPECT_EQ(emitPTX(module, PTXOptions{}), first);
}

namespace {

// out[i, j] = in[i, j] * 2 over float64 matrices of `layout`, at optimisation level 0 so
// that the address arithmetic is still visible.
std::string scaleMatrixLLVMIR(ir::Layout layout) {
  ir::Module module;
  ir::Type matrix = ir::Type::array(ir::ScalarKind::Float64, 2, layout);
  auto [function, b] =
      addFunction(module, "scale", ir::Function::Kind::Kernel, {matrix, matrix}, {"out", "in"});
  ir::Value *out = function->entry()->argument(0);
  ir::Value *in = function->entry()->argument(1);
  ir::Value *i = b.cast(b.specialReg(ir::SpecialReg::ThreadIdx, 0), kI64);
  ir::Value *j = b.cast(b.specialReg(ir::SpecialReg::ThreadIdx, 1), kI64);
  ir::Value *two = b.floatConstant(kF64, 2.0);
  store(b, b.binary(ir::Opcode::Mul, load(b, in, {i, j}), two), out, {i, j});
  b.ret();
  ir::verify(module);
  PTXOptions options;
  options.optLevel = 0;
  std::string ptx = emitPTX(module, options);
  expectPTXAssembles(ptx);
  return emitLLVMIR(module, options);
}

} // namespace

TEST(KernelABI, StridedArraysUseEveryStrideParameter) {
  std::string llvmIR = scaleMatrixLLVMIR(ir::Layout::Any);
  // Extents carry the ABI's bound [0, 2**62]; strides are any int64.
  EXPECT_NE(llvmIR.find("i64 range(i64 0, 4611686018427387905) %in.shape0, i64 range(i64 0, "
                        "4611686018427387905) %in.shape1, i64 %in.stride0, i64 %in.stride1"),
            std::string::npos)
      << llvmIR;
  EXPECT_GE(countOccurrences(llvmIR, "%in.stride0"), 2u) << llvmIR;
  EXPECT_GE(countOccurrences(llvmIR, "%in.stride1"), 2u) << llvmIR;
  EXPECT_NE(llvmIR.find("load double, ptr addrspace(1)"), std::string::npos) << llvmIR;
  EXPECT_NE(llvmIR.find("align 8"), std::string::npos) << llvmIR;
}

// The contiguous axis indexes in elements (a typed GEP), so NVPTX can fold a constant index
// offset into the load's immediate.
TEST(KernelABI, ContiguousLayoutsIndexTheUnitStrideAxisInElements) {
  std::regex unitStride(
      "getelementptr inbounds double, ptr addrspace\\(1\\) %[0-9]+, i64 %[0-9]+\n");
  std::string cOrder = scaleMatrixLLVMIR(ir::Layout::C);
  EXPECT_TRUE(std::regex_search(cOrder, unitStride)) << cOrder;
  EXPECT_GE(countOccurrences(cOrder, "%in.stride0"), 2u) << cOrder;
  EXPECT_EQ(countOccurrences(cOrder, "%in.stride1"), 1u) << "only declared, never read";

  std::string fortranOrder = scaleMatrixLLVMIR(ir::Layout::F);
  EXPECT_TRUE(std::regex_search(fortranOrder, unitStride)) << fortranOrder;
  EXPECT_EQ(countOccurrences(fortranOrder, "%in.stride0"), 1u) << fortranOrder;
  EXPECT_GE(countOccurrences(fortranOrder, "%in.stride1"), 2u) << fortranOrder;
}

TEST(KernelABI, BoolParametersArePassedAsBytes) {
  ir::Module module;
  ir::Type flags = ir::Type::array(ir::ScalarKind::Bool, 1, ir::Layout::C);
  auto [function, b] =
      addFunction(module, "flag", ir::Function::Kind::Kernel, {flags, kBool}, {"out", "value"});
  ir::Value *zero = b.intConstant(kI64, 0);
  store(b, b.unary(ir::Opcode::Not, function->entry()->argument(1)), function->entry()->argument(0),
        {zero});
  b.ret();
  ir::verify(module);
  std::string llvmIR = emitLLVMIR(module, PTXOptions{});
  EXPECT_NE(llvmIR.find("@flag(ptr addrspace(1) "), std::string::npos) << llvmIR;
  EXPECT_NE(llvmIR.find("i8 "), std::string::npos) << llvmIR;
  std::string ptx = emitPTX(module, PTXOptions{});
  EXPECT_NE(ptx.find(".param .u8 flag_param_"), std::string::npos) << ptx;
  expectPTXAssembles(ptx);
}
