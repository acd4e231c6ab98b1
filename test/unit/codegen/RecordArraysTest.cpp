// Shared, local, dynamic shared and constant arrays of records: storage as bytes aligned to
// at least the record's alignment (never its size, which need not be a power of two), and a
// field reached at its offset, on the LLVM path and in CUDA C++.
#include "CodegenTestSupport.h"

#include "kaji/codegen/nvrtc/NvrtcCodegen.h"
#include "kaji/ir/RecordType.h"
#include "kaji/ir/Verifier.h"

#include <cstring>

using namespace kaji;
using namespace kaji::codegen;
using namespace kaji::codegen::test;

namespace {

// record<24, align 8, a: f32 at 0, n: i32 at 4, w: f64 at 8>: 24 bytes, aligned to 8.
const ir::RecordType *wideRecord() {
  auto field = [](std::string name, int64_t offset, ir::ScalarKind kind) {
    ir::RecordField f;
    f.name = std::move(name);
    f.offset = offset;
    f.scalar = kind;
    return f;
  };
  return ir::RecordType::get({field("a", 0, ir::ScalarKind::Float32),
                              field("n", 4, ir::ScalarKind::Int32),
                              field("w", 8, ir::ScalarKind::Float64)},
                             24, 8);
}

// out[k] = field w of element threadIdx.x of the k-th array, after writing out[0] into that
// field of element 1: a shared array of 3 records, a local one of 2 aligned to 8, a constant
// one of 2 and the dynamic shared memory.
ir::Module recordArraysModule() {
  ir::Module module;
  const ir::RecordType *record = wideRecord();
  auto [function, b] =
      addFunction(module, "k", ir::Function::Kind::Kernel,
                  {ir::Type::array(ir::ScalarKind::Float64, 1, ir::Layout::C)}, {"out"});
  ir::Value *out = function->entry()->argument(0);
  auto recordsIn = [&](ir::MemorySpace space) {
    return ir::Type::array(record, 1, ir::Layout::C, space);
  };
  std::string tableBytes(48, '\0');
  double two = 2.0;
  std::memcpy(tableBytes.data() + 24 + 8, &two, sizeof two);
  std::vector<ir::Value *> arrays{
      b.create(ir::Opcode::SharedArray, recordsIn(ir::MemorySpace::Shared), {},
               ir::ArrayAllocation({3}))
          ->result(),
      b.create(ir::Opcode::LocalArray, recordsIn(ir::MemorySpace::Local), {},
               ir::ArrayAllocation({2}, 8))
          ->result(),
      b.create(ir::Opcode::ConstArray, recordsIn(ir::MemorySpace::Constant), {},
               ir::ConstantData{{2}, tableBytes})
          ->result(),
      b.create(ir::Opcode::DynamicSharedArray, recordsIn(ir::MemorySpace::Shared), {}, int64_t(0))
          ->result()};
  // Written at element 1, read at the thread's element: the optimizer keeps the storage.
  ir::Value *zero = b.intConstant(kI64, 0), *one = b.intConstant(kI64, 1);
  ir::Value *thread = b.cast(b.specialReg(ir::SpecialReg::ThreadIdx, 0), kI64);
  ir::Value *first = load(b, out, {zero});
  const ir::RecordField &w = *record->field("w");
  for (size_t k = 0; k < arrays.size(); ++k) {
    ir::Value *field = b.create(ir::Opcode::Field, ir::fieldViewType(arrays[k]->type(), w),
                                {arrays[k]}, std::string("w"))
                           ->result();
    if (arrays[k]->type().memorySpace() != ir::MemorySpace::Constant)
      store(b, first, field, {one});
    store(b, load(b, field, {thread}), out, {b.intConstant(kI64, int64_t(k))});
  }
  b.ret();
  ir::verify(module);
  return module;
}

} // namespace

TEST(RecordArrays, LLVMStorageIsBytesAlignedToTheRecordNotItsSize) {
  std::string llvmIR = emitLLVMIR(recordArraysModule(), PTXOptions{});
  EXPECT_NE(llvmIR.find("addrspace(3) global [72 x i8] undef, align 16"), std::string::npos)
      << llvmIR;
  EXPECT_NE(llvmIR.find("alloca [48 x i8], align 8"), std::string::npos) << llvmIR;
  EXPECT_NE(llvmIR.find("addrspace(4) constant [48 x i8]"), std::string::npos) << llvmIR;
  std::string ptx = emitPTX(recordArraysModule(), PTXOptions{});
  expectPTXAssembles(ptx);
}

TEST(RecordArrays, CudaCxxStorageIsAlignedBytes) {
  ir::Module module = recordArraysModule();
  std::string source = nvrtc::emitCUDA(module);
  EXPECT_NE(source.find("__shared__ __align__(16) u8 shared"), std::string::npos) << source;
  EXPECT_NE(source.find("[72];"), std::string::npos) << source;
  EXPECT_NE(source.find("__align__(8) u8 local"), std::string::npos) << source;
  EXPECT_NE(source.find("extern __shared__ __align__(16) u8 dynamic_shared"), std::string::npos)
      << source;
  // The dynamic array's extent is the launch's bytes over the record's size.
  EXPECT_NE(source.find("kaji::dynamic_shared_bytes() / 24)}, {24}}"), std::string::npos) << source;
  EXPECT_NE(source.find("__constant__ __align__(16) u8 constant0[48]"), std::string::npos)
      << source;
  try {
    nvrtc::nvrtcInfo();
  } catch (const nvrtc::NvrtcUnavailable &) {
    return;
  }
  expectPTXAssembles(nvrtc::compileWithNvrtc(module, PTXOptions{}));
}
