#include "kaji/ir/IR.h"

#include <algorithm>
#include <array>

namespace kaji::ir {

namespace {

constexpr std::string_view kOpcodeNames[] = {
#define KAJI_OPCODE(name, spelling) spelling,
#include "kaji/ir/Opcodes.def"
};

} // namespace

std::string_view opcodeName(Opcode op) { return kOpcodeNames[static_cast<size_t>(op)]; }

bool opcodeFromName(std::string_view name, Opcode &out) {
  for (size_t i = 0; i <= static_cast<size_t>(Opcode::Raise); ++i) {
    if (kOpcodeNames[i] == name) {
      out = static_cast<Opcode>(i);
      return true;
    }
  }
  return false;
}

std::string_view predicateName(CmpPredicate p) {
  static constexpr std::array<std::string_view, 6> names = {"eq", "ne", "lt", "le", "gt", "ge"};
  return names[static_cast<size_t>(p)];
}

bool isTerminator(Opcode op) {
  switch (op) {
#define KAJI_TERMINATOR_OPCODE(name, spelling) case Opcode::name:
#include "kaji/ir/Opcodes.def"
    return true;
  default:
    return false;
  }
}

bool hasSideEffects(Opcode op) {
  switch (op) {
  case Opcode::Barrier:
  case Opcode::Fence:
  case Opcode::BarrierReduce:
  case Opcode::WarpSync:
  case Opcode::Nanosleep:
  case Opcode::Warp:
  case Opcode::GridSync:
  case Opcode::AsyncCopy:
  case Opcode::AsyncCommit:
  case Opcode::AsyncWait:
  case Opcode::WarpgroupCommit:
  case Opcode::WarpgroupWait:
  case Opcode::WarpgroupMma:
  case Opcode::FragmentFill:
  case Opcode::FragmentLoad:
  case Opcode::FragmentStore:
  case Opcode::FragmentMma:
  case Opcode::FragmentSet:
  case Opcode::Print:
  case Opcode::Store:
  case Opcode::Atomic:
  case Opcode::AtomicCAS:
  case Opcode::Call:
  case Opcode::ExternCall:
  case Opcode::ExternCallC:
  case Opcode::Br:
  case Opcode::CondBr:
  case Opcode::Return:
  case Opcode::Raise:
    return true;
  default:
    return false;
  }
}

Operation::Operation(Opcode op, Type resultType, std::vector<Value *> operands, Attr attr,
                     Location loc)
    : opcode_(op), loc_(std::move(loc)), operands_(std::move(operands)), attr_(std::move(attr)) {
  if (!resultType.isVoid()) {
    result_ = std::make_unique<Value>();
    result_->type_ = resultType;
    result_->def_ = this;
  }
}

Value *Block::addArgument(Type t) {
  auto arg = std::make_unique<Value>();
  arg->type_ = t;
  arg->block_ = this;
  arg->index_ = unsigned(args_.size());
  args_.push_back(std::move(arg));
  return args_.back().get();
}

void Block::eraseArgument(unsigned i) {
  args_.erase(args_.begin() + i);
  for (unsigned j = i; j < args_.size(); ++j)
    args_[j]->index_ = j;
}

Operation *Block::append(std::unique_ptr<Operation> op) {
  return insert(ops_.size(), std::move(op));
}

Operation *Block::insert(size_t position, std::unique_ptr<Operation> op) {
  op->parent_ = this;
  return ops_.insert(ops_.begin() + position, std::move(op))->get();
}

std::unique_ptr<Operation> Block::take(size_t position) {
  std::unique_ptr<Operation> op = std::move(ops_[position]);
  ops_.erase(ops_.begin() + position);
  op->parent_ = nullptr;
  return op;
}

std::unique_ptr<Operation> Block::replace(size_t position, std::unique_ptr<Operation> op) {
  op->parent_ = this;
  std::swap(ops_[position], op);
  op->parent_ = nullptr;
  return op;
}

void Block::appendOperationsOf(Block &other) {
  for (auto &op : other.ops_) {
    op->parent_ = this;
    ops_.push_back(std::move(op));
  }
  other.ops_.clear();
}

Operation *Block::terminator() const {
  if (ops_.empty() || !ops_.back()->isTerminator())
    return nullptr;
  return ops_.back().get();
}

Function::Function(std::string name, Kind kind, std::vector<Type> paramTypes, Type returnType,
                   Location loc)
    : name_(std::move(name)), kind_(kind), returnType_(returnType), loc_(std::move(loc)) {
  Block *entryBlock = addBlock();
  for (Type t : paramTypes)
    entryBlock->addArgument(t);
}

Block *Function::addBlock() {
  blocks_.push_back(std::make_unique<Block>(this));
  return blocks_.back().get();
}

std::vector<Type> Function::paramTypes() const {
  std::vector<Type> types;
  for (const auto &arg : entry()->arguments())
    types.push_back(arg->type());
  return types;
}

Function *Module::addFunction(std::unique_ptr<Function> f) {
  functions_.push_back(std::move(f));
  return functions_.back().get();
}

void Module::addLinkFile(const std::string &file) {
  if (std::find(linkFiles_.begin(), linkFiles_.end(), file) == linkFiles_.end())
    linkFiles_.push_back(file);
}

void Module::addCooperativeSymbol(const std::string &symbol) {
  if (std::find(cooperativeSymbols_.begin(), cooperativeSymbols_.end(), symbol) ==
      cooperativeSymbols_.end())
    cooperativeSymbols_.push_back(symbol);
}

Function *Module::lookup(std::string_view name) const {
  for (const auto &f : functions_)
    if (f->name() == name)
      return f.get();
  return nullptr;
}

} // namespace kaji::ir
