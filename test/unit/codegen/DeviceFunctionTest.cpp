// Device functions become internal LLVM functions called with flattened arguments.
#include "CodegenTestSupport.h"

#include "kaji/ir/Verifier.h"

using namespace kaji;
using namespace kaji::codegen;
using namespace kaji::codegen::test;

namespace {

// twice_at(v, i) = v[i] * 2 (device); kernel: out[i] = twice_at(x, i) for i = threadIdx.x.
ir::Module callingModule() {
  ir::Module module;
  ir::Type vector = ir::Type::array(ir::ScalarKind::Float32, 1, ir::Layout::Any);
  auto [device, d] =
      addFunction(module, "twice_at", ir::Function::Kind::Device, {vector, kI64}, {"v", "i"}, kF32);
  ir::Value *element = load(d, device->entry()->argument(0), {device->entry()->argument(1)});
  d.ret(d.binary(ir::Opcode::Mul, element, d.floatConstant(kF32, 2.0)));

  auto [kernel, k] =
      addFunction(module, "apply", ir::Function::Kind::Kernel, {vector, vector}, {"out", "x"});
  ir::Value *i = k.cast(k.specialReg(ir::SpecialReg::ThreadIdx, 0), kI64);
  ir::Value *result =
      k.create(ir::Opcode::Call, kF32, {kernel->entry()->argument(1), i}, std::string("twice_at"))
          ->result();
  store(k, result, kernel->entry()->argument(0), {i});
  k.ret();
  ir::verify(module);
  return module;
}

// A kernel storing what each of `count` device functions twice_at_N(v, i) returns.
ir::Module manyCallsModule(int count) {
  ir::Module module;
  ir::Type vector = ir::Type::array(ir::ScalarKind::Float32, 1, ir::Layout::Any);
  for (int n = 0; n < count; ++n) {
    auto [device, d] = addFunction(module, "twice_at_" + std::to_string(n),
                                   ir::Function::Kind::Device, {vector, kI64}, {"v", "i"}, kF32);
    ir::Value *element = load(d, device->entry()->argument(0), {device->entry()->argument(1)});
    d.ret(d.binary(ir::Opcode::Mul, element, d.floatConstant(kF32, 2.0)));
  }
  auto [kernel, k] =
      addFunction(module, "apply_all", ir::Function::Kind::Kernel, {vector, vector}, {"out", "x"});
  ir::Value *i = k.cast(k.specialReg(ir::SpecialReg::ThreadIdx, 0), kI64);
  for (int n = 0; n < count; ++n) {
    ir::Value *result = k.create(ir::Opcode::Call, kF32, {kernel->entry()->argument(1), i},
                                 "twice_at_" + std::to_string(n))
                            ->result();
    store(k, result, kernel->entry()->argument(0), {i});
  }
  k.ret();
  ir::verify(module);
  return module;
}

} // namespace

TEST(DeviceFunction, IsInternalAndTakesFlattenedArrays) {
  PTXOptions unoptimized;
  unoptimized.optLevel = 0;
  std::string llvmIR = emitLLVMIR(callingModule(), unoptimized);
  EXPECT_NE(llvmIR.find("define internal float @twice_at(ptr addrspace(1) %v, i64 %v.shape0, "
                        "i64 %v.stride0, i64 %i)"),
            std::string::npos)
      << llvmIR;
  EXPECT_NE(llvmIR.find("call float @twice_at(ptr addrspace(1) %x, i64 %x.shape0, i64 "
                        "%x.stride0, i64 "),
            std::string::npos)
      << llvmIR;
  EXPECT_EQ(countOccurrences(llvmIR, "!\"kernel\""), 1u) << "only the kernel is an entry";

  std::string ptx = emitPTX(callingModule(), unoptimized);
  EXPECT_NE(ptx.find(".func  (.param .b32 func_retval0) twice_at("), std::string::npos) << ptx;
  expectPTXAssembles(ptx);
}

TEST(DeviceFunction, IsInlinedWhenOptimised) {
  std::string ptx = emitPTX(callingModule(), PTXOptions{});
  EXPECT_EQ(ptx.find("twice_at"), std::string::npos) << ptx;
  EXPECT_NE(ptx.find(".visible .entry apply("), std::string::npos) << ptx;
  expectPTXAssembles(ptx);
}

// LLVM's NVPTX backend caches which functions are kernels by module and function address; a
// module optimised for its LLVM IR alone once left its device function's entry behind, and the
// kernel of a later module at the same addresses came out as a .func (in some processes only,
// as the allocator placed them, and then in nearly every repetition).
TEST(DeviceFunction, AKernelStaysAnEntryAfterModulesPrintedAsLLVMIR) {
  PTXOptions unoptimized;
  unoptimized.optLevel = 0;
  for (int repetition = 0; repetition < 200; ++repetition) {
    emitLLVMIR(manyCallsModule(40), PTXOptions{});
    std::string ptx = emitPTX(callingModule(), unoptimized);
    ASSERT_NE(ptx.find(".visible .entry apply("), std::string::npos)
        << "repetition " << repetition << ":\n"
        << ptx;
  }
}
