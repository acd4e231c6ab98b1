// Calls of CUDA C++ device functions linked into the kernel (Numba's cuda.declare_device):
// the arguments are converted to the declared parameter types, as for a device function with
// an eager signature, and the call becomes an extern_call op (Numba's ABI) or an
// extern_call_c op (the C ABI); either may return void. The runtime links the code in.
#include "FunctionLowerer.h"

#include <algorithm>

namespace kaji::frontend {

Operand FunctionLowerer::callExternal(const GlobalValue &callee, const CallExpr &expr) {
  const Signature &signature = callee.externalSignature;
  const std::string &name = callee.externalName;
  auto cScalar = [](const ir::Type &type) {
    return type.isScalar() && !type.isBool() && !type.isComplex() &&
           !ir::isFloat8(type.scalarKind()) && type.scalarKind() != ir::ScalarKind::BFloat16;
  };
  bool returns = !signature.returnType.isVoid();
  if ((returns && !cScalar(signature.returnType)) ||
      !std::all_of(signature.params.begin(), signature.params.end(), cScalar))
    throw ir::CompileError(expr.loc, "CUDA C++ device function '" + name + "' is declared '" +
                                         signatureString(signature) +
                                         "'; kernels call declared functions that take and "
                                         "return C integers and floats (int8 to uint64, "
                                         "float16, float32, float64) and pointers to them, "
                                         "or return void");
  if (!expr.keywords.empty())
    throw ir::CompileError(expr.keywords.front().loc,
                           "CUDA C++ device function '" + name +
                               "' takes positional arguments only, as its signature '" +
                               signatureString(signature) + "' lists them");
  if (expr.args.size() != signature.params.size())
    throw ir::CompileError(expr.loc, "CUDA C++ device function '" + name + "' takes " +
                                         std::to_string(signature.params.size()) +
                                         " argument(s) ('" + signatureString(signature) +
                                         "'), got " + std::to_string(expr.args.size()));
  std::vector<ParameterStructure> parameters = signature.parameters();
  std::vector<ir::Value *> values;
  for (size_t i = 0; i < expr.args.size(); ++i) {
    Operand arg = lower(*expr.args[i]);
    if (const std::optional<ir::Type> &pointee = parameters[i].pointee) {
      // A C pointer: an array of its element type (a kernel's pointer parameter, an
      // ffi.from_buffer() or any array, a local or shared one too) passes its generic address.
      if (arg.kind != Operand::Kind::Array || arg.type().isRecordArray() ||
          arg.type().isVectorArray() || arg.type().scalarKind() != pointee->scalarKind())
        throw ir::CompileError(expr.args[i]->loc, "cannot pass '" + describe(arg) +
                                                      "' as argument " + std::to_string(i + 1) +
                                                      " of CUDA C++ device function '" + name +
                                                      "', a pointer to " + typeString(*pointee) +
                                                      " ('" + signatureString(signature) + "')");
      at(expr.args[i]->loc);
      values.push_back(builder_
                           .create(ir::Opcode::ArrayAddress,
                                   ir::Type::scalar(ir::ScalarKind::UInt64), {arg.value})
                           ->result());
      continue;
    }
    if (arg.kind != Operand::Kind::Scalar)
      throw ir::CompileError(expr.args[i]->loc,
                             "cannot pass '" + describe(arg) + "' as argument " +
                                 std::to_string(i + 1) + " of CUDA C++ device function '" + name +
                                 "': it takes scalars ('" + signatureString(signature) + "')");
    at(expr.args[i]->loc);
    values.push_back(convert(arg, signature.params[i].scalarKind()));
  }
  // Recorded in the output module even from a trial run: the call is in the final code too.
  for (const std::string &file : callee.externalLinkFiles)
    context_.output().addLinkFile(file);
  if (callee.externalCooperative)
    context_.output().addCooperativeSymbol(callee.qualifiedName);
  at(expr.loc);
  ir::Operation *call =
      builder_.create(callee.externalCAbi ? ir::Opcode::ExternCallC : ir::Opcode::ExternCall,
                      signature.returnType, values, callee.qualifiedName);
  return returns ? Operand::scalar(call->result()) : Operand();
}

} // namespace kaji::frontend
