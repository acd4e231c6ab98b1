// Calls in the emitted CUDA C++: printf, calls of the module's device functions, and of linked
// CUDA C++ device functions.
#include "kaji/codegen/nvrtc/NvrtcCodegen.h"
#include "kaji/ir/PrintfFormat.h"

#include "CommaSeparated.h"
#include "CudaEmitter.h"

namespace kaji::codegen::nvrtc::emitter {

// printf with Numba's conversions (ir/PrintfFormat.h): integers as %lld / %llu, floats as
// %f, bools as True / False, and NUL bytes as %c of 0.
void FunctionEmitter::emitPrint(const ir::Operation &op) {
  ir::PrintfFormat printf = ir::printfFormat(op);
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
  if (!function)
    throw CompileError(op.location(), "call to unknown function '" + callee + "'");
  if (function->isKernel())
    throw CompileError(op.location(), "kernel '" + callee + "' cannot be called from device code");
  std::vector<ir::Type> params = function->paramTypes();
  if (params.size() != op.numOperands())
    throw CompileError(op.location(), "'" + callee + "' takes " + std::to_string(params.size()) +
                                          " argument(s), got " + std::to_string(op.numOperands()));
  std::vector<std::string> args;
  for (unsigned i = 0; i < op.numOperands(); ++i) {
    ir::Type argType = op.operand(i)->type(), paramType = params[i];
    // An array argument of another layout passes its real strides, as on the LLVM path.
    bool compatible = argType.isArray()
                          ? paramType.isArray() && argType.scalarKind() == paramType.scalarKind() &&
                                argType.ndim() == paramType.ndim() &&
                                argType.memorySpace() == paramType.memorySpace()
                          : argType == paramType;
    if (!compatible)
      throw CompileError(op.location(), "argument " + std::to_string(i + 1) + " of '" + callee +
                                            "' has type " + argType.str() + ", expected " +
                                            paramType.str());
    args.push_back(name(op.operand(i), op));
  }
  std::string call = cudaName(*function) + "(" + commaSeparated(args) + ")";
  if (!op.result())
    return statement(op, call + ";");
  if (op.resultType() != function->returnType())
    throw CompileError(op.location(), "call of '" + callee + "' expects a result of type " +
                                          op.resultType().str() + ", but it returns " +
                                          function->returnType().str());
  assign(op, call);
}

// Numba's ABI: the result through a pointer, the returned status ignored (docs/codegen.md).
void FunctionEmitter::emitExternCall(const ir::Operation &op) {
  module_.declareExtern(op);
  // std::string("&"), not "&": GCC 12 warns falsely (-Wrestrict, bug 105329) about a literal
  // plus a returned std::string.
  std::vector<std::string> args{std::string("&") + name(op.result(), op)};
  for (const ir::Value *operand : op.operands())
    args.push_back(name(operand, op));
  statement(op, op.attrAs<std::string>() + "(" + commaSeparated(args) + ");");
}

} // namespace kaji::codegen::nvrtc::emitter
