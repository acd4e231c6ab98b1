// Calls in the emitted CUDA C++: printf, calls of the module's device functions, and of linked
// CUDA C++ device functions.
#include "kaji/codegen/nvrtc/NvrtcCodegen.h"
#include "kaji/ir/PrintfFormat.h"

#include "CommaSeparated.h"
#include "CudaEmitter.h"

#include <cassert>

namespace kaji::codegen::nvrtc::emitter {

// printf with Numba's conversions (ir/PrintfFormat.h): integers as %lld / %llu, floats as
// %f, bools as True / False, and NUL bytes as %c of 0; as many calls as CUDA's printf needs.
void FunctionEmitter::emitPrint(const ir::Operation &op) {
  for (const ir::PrintfFormat &printf : ir::printfFormats(op))
    emitPrintf(op, printf);
}

void FunctionEmitter::emitPrintf(const ir::Operation &op, const ir::PrintfFormat &printf) {
  std::string args;
  for (const ir::PrintfArgument &argument : printf.arguments) {
    using Kind = ir::PrintfArgument::Kind;
    if (argument.kind == Kind::Nul) {
      args += ", 0"; // %c takes an int
      continue;
    }
    const ir::Value *operand = op.operand(argument.operand);
    ScalarKind kind = operand->type().scalarKind();
    std::string value = name(operand, op);
    if (argument.kind == Kind::Bool)
      args += ", " + value + " ? \"True\" : \"False\"";
    else
      args += ", " + cast(value, kind,
                          argument.kind == Kind::Float    ? ScalarKind::Float64
                          : argument.kind == Kind::Signed ? ScalarKind::Int64
                                                          : ScalarKind::UInt64);
  }
  statement(op, "printf(" + quoted(printf.format) + args + ");");
}

void FunctionEmitter::emitCall(const ir::Operation &op) {
  const std::string &callee = op.attrAs<std::string>();
  const ir::Function *function = module_.module().lookup(callee);
  assert(function && !function->isKernel() && "verified: 'call' names a device function");
  assert(function->paramTypes().size() == op.numOperands() &&
         "verified: 'call' passes one argument per parameter");
  std::vector<std::string> args;
  for (unsigned i = 0; i < op.numOperands(); ++i) {
    assert(op.operand(i)->type() == function->entry()->argument(i)->type() &&
           "verified: 'call' passes arguments of its callee's parameter types");
    args.push_back(name(op.operand(i), op));
  }
  std::string call = cudaName(*function) + "(" + commaSeparated(args) + ")";
  if (!op.result())
    return statement(op, call + ";");
  assert(op.resultType() == function->returnType() && "verified: 'call' has its callee's result");
  assign(op, call);
}

// Numba's ABI: the result through a pointer, the returned status ignored (docs/codegen.md);
// the C ABI (extern_call_c): the result returned.
void FunctionEmitter::emitExternCall(const ir::Operation &op) {
  module_.declareExtern(op);
  std::vector<std::string> args;
  for (const ir::Value *operand : op.operands())
    args.push_back(name(operand, op));
  if (op.opcode() == ir::Opcode::ExternCallC) {
    std::string call = op.attrAs<std::string>() + "(" + commaSeparated(args) + ");";
    statement(op, op.result() ? name(op.result(), op) + " = " + call : call);
    return;
  }
  if (!op.result()) { // the pointer still comes first, to a byte no one reads
    args.insert(args.begin(), "&unused");
    statement(op,
              "{ char unused; " + op.attrAs<std::string>() + "(" + commaSeparated(args) + "); }");
    return;
  }
  // std::string("&"), not "&": GCC 12 warns falsely (-Wrestrict, bug 105329) about a literal
  // plus a returned std::string.
  args.insert(args.begin(), std::string("&") + name(op.result(), op));
  statement(op, op.attrAs<std::string>() + "(" + commaSeparated(args) + ");");
}

} // namespace kaji::codegen::nvrtc::emitter
