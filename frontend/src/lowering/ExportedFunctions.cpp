#include "kaji/frontend/Lowering.h"

#include "kaji/ir/Builder.h"

namespace kaji::frontend {

namespace {

// Whether a value of type `from` becomes one of type `to` by the IR's cast, which converts real
// numbers as Numba converts a result to its signature's type.
bool convertsByCast(const ir::Type &from, const ir::Type &to) {
  return from == to || (from.isScalar() && to.isScalar() && !from.isComplex() && !to.isComplex());
}

} // namespace

ir::Function *exportDeviceFunction(const FunctionRef &fn, const std::vector<ir::Type> &argTypes,
                                   std::optional<ir::Type> result, const std::string &symbol,
                                   ir::Function::Export abi, ir::Module &out,
                                   const LoweringOptions &options) {
  const Location &loc = fn.def->loc;
  for (const ir::Type &type : argTypes)
    if (!type.isScalar() && !type.isVector())
      throw ir::CompileError(loc, "device function '" + fn.def->name +
                                      "' compiled on its own takes numbers, not '" +
                                      typeString(type) + "'");
  ir::Function *callee = lowerFunction(fn, argTypes, ir::Function::Kind::Device, out, options);
  if (callee->paramTypes().size() != argTypes.size())
    throw ir::CompileError(loc, "device function '" + fn.def->name +
                                    "' compiled on its own returns a tuple; it can return a "
                                    "number, a vector or nothing");
  ir::Type returned = callee->returnType();
  ir::Type exportedResult = result.value_or(returned);
  if (returned.isVoid() != exportedResult.isVoid() ||
      (!returned.isVoid() && !convertsByCast(returned, exportedResult)))
    throw ir::CompileError(loc, "device function '" + fn.def->name + "' returns " +
                                    typeString(returned) + " but its signature says " +
                                    typeString(exportedResult));
  for (const auto &function : out.functions())
    if (function->name() == symbol)
      throw ir::CompileError(loc, "cannot export '" + fn.def->name + "' as '" + symbol +
                                      "': a function it calls has that name");
  auto exported = std::make_unique<ir::Function>(symbol, ir::Function::Kind::Device, argTypes,
                                                 exportedResult, loc);
  exported->setExported(abi);
  exported->paramNames() = callee->paramNames();
  ir::Builder builder(exported->entry());
  builder.setLocation(loc);
  std::vector<ir::Value *> args;
  for (size_t i = 0; i < argTypes.size(); ++i)
    args.push_back(exported->entry()->argument(unsigned(i)));
  ir::Operation *call = builder.create(ir::Opcode::Call, returned, args, callee->name());
  builder.ret(returned.isVoid() ? nullptr : builder.cast(call->result(), exportedResult));
  return out.addFunction(std::move(exported));
}

} // namespace kaji::frontend
