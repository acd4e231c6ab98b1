// numpy's ufuncs on arrays in kernels, as Numba's CUDA target has them: with an output array,
// `np.sin(x, out)`, `np.add(a, b, out)` or `out=out`, the calling thread computes every element
// of `out`, each input broadcast to out's shape as numpy broadcasts (an input's dimensions
// align with out's last ones, and one of extent 1 repeats; a number is the same for every
// element). The element is the ufunc of the inputs' elements, as on numbers, converted to
// out's dtype as a store converts. The call's value is `out`.
#include "FunctionLowerer.h"

namespace kaji::frontend {

using ir::ScalarKind;

namespace {

// numpy's kinds in the order its "same_kind" casting allows: a result goes to an output of its
// kind or a later one (uint8 to int16, int64 to float32, float64 to float32), never back.
int kindOrder(ScalarKind kind) {
  if (kind == ScalarKind::Bool)
    return 0;
  if (ir::isInteger(kind))
    return ir::isSigned(kind) ? 2 : 1;
  if (ir::isComplex(kind))
    return 4;
  return 3;
}

} // namespace

Operand FunctionLowerer::callUfuncOnArrays(const std::string &name, unsigned arity,
                                           const std::vector<Operand> &args, const CallExpr &expr) {
  std::string display = name + "()";
  auto source = [&expr] { return unparse(expr); };
  if (args.size() != arity + 1)
    throw ir::CompileError(
        expr.loc, display + " of an array in a kernel needs an output array " + "after its " +
                      std::to_string(arity) + (arity == 1 ? " input" : " inputs") +
                      " (numpy's out; a kernel makes no arrays), in '" + source() + "'");
  const Operand &out = args.back();
  const Expr &outNode = expr.args.size() > arity ? *expr.args[arity] : *expr.keywords.front().value;
  if (out.kind != Operand::Kind::Array)
    throw ir::CompileError(outNode.loc, display + "'s output must be an array, not '" +
                                            describe(out) + "', in '" + source() + "'");
  if (out.type().memorySpace() == ir::MemorySpace::Constant)
    throw ir::CompileError(outNode.loc,
                           display + " cannot write a constant array, in '" + source() + "'");
  if (out.type().isVectorArray() || out.type().isRecordArray())
    throw ir::CompileError(outNode.loc, display + "'s output must be an array of numbers, not '" +
                                            describe(out) + "', in '" + source() + "'");
  unsigned ndim = out.type().ndim();
  for (unsigned i = 0; i < arity; ++i) {
    const Operand &input = args[i];
    if (input.kind == Operand::Kind::Array &&
        (input.type().ndim() > ndim || input.type().isVectorArray() ||
         input.type().isRecordArray()))
      throw ir::CompileError(expr.args[i]->loc, display + " cannot broadcast '" + describe(input) +
                                                    "' to its output '" + describe(out) +
                                                    "', in '" + source() + "'");
    if (input.kind != Operand::Kind::Array && !input.isScalar())
      throw ir::CompileError(expr.args[i]->loc, display + " takes arrays and numbers, not '" +
                                                    describe(input) + "', in '" + source() + "'");
  }
  ScalarKind outKind = out.type().scalarKind();
  forEachElement(out, expr.loc, [&](const std::vector<ir::Value *> &indices) {
    std::vector<Operand> elements;
    for (unsigned i = 0; i < arity; ++i) {
      const Operand &input = args[i];
      elements.push_back(input.kind == Operand::Kind::Array
                             ? Operand::scalar(broadcastElement(input, indices, expr.loc))
                             : input);
    }
    Operand value = operatorUfuncArity(name.substr(6))
                        ? callOperatorUfunc(name.substr(6), elements, expr)
                        : callMath(name, elements, expr);
    ScalarKind resultKind = value.type().scalarKind();
    if (kindOrder(resultKind) > kindOrder(outKind))
      throw ir::CompileError(outNode.loc, display + " computes " +
                                              ir::Type::scalar(resultKind).str() +
                                              ", which numpy does not cast to its output's " +
                                              ir::Type::scalar(outKind).str() +
                                              " (casting='same_kind'), in '" + source() + "'");
    std::vector<ir::Value *> operands{convert(value, outKind), out.value};
    operands.insert(operands.end(), indices.begin(), indices.end());
    at(expr.loc).create(ir::Opcode::Store, ir::Type(), operands);
  });
  return out;
}

} // namespace kaji::frontend
