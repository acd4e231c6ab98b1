#include "kaji/frontend/Environment.h"

#include "ModuleConstants.h"

#include "kaji/frontend/Signature.h"

#include <cstdint>
#include <optional>

namespace kaji::frontend {

GlobalValue GlobalValue::module(std::string canonicalName) {
  GlobalValue v;
  v.kind = Kind::Module;
  v.qualifiedName = std::move(canonicalName);
  return v;
}

GlobalValue GlobalValue::none() {
  GlobalValue v;
  v.kind = Kind::NoneValue;
  return v;
}

GlobalValue GlobalValue::string(std::string text) {
  GlobalValue v;
  v.kind = Kind::String;
  v.text = std::move(text);
  return v;
}

GlobalValue GlobalValue::builtin(std::string canonicalName) {
  GlobalValue v;
  v.kind = Kind::Builtin;
  v.qualifiedName = std::move(canonicalName);
  return v;
}

GlobalValue GlobalValue::intConstant(ir::ScalarKind type, int64_t value, bool weak) {
  GlobalValue v;
  v.kind = Kind::Constant;
  v.constantType = type;
  v.intValue = value;
  v.weak = weak;
  return v;
}

GlobalValue GlobalValue::floatConstant(ir::ScalarKind type, double value, bool weak) {
  GlobalValue v;
  v.kind = Kind::Constant;
  v.constantType = type;
  v.floatValue = value;
  v.weak = weak;
  return v;
}

GlobalValue GlobalValue::functionRef(FunctionRef ref) {
  GlobalValue v;
  v.kind = Kind::Function;
  v.function = std::move(ref);
  return v;
}

GlobalValue GlobalValue::unusable(std::string name, std::string why) {
  GlobalValue v;
  v.kind = Kind::Unusable;
  v.qualifiedName = std::move(name);
  v.text = std::move(why);
  return v;
}

GlobalValue GlobalValue::overloadedFunction(std::string name,
                                            std::shared_ptr<const OverloadedFunction> overloaded) {
  GlobalValue v;
  v.kind = Kind::Overloaded;
  v.qualifiedName = std::move(name);
  v.overloaded = std::move(overloaded);
  return v;
}

GlobalValue GlobalValue::external(std::string symbol, std::string name, Signature signature,
                                  std::vector<std::string> linkFiles, bool cAbi, bool cooperative) {
  GlobalValue v;
  v.kind = Kind::External;
  v.qualifiedName = std::move(symbol);
  v.externalName = std::move(name);
  v.externalSignature = std::move(signature);
  v.externalLinkFiles = std::move(linkFiles);
  v.externalCAbi = cAbi;
  v.externalCooperative = cooperative;
  return v;
}

GlobalValue GlobalValue::exceptionClass(std::string key) {
  GlobalValue v;
  v.kind = Kind::ExceptionClass;
  v.qualifiedName = std::move(key);
  return v;
}

GlobalValue GlobalValue::enumClassOf(std::string qualifiedName, bool intEnum,
                                     std::vector<GlobalValue> members) {
  GlobalValue v;
  v.kind = Kind::EnumClass;
  v.qualifiedName = std::move(qualifiedName);
  v.intEnum = intEnum;
  v.enumMembers = std::move(members);
  return v;
}

GlobalValue GlobalValue::enumMemberOf(GlobalValue value, std::string enumClass, std::string member,
                                      bool intEnum) {
  value.enumClass = std::move(enumClass);
  value.enumMember = std::move(member);
  value.intEnum = intEnum;
  return value;
}

const GlobalValue *GlobalValue::enumMemberNamed(std::string_view name) const {
  for (const GlobalValue &member : enumMembers)
    if (member.qualifiedName == name)
      return &member;
  return nullptr;
}

GlobalValue GlobalValue::array(std::string name, ir::ScalarKind element,
                               const ir::RecordType *record, std::vector<int64_t> shape,
                               std::optional<std::string> bytes) {
  GlobalValue v;
  v.kind = Kind::Array;
  v.qualifiedName = std::move(name);
  v.arrayElement = element;
  v.record = record;
  v.arrayShape = std::move(shape);
  v.arrayTooLarge = !bytes;
  v.arrayBytes = bytes ? std::move(*bytes) : std::string();
  return v;
}

GlobalValue GlobalValue::deviceArray(std::string name, ir::ScalarKind element,
                                     std::vector<int64_t> shape, std::vector<int64_t> strides,
                                     ir::Layout layout, uint64_t address) {
  GlobalValue v;
  v.kind = Kind::DeviceArray;
  v.qualifiedName = std::move(name);
  v.arrayElement = element;
  v.arrayShape = std::move(shape);
  v.arrayStrides = std::move(strides);
  v.arrayLayout = layout;
  v.arrayAddress = address;
  return v;
}

GlobalValue GlobalValue::tuple(std::vector<GlobalValue> elements, std::string tupleClass,
                               std::vector<std::string> fields) {
  GlobalValue v;
  v.kind = Kind::Tuple;
  v.elements = std::move(elements);
  v.tupleClass = std::move(tupleClass);
  v.fields = std::move(fields);
  return v;
}

GlobalValue GlobalValue::namespaceOf(std::string name, std::vector<std::string> memberNames,
                                     std::vector<GlobalValue> members) {
  // Its members are held as a namedtuple's are.
  GlobalValue v = tuple(std::move(members), {}, std::move(memberNames));
  v.kind = Kind::Namespace;
  v.qualifiedName = std::move(name);
  return v;
}

GlobalValue GlobalValue::namedTupleClass(std::string name, std::vector<std::string> fields) {
  GlobalValue v;
  v.kind = Kind::TupleClass;
  v.tupleClass = std::move(name);
  v.fields = std::move(fields);
  return v;
}

GlobalValue GlobalValue::recordType(std::string name, const ir::RecordType *record) {
  GlobalValue v;
  v.kind = Kind::RecordType;
  v.qualifiedName = std::move(name);
  v.record = record;
  return v;
}

namespace {

// The canonical module a dotted import names: kaji's kernel API is one module however it
// is spelt (`kaji`, `kaji.cuda`, `kaji.types`, `numba.cuda`); numba's types are numba's.
std::optional<std::string> canonicalModule(std::string_view dotted) {
  if (dotted == "kaji" || dotted == "kaji.cuda" || dotted == "kaji.types" || dotted == "numba.cuda")
    return "kaji";
  if (dotted == "numba.types" || dotted == "numba.core.types")
    return "numba";
  if (dotted == "math" || dotted == "cmath" || dotted == "numpy" || dotted == "numba" ||
      dotted == "operator")
    return std::string(dotted);
  return std::nullopt;
}

// What `from MODULE import MEMBER` binds.
GlobalValue importedMember(const std::string &module, const std::string &member) {
  if ((module == "kaji" || module == "numba") && member == "cuda")
    return GlobalValue::module("kaji");
  if (module == "numba") {
    auto kind = scalarKindFromSignatureName(member);
    return GlobalValue::builtin(kind ? "numpy." + std::string(ir::numpyName(*kind))
                                     : "kaji." + member);
  }
  return GlobalValue::builtin(module + "." + member);
}

bool isDeviceDecorator(const Expr &decorator) {
  auto *call = decorator.as<CallExpr>();
  if (!call)
    return false;
  for (const Keyword &kw : call->keywords)
    if (auto *flag = kw.value->as<BoolLiteralExpr>(); kw.name == "device" && flag)
      return flag->value;
  return false;
}

// What `inline=` and `forceinline=` of a decorator call ask for, as Numba spells them:
// inline "always" or True and forceinline True inline every call; inline "never" keeps calls.
ir::Function::Inlining decoratorInlining(const Expr &decorator) {
  auto *call = decorator.as<CallExpr>();
  ir::Function::Inlining inlining = ir::Function::Inlining::Default;
  if (!call)
    return inlining;
  for (const Keyword &kw : call->keywords) {
    if (kw.name != "inline" && kw.name != "forceinline")
      continue;
    auto *flag = kw.value->as<BoolLiteralExpr>();
    auto *text = kw.value->as<StringLiteralExpr>();
    if (flag && flag->value)
      inlining = ir::Function::Inlining::Always;
    else if (kw.name == "inline" && text && (text->value == "always" || text->value == "never"))
      inlining =
          text->value == "always" ? ir::Function::Inlining::Always : ir::Function::Inlining::Never;
    else if (!flag)
      throw ir::CompileError(kw.value->loc, kw.name == "inline"
                                                ? "inline must be 'always', 'never', True or False"
                                                : "forceinline must be True or False");
  }
  return inlining;
}

// The signatures a decorator call gives as its first argument, `jit("float32(float32)", ...)`,
// `jit(float32(float32), ...)` or a list of them, parsed where they are written.
std::vector<Signature> decoratorSignatures(const Expr &decorator) {
  auto *call = decorator.as<CallExpr>();
  if (!call || call->args.empty())
    return {};
  std::vector<const Expr *> texts;
  if (auto *list = call->args[0]->as<ListExpr>())
    for (const ExprPtr &element : list->elts)
      texts.push_back(element.get());
  else
    texts.push_back(call->args[0].get());
  std::vector<Signature> signatures;
  for (const Expr *text : texts)
    if (auto written = writtenSignature(*text))
      signatures.push_back(parseSignature(written->text, written->loc));
  return signatures;
}

void bindAssignment(Environment &env, const Expr &target, const Expr *value) {
  auto *name = target.as<NameExpr>();
  if (!name)
    return;
  std::optional<GlobalValue> constant = value ? evaluateModuleConstant(*value, env) : std::nullopt;
  if (constant) {
    if (constant->kind == GlobalValue::Kind::RecordType)
      constant->qualifiedName = name->id; // what messages call it
    env.names[name->id] = *constant;
    env.unevaluated.erase(name->id);
  } else {
    env.names.erase(name->id);
    env.unevaluated[name->id] = target.loc;
  }
}

} // namespace

std::shared_ptr<Environment> environmentFromModule(std::shared_ptr<const Module> module) {
  auto env = std::make_shared<Environment>();
  for (const StmtPtr &stmt : module->body) {
    if (auto *import = stmt->as<ImportStmt>()) {
      for (const ImportAlias &alias : import->names) {
        if (!alias.asName.empty()) {
          if (auto canonical = canonicalModule(alias.name))
            env->names[alias.asName] = GlobalValue::module(*canonical);
          continue;
        }
        // `import numba.cuda` binds `numba`, through which `numba.cuda` is reached.
        std::string head = alias.name.substr(0, alias.name.find('.'));
        if (auto canonical = canonicalModule(head))
          env->names[head] = GlobalValue::module(*canonical);
      }
    } else if (auto *from = stmt->as<ImportFromStmt>()) {
      auto canonical = canonicalModule(from->module);
      if (!canonical)
        continue;
      for (const ImportAlias &alias : from->names)
        env->names[alias.asName.empty() ? alias.name : alias.asName] =
            importedMember(*canonical, alias.name);
    } else if (auto *assign = stmt->as<AssignStmt>()) {
      for (const ExprPtr &target : assign->targets)
        bindAssignment(*env, *target, assign->value.get());
    } else if (auto *annotated = stmt->as<AnnAssignStmt>()) {
      bindAssignment(*env, *annotated->target, annotated->value.get());
    } else if (auto *def = stmt->as<FunctionDefStmt>()) {
      FunctionRef ref;
      ref.module = module;
      ref.def = def;
      ref.isDevice = false;
      for (const ExprPtr &decorator : def->decorators) {
        if (isDeviceDecorator(*decorator)) {
          ref.isDevice = true;
          ref.signatures = decoratorSignatures(*decorator);
        }
        if (ir::Function::Inlining inlining = decoratorInlining(*decorator);
            inlining != ir::Function::Inlining::Default)
          ref.inlining = inlining;
      }
      env->names[def->name] = GlobalValue::functionRef(std::move(ref));
    }
  }
  return env;
}

} // namespace kaji::frontend
