// `raise` and `assert` in kernels and device functions: a raise op naming Python's exception
// class and its constant message (docs/ir.md), which the launch turns into that exception.
#include "FunctionLowerer.h"

#include <algorithm>
#include <array>
#include <string_view>

namespace kaji::frontend {
namespace {

// Python's built-in exception classes a kernel may raise by name.
constexpr std::array<std::string_view, 22> kBuiltinExceptions = {
    "Exception",           "ArithmeticError", "AssertionError",
    "AttributeError",      "BufferError",     "EOFError",
    "FloatingPointError",  "IndexError",      "KeyError",
    "LookupError",         "MemoryError",     "NameError",
    "NotImplementedError", "OSError",         "OverflowError",
    "RecursionError",      "RuntimeError",    "StopIteration",
    "SystemError",         "TypeError",       "ValueError",
    "ZeroDivisionError"};

bool isBuiltinException(std::string_view name) {
  return std::find(kBuiltinExceptions.begin(), kBuiltinExceptions.end(), name) !=
         kBuiltinExceptions.end();
}

// The constant message of `raise E(message)` / `assert c, message`: Numba takes constant
// arguments only, kaji a string literal.
std::string constantMessage(const Expr &message) {
  if (const auto *text = message.as<StringLiteralExpr>())
    return text->value;
  throw ir::CompileError(message.loc, "the message of an exception raised in a kernel must be a "
                                      "constant string, not '" +
                                          unparse(message) + "'");
}

std::string withMessage(std::string exceptionClass, const std::string &message) {
  return message.empty() ? exceptionClass : exceptionClass + ": " + message;
}

} // namespace

std::string FunctionLowerer::exceptionClass(const Expr &name) {
  const auto *id = name.as<NameExpr>();
  auto notAnException = [&] {
    return ir::CompileError(name.loc, "'" + unparse(name) +
                                          "' is not an exception class; a kernel raises a "
                                          "built-in exception class or one of the module's");
  };
  if (!id || locals_.count(variable(*id)) || compileTimeParameters_.count(variable(*id)))
    throw notAnException();
  if (const GlobalValue *global = env_->lookup(id->id)) {
    if (global->kind != GlobalValue::Kind::ExceptionClass)
      throw notAnException();
    return global->qualifiedName;
  }
  if (!isBuiltinException(id->id))
    throw notAnException();
  return id->id;
}

std::string FunctionLowerer::raisedException(const Expr &exception) {
  const auto *call = exception.as<CallExpr>();
  if (!call)
    return exceptionClass(exception);
  std::string exceptionClassName = exceptionClass(*call->func);
  if (!call->keywords.empty())
    throw ir::CompileError(call->keywords.front().loc,
                           "an exception raised in a kernel takes no keyword arguments");
  if (call->args.size() > 1)
    throw ir::CompileError(call->args[1]->loc,
                           "an exception raised in a kernel takes one constant string message");
  return withMessage(exceptionClassName, call->args.empty() ? "" : constantMessage(*call->args[0]));
}

void FunctionLowerer::lowerRaise(const RaiseStmt &stmt) {
  if (!stmt.exception)
    throw ir::CompileError(stmt.loc, "a bare 'raise' re-raises the exception being handled; "
                                     "kernels handle none");
  std::string exception = raisedException(*stmt.exception);
  at(stmt.loc);
  if (context_.options().reportExceptions)
    builder_.create(ir::Opcode::Raise, ir::Type(), {}, std::move(exception));
  else
    builder_.create(ir::Opcode::Raise, ir::Type());
  enter(newUnreachableBlock());
}

void FunctionLowerer::raiseUnless(ir::Value *holds, const std::string &exceptionClass,
                                  const std::string &message, const Location &loc) {
  if (!context_.options().reportExceptions)
    return;
  ir::Block *fail = newBlock();
  ir::Block *pass = newBlock();
  at(loc);
  condJump(holds, pass, fail);
  ssa_->seal(fail);
  ssa_->seal(pass);
  enter(fail);
  at(loc);
  builder_.create(ir::Opcode::Raise, ir::Type(), {}, withMessage(exceptionClass, message));
  enter(pass);
}

void FunctionLowerer::lowerAssert(const AssertStmt &stmt) {
  std::string message = stmt.message ? constantMessage(*stmt.message) : std::string();
  if (!context_.options().reportExceptions)
    return;
  ir::Block *fail = newBlock();
  ir::Block *pass = newBlock();
  branchOn(*stmt.test, pass, fail);
  ssa_->seal(fail);
  ssa_->seal(pass);
  enter(fail);
  at(stmt.loc);
  if (reachable())
    builder_.create(ir::Opcode::Raise, ir::Type(), {}, withMessage("AssertionError", message));
  enter(pass);
}

} // namespace kaji::frontend
