#include "kaji/codegen/llvm/LLVMLowering.h"

#include "FunctionLowering.h"
#include "MathLowering.h"
#include "kaji/abi/KernelABI.h"
#include "kaji/ir/MatrixFragments.h"

#include <llvm/IR/ConstantRange.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>

#include <cassert>
#include <unordered_set>

namespace kaji::codegen {
namespace lowering {

ModuleLowering::ModuleLowering(const ir::Module &module, const Target &target,
                               const LoweringOptions &options, llvm::Module &out)
    : module_(module), target_(target), options_(options), out_(out),
      exceptionNumbers_(module, options.boundsCheck),
      usesWarpgroupMma_(ir::usesWarpgroupMma(module)) {
  if (options.lineInfo || options.debugInfo)
    lineTable_.emplace(out, options.debugInfo);
}

namespace {

// Numba's calling convention around `valueFunction`, the lowering of `function`, which returns
// its result: the entry named as `function` takes a pointer to store the result through before
// the parameters and returns 0, Numba's "no exception" status. With `lines`, it is described
// at `function`'s line, so that the inlined body keeps its lines.
void addNumbaAbiEntry(llvm::Function &valueFunction, const ir::Function &function,
                      LineTable *lines) {
  llvm::LLVMContext &context = valueFunction.getContext();
  std::vector<llvm::Type *> params{llvm::PointerType::get(context, 0)};
  for (llvm::Argument &arg : valueFunction.args())
    params.push_back(arg.getType());
  auto *entry = llvm::Function::Create(
      llvm::FunctionType::get(llvm::Type::getInt32Ty(context), params, false),
      llvm::GlobalValue::ExternalLinkage, function.name(), valueFunction.getParent());
  // Its floating-point attributes (fast math's) too: the inliner keeps a callee whose
  // attributes differ out of line.
  entry->addFnAttrs(llvm::AttrBuilder(context, valueFunction.getAttributes().getFnAttrs()));
  entry->getArg(0)->setName("retptr");
  llvm::IRBuilder<> builder(llvm::BasicBlock::Create(context, "entry", entry));
  if (lines)
    builder.SetCurrentDebugLocation(
        lines->at(function.location(), lines->describe(*entry, function)));
  std::vector<llvm::Value *> args;
  for (unsigned i = 1; i < entry->arg_size(); ++i)
    args.push_back(entry->getArg(i));
  llvm::Value *result = builder.CreateCall(&valueFunction, args);
  if (!result->getType()->isVoidTy())
    builder.CreateStore(result, entry->getArg(0));
  builder.CreateRet(builder.getInt32(0));
  valueFunction.addFnAttr(llvm::Attribute::AlwaysInline);
}

} // namespace

void ModuleLowering::run() {
  for (const auto &function : module_.functions())
    declare(*function);
  for (const auto &function : module_.functions())
    FunctionLowering(*this, *function, *functions_.at(function.get())).run();
  for (const auto &function : module_.functions())
    if (function->exported() == ir::Function::Export::NumbaAbi)
      addNumbaAbiEntry(*functions_.at(function.get()), *function, lineTable());
  if (lineTable_)
    lineTable_->finish();
}

llvm::Value *ModuleLowering::indexScratch(unsigned addressSpace) {
  std::string name = "kaji.index_scratch." + std::to_string(addressSpace);
  if (llvm::GlobalVariable *existing = out_.getNamedGlobal(name))
    return existing;
  auto *storage = llvm::ArrayType::get(llvm::Type::getInt8Ty(out_.getContext()), 16);
  auto *scratch = new llvm::GlobalVariable(out_, storage, false, llvm::GlobalValue::InternalLinkage,
                                           llvm::Constant::getNullValue(storage), name, nullptr,
                                           llvm::GlobalValue::NotThreadLocal, addressSpace);
  scratch->setAlignment(llvm::Align(16));
  return scratch;
}

std::vector<llvm::Type *> ModuleLowering::parameterTypes(ir::Type type, bool isKernel) const {
  llvm::LLVMContext &context = out_.getContext();
  if (type.isComplex() && isKernel) // two parameters: the real and the imaginary part
    return std::vector<llvm::Type *>(2,
                                     registerType(context, ir::componentKind(type.scalarKind())));
  if (type.isScalar())
    return {isKernel ? memoryType(context, type.scalarKind())
                     : registerType(context, type.scalarKind())};
  if (type.isVector() || type.isFragment()) // a fragment: its storage's address
    return {valueType(context, type)};
  std::vector<llvm::Type *> types{
      llvm::PointerType::get(context, target_.addressSpace(type.memorySpace()))};
  types.insert(types.end(), 2 * type.ndim(), llvm::Type::getInt64Ty(context));
  return types;
}

void ModuleLowering::declare(const ir::Function &function) {
  llvm::LLVMContext &context = out_.getContext();
  std::vector<llvm::Type *> params;
  for (ir::Type type : function.paramTypes()) {
    assert(!type.isVoid() && "verified: no parameter is void");
    for (llvm::Type *part : parameterTypes(type, function.isKernel()))
      params.push_back(part);
  }
  llvm::Type *implicitParameter = target_.implicitParameterType(context);
  if (implicitParameter)
    params.push_back(implicitParameter);
  ir::Type returnType = function.returnType();
  assert(!returnType.isArray() && "verified: no function returns an array");
  assert((!function.isKernel() || returnType.isVoid()) && "verified: kernels return void");
  llvm::Type *result =
      returnType.isVoid() ? llvm::Type::getVoidTy(context) : valueType(context, returnType);
  // Code linked with the module calls the C ABI's exported functions by their name; Numba's ABI
  // wraps the function in an entry of that name (addNumbaAbiEntry).
  bool visible = function.isKernel() || function.exported() == ir::Function::Export::CAbi;
  auto linkage = visible ? llvm::GlobalValue::ExternalLinkage : llvm::GlobalValue::InternalLinkage;
  std::string name = function.exported() == ir::Function::Export::NumbaAbi
                         ? function.name() + ".value"
                         : function.name();
  assert(!out_.getFunction(name) && "verified: function names are unique");
  llvm::Function *lowered =
      llvm::Function::Create(llvm::FunctionType::get(result, params, false), linkage, name, out_);
  lowered->setDoesNotThrow();
  if (options_.fastMath) {
    lowered->addFnAttr("unsafe-fp-math", "true");
    // Flush float32 denormals, matching the FTZ variants libdevice picks under fast math.
    lowered->addFnAttr("denormal-fp-math-f32", "preserve-sign,preserve-sign");
  }
  if (implicitParameter)
    lowered->getArg(lowered->arg_size() - 1)->setName("kaji.implicit");
  if (function.inlining() == ir::Function::Inlining::Always)
    lowered->addFnAttr(llvm::Attribute::AlwaysInline);
  else if (function.inlining() == ir::Function::Inlining::Never)
    lowered->addFnAttr(llvm::Attribute::NoInline);
  if (function.isKernel())
    target_.markKernel(*lowered);
  functions_[&function] = lowered;
}

FunctionLowering::FunctionLowering(ModuleLowering &moduleLowering, const ir::Function &function,
                                   llvm::Function &out)
    : moduleLowering_(moduleLowering), target_(moduleLowering.target()), function_(function),
      out_(out), context_(out.getContext()), builder_(out.getContext()) {
  if (moduleLowering.options().fastMath) {
    llvm::FastMathFlags flags;
    flags.setAllowReassoc();
    flags.setAllowContract();
    flags.setApproxFunc();
    flags.setAllowReciprocal();
    flags.setNoSignedZeros();
    builder_.setFastMathFlags(flags);
  }
}

void FunctionLowering::run() {
  assert(!function_.blocks().empty() && "verified: every function has a body");
  std::vector<ir::Block *> order = ir::reversePostOrder(function_);
  std::unordered_set<const ir::Block *> reachable(order.begin(), order.end());
  for (size_t i = 0; i < function_.blocks().size(); ++i) {
    const ir::Block *block = function_.blocks()[i].get();
    if (reachable.count(block))
      blocks_[block] =
          llvm::BasicBlock::Create(context_, i == 0 ? "entry" : "bb" + std::to_string(i), &out_);
  }
  builder_.SetInsertPoint(blocks_.at(function_.entry()));
  LineTable *lines = moduleLowering_.lineTable();
  llvm::DISubprogram *scope = lines ? lines->describe(out_, function_) : nullptr;
  if (lines)
    builder_.SetCurrentDebugLocation(lines->at(function_.location(), scope));
  bindParameters();
  for (const ir::Block *block : order)
    if (block != function_.entry())
      createBlockArguments(*block);
  for (const ir::Block *block : order) {
    builder_.SetInsertPoint(blocks_.at(block));
    for (const auto &op : block->operations()) {
      assert(!builder_.GetInsertBlock()->getTerminator() &&
             "verified: a block's terminator is its last operation");
      if (lines)
        builder_.SetCurrentDebugLocation(lines->at(op->location(), scope));
      if (!deferredChecks_.empty() && !keepsDeferredChecksOpen(*op))
        reportDeferredChecks();
      lowerOperation(*op);
    }
  }
}

// A kernel's array extents lie in [0, kMaxArrayBytes] (abi/KernelABI.h): told
// so, LLVM proves that an index counting up to an extent by a bounded step never
// overflows, so a loop index that starts non-negative stays so and the wraparound of
// negative indices folds away.
llvm::Attribute FunctionLowering::extentRange() const {
  return llvm::Attribute::get(
      context_, llvm::Attribute::Range,
      llvm::ConstantRange(llvm::APInt(64, 0), llvm::APInt(64, uint64_t(abi::kMaxArrayBytes) + 1)));
}

void FunctionLowering::bindParameters() {
  const ir::Block &entry = *function_.entry();
  std::vector<ir::Type> types = function_.paramTypes(); // the entry block's arguments' types
  auto argument = out_.arg_begin();
  for (size_t i = 0; i < types.size(); ++i) {
    std::string name = i < function_.paramNames().size() && !function_.paramNames()[i].empty()
                           ? function_.paramNames()[i]
                           : "arg" + std::to_string(i);
    ir::Type type = types[i];
    if (type.isComplex() && function_.isKernel()) {
      llvm::Value *real = &*argument++;
      llvm::Value *imag = &*argument++;
      real->setName(name + ".real");
      imag->setName(name + ".imag");
      scalars_[entry.argument(i)] = makeComplex(real, imag, type.scalarKind());
      continue;
    }
    if (type.isScalar() || type.isVector() || type.isFragment()) {
      llvm::Value *value = &*argument++;
      value->setName(name);
      if (type.isBool() && value->getType() != builder_.getInt1Ty())
        value = builder_.CreateICmpNE(value, builder_.getInt8(0), name + ".bool");
      scalars_[entry.argument(i)] = value;
      continue;
    }
    ArrayValue array;
    array.data = &*argument++;
    array.data->setName(name);
    for (unsigned d = 0; d < type.ndim(); ++d) {
      if (function_.isKernel())
        out_.addParamAttr(argument->getArgNo(), extentRange());
      array.shape.push_back(&*argument++);
      array.shape.back()->setName(name + ".shape" + std::to_string(d));
    }
    for (unsigned d = 0; d < type.ndim(); ++d) {
      array.strides.push_back(&*argument++);
      array.strides.back()->setName(name + ".stride" + std::to_string(d));
    }
    arrays_[entry.argument(i)] = applyLayout(std::move(array), type, context_);
  }
}

void FunctionLowering::createBlockArguments(const ir::Block &block) {
  builder_.SetInsertPoint(blocks_.at(&block));
  for (const auto &argument : block.arguments()) {
    std::vector<llvm::Value *> phis;
    for (llvm::Type *type : moduleLowering_.parameterTypes(argument->type(), false))
      phis.push_back(builder_.CreatePHI(type, 2));
    bind(argument.get(), phis);
  }
}

// `user` (the operation reading `value`) goes unused: verified IR defines every operand
// before its uses, so the lookup cannot fail.
llvm::Value *FunctionLowering::scalar(const ir::Value *value,
                                      const ir::Operation & /*user*/) const {
  auto it = scalars_.find(value);
  assert(it != scalars_.end() && "verified: a scalar operand is defined before its use");
  return it->second;
}

const ArrayValue &FunctionLowering::array(const ir::Value *value,
                                          const ir::Operation & /*user*/) const {
  auto it = arrays_.find(value);
  assert(it != arrays_.end() && "verified: an array operand is defined before its use");
  return it->second;
}

std::vector<llvm::Value *> FunctionLowering::parts(const ir::Value *value,
                                                   const ir::Operation &user) const {
  if (value->type().isArray())
    return array(value, user).parts();
  return {scalar(value, user)};
}

void FunctionLowering::bind(const ir::Value *value, const std::vector<llvm::Value *> &parts) {
  if (value->type().isArray())
    arrays_[value] = ArrayValue::fromParts(parts, value->type().ndim());
  else
    scalars_[value] = parts.front();
}

void FunctionLowering::lowerOperation(const ir::Operation &op) {
  llvm::Value *result = nullptr;
  switch (op.opcode()) {
  case Opcode::Constant:
    result = lowerConstant(op);
    break;
#define KAJI_BINARY_OPCODE(name, spelling) case Opcode::name:
#include "kaji/ir/Opcodes.def"
    result = lowerBinary(op);
    break;
  case Opcode::Neg:
  case Opcode::Not:
  case Opcode::Abs:
    result = lowerUnary(op);
    break;
  case Opcode::Cmp:
    result = lowerCmp(op);
    break;
  case Opcode::Select:
    lowerSelect(op);
    return;
  case Opcode::Cast: {
    ir::Type from = op.operand(0)->type();
    assert(from.isScalar() && op.resultType().isScalar() && "verified: 'cast' converts scalars");
    result = castScalar(scalar(op.operand(0), op), from.scalarKind(), op.resultType().scalarKind());
    break;
  }
  case Opcode::Bitcast:
    result =
        builder_.CreateBitCast(scalar(op.operand(0), op), valueType(context_, op.resultType()));
    break;
  case Opcode::Complex:
    result = makeComplex(scalar(op.operand(0), op), scalar(op.operand(1), op),
                         op.resultType().scalarKind());
    break;
  case Opcode::Real:
  case Opcode::Imag:
    result = builder_.CreateExtractValue(scalar(op.operand(0), op),
                                         {op.opcode() == Opcode::Real ? 0u : 1u});
    break;
  case Opcode::MakeVector: {
    result = llvm::PoisonValue::get(valueType(context_, op.resultType()));
    for (unsigned lane = 0; lane < op.numOperands(); ++lane)
      result = builder_.CreateInsertValue(result, scalar(op.operand(lane), op), {lane});
    break;
  }
  case Opcode::ExtractLane:
    result =
        builder_.CreateExtractValue(scalar(op.operand(0), op), {unsigned(op.attrAs<int64_t>())});
    break;
  case Opcode::Math:
    result = lowerMath(op);
    break;
  case Opcode::Libdevice: {
    ir::LibdeviceSelection selection = ir::parseLibdeviceSelection(op.attrAs<std::string>());
    assert(selection.function && "verified: a known libdevice function");
    std::vector<llvm::Value *> args;
    for (const ir::Value *operand : op.operands())
      args.push_back(scalar(operand, op));
    result =
        target_.emitLibdevice(builder_, *selection.function, selection.value, args, op.location());
    break;
  }
  case Opcode::Bits:
    result = emitBitFunction(builder_, op.attrAs<ir::BitFunction>(), scalar(op.operand(0), op));
    break;
  case Opcode::SpecialReg: {
    ir::SpecialReg reg = op.attrAs<ir::SpecialReg>();
    assert(reg.dim <= 2 && "verified: a special register's dimension is x, y or z");
    result = target_.emitSpecialReg(builder_, reg);
    break;
  }
  case Opcode::Barrier:
    if (moduleLowering_.usesWarpgroupMma())
      target_.emitSharedWritesToWarpgroupFence(builder_);
    target_.emitBarrier(builder_);
    return;
  case Opcode::GridSync:
    target_.emitGridSync(builder_);
    return;
  case Opcode::Fence:
    target_.emitFence(builder_, op.attrAs<ir::FenceScope>());
    return;
  case Opcode::BarrierReduce:
    result = target_.emitBarrierReduce(builder_, op.attrAs<ir::BarrierReduction>(),
                                       scalar(op.operand(0), op));
    break;
  case Opcode::Nanosleep:
    target_.emitNanosleep(builder_, scalar(op.operand(0), op));
    return;
  case Opcode::WarpSync:
    target_.emitWarpSync(builder_, scalar(op.operand(0), op));
    return;
  case Opcode::AsyncCopy: {
    int64_t bytes = op.attrAs<int64_t>();
    int64_t count = bytes / ir::byteSize(op.operand(0)->type().scalarKind());
    llvm::Value *destination = spanAddress(op, 0, count);
    llvm::Value *source = spanAddress(op, 1, count);
    if (moduleLowering_.options().boundsCheck)
      raiseIfMisaligned(op, {destination, source}, bytes);
    target_.emitAsyncCopy(builder_, destination, source, unsigned(bytes));
    return;
  }
  case Opcode::AsyncCommit:
    target_.emitAsyncCommit(builder_);
    return;
  case Opcode::AsyncWait:
    target_.emitAsyncWait(builder_, unsigned(op.attrAs<int64_t>()));
    return;
  case Opcode::WarpgroupCommit:
    target_.emitWarpgroupCommit(builder_);
    return;
  case Opcode::WarpgroupWait:
    target_.emitWarpgroupWait(builder_, unsigned(op.attrAs<int64_t>()), warpgroupAccumulators());
    return;
  case Opcode::Warp: {
    auto operand = [&](unsigned i) {
      return i < op.numOperands() ? scalar(op.operand(i), op) : nullptr;
    };
    result = target_.emitWarpCollective(
        builder_, op.attrAs<ir::WarpCollectiveKind>(), operand(0), operand(1), operand(2),
        registerType(context_, op.resultType().scalarKind()), op.location());
    break;
  }
  case Opcode::ArrayDim:
  case Opcode::ArrayStride: {
    const ArrayValue &value = array(op.operand(0), op);
    int64_t dim = op.attrAs<int64_t>();
    assert(dim >= 0 && dim < int64_t(value.shape.size()) && "verified: the dimension exists");
    result = op.opcode() == Opcode::ArrayDim ? value.shape[dim] : value.strides[dim];
    break;
  }
  case Opcode::ArrayAddress: {
    // Generic, as a pointer the program passes on would be: local and shared addresses too.
    llvm::Value *generic = builder_.CreateAddrSpaceCast(array(op.operand(0), op).data,
                                                        llvm::PointerType::get(context_, 0));
    result = builder_.CreatePtrToInt(generic, llvm::Type::getInt64Ty(context_));
    break;
  }
  case Opcode::ArrayIndex:
    result = lowerArrayIndex(op);
    break;
  case Opcode::Field:
    lowerField(op);
    break;
  case Opcode::ArrayView:
    lowerArrayView(op);
    return;
  case Opcode::ArrayAt:
    lowerArrayAt(op);
    return;
  case Opcode::Load: {
    ir::Type array = op.operand(0)->type();
    llvm::Value *address = elementAddress(op, 0, 1);
    if (const auto *cache = std::get_if<ir::CacheOperator>(&op.attr()))
      result = target_.emitCachedLoad(builder_, elementMemoryType(context_, array), address,
                                      elementAlignment(array).value(), *cache);
    else
      result = builder_.CreateAlignedLoad(elementMemoryType(context_, array), address,
                                          elementAlignment(array));
    if (op.resultType().isBool())
      result = builder_.CreateICmpNE(result, builder_.getInt8(0));
    break;
  }
  case Opcode::Store: {
    ir::Type array = op.operand(1)->type();
    llvm::Value *value = scalar(op.operand(0), op);
    if (op.operand(0)->type().isBool())
      value = builder_.CreateZExt(value, builder_.getInt8Ty());
    if (const auto *cache = std::get_if<ir::CacheOperator>(&op.attr()))
      target_.emitCachedStore(builder_, value, elementAddress(op, 1, 2),
                              elementAlignment(array).value(), *cache);
    else
      builder_.CreateAlignedStore(value, elementAddress(op, 1, 2), elementAlignment(array));
    return;
  }
  case Opcode::Atomic:
  case Opcode::AtomicCAS:
    result = lowerAtomic(op);
    break;
  case Opcode::SharedArray:
  case Opcode::LocalArray:
  case Opcode::ConstArray:
    lowerStaticArray(op);
    return;
  case Opcode::DynamicSharedArray:
    lowerDynamicSharedArray(op);
    return;
#define KAJI_FRAGMENT_OPCODE(name, spelling) case Opcode::name:
#include "kaji/ir/Opcodes.def"
    result = lowerFragment(op);
    break;
  case Opcode::Print:
    lowerPrint(op);
    return;
  case Opcode::Call:
    lowerCall(op);
    return;
  case Opcode::ExternCall:
  case Opcode::ExternCallC:
    lowerExternCall(op);
    return;
  case Opcode::Br:
  case Opcode::CondBr:
    lowerBranch(op);
    return;
  case Opcode::Return:
    lowerReturn(op);
    return;
  case Opcode::Raise:
    lowerRaise(op);
    return;
  }
  if (op.result())
    scalars_[op.result()] = result;
}

} // namespace lowering

void throwIfInvalid(const llvm::Module &module, const char *stage) {
  std::string problems;
  llvm::raw_string_ostream problemStream(problems);
  if (llvm::verifyModule(module, &problemStream))
    throw std::runtime_error(std::string("kaji codegen produced invalid LLVM IR") + stage +
                             " (a compiler bug): " + problems);
}

void lowerModule(const ir::Module &module, const Target &target, const LoweringOptions &options,
                 llvm::Module &out) {
  lowering::ModuleLowering(module, target, options, out).run();
}

} // namespace kaji::codegen
