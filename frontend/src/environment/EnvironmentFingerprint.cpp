#include "kaji/frontend/Environment.h"
#include "kaji/ir/RecordType.h"

#include <bit>
#include <cstdint>
#include <map>

namespace kaji::frontend {
namespace {

// Writes each field length-prefixed, so no two different environments serialize alike; a
// function met again (a call cycle, or a device function called twice) is written as a
// back-reference to its first occurrence.
class Fingerprinter {
public:
  std::string text;

  void function(const FunctionRef &ref) {
    if (auto seen = seen_.find(ref.def); seen != seen_.end()) {
      field("seen-function", std::to_string(seen->second));
      return;
    }
    seen_.emplace(ref.def, seen_.size());
    field("function", ref.def ? ref.def->name : std::string());
    field("file", ref.module && ref.module->file ? *ref.module->file : std::string());
    field("at", ref.def ? std::to_string(ref.def->loc.line) + ":" + std::to_string(ref.def->loc.col)
                        : std::string());
    field("device", ref.isDevice ? "1" : "0");
    field("inlining", std::to_string(int(ref.inlining)));
    field("signatures", std::to_string(ref.signatures.size()));
    for (const Signature &signature : ref.signatures)
      field("signature", signatureString(signature));
    if (ref.env)
      environment(*ref.env);
    else
      field("environment", "caller's");
  }

  void environment(const Environment &env) {
    field("environment", std::to_string(env.names.size()));
    for (const auto &[name, value] : env.names) {
      field("name", name);
      global(value);
    }
  }

private:
  void field(std::string_view label, std::string_view value) {
    text += label;
    text += ' ';
    text += std::to_string(value.size());
    text += ':';
    text += value;
    text += '\n';
  }

  void global(const GlobalValue &value) {
    switch (value.kind) {
    case GlobalValue::Kind::Module:
      field("module", value.qualifiedName);
      return;
    case GlobalValue::Kind::NoneValue:
      field("none", "");
      return;
    case GlobalValue::Kind::String:
      field("string", value.text);
      return;
    case GlobalValue::Kind::Builtin:
      field("builtin", value.qualifiedName);
      return;
    case GlobalValue::Kind::Constant: {
      field("constant", ir::irName(value.constantType));
      field("weak", value.weak ? "1" : "0");
      field("enum", value.enumClass + "." + value.enumMember + (value.intEnum ? " int" : ""));
      field("attribute", value.qualifiedName);
      // The float's bits, not its decimal spelling, so every distinct value differs.
      field("value", ir::isFloat(value.constantType)
                         ? std::to_string(std::bit_cast<uint64_t>(value.floatValue))
                         : std::to_string(value.intValue));
      return;
    }
    case GlobalValue::Kind::Function:
      function(value.function);
      return;
    case GlobalValue::Kind::Unusable:
      field("unusable", value.qualifiedName + ": " + value.text);
      return;
    case GlobalValue::Kind::Overloaded:
      field("overloaded", value.qualifiedName);
      field("picked by", value.overloaded->fingerprint);
      return;
    case GlobalValue::Kind::ExceptionClass:
      field("exception", value.qualifiedName);
      return;
    case GlobalValue::Kind::RecordType:
      field("record", value.record->str());
      return;
    case GlobalValue::Kind::External:
      field("external", value.qualifiedName);
      field("signature", signatureString(value.externalSignature));
      field("abi", value.externalCAbi ? "c" : "numba");
      if (value.externalCooperative)
        field("cooperative", "1");
      for (const std::string &file : value.externalLinkFiles)
        field("link", file);
      return;
    case GlobalValue::Kind::EnumClass:
      field("enum-class", value.qualifiedName + (value.intEnum ? " int" : ""));
      field("members", std::to_string(value.enumMembers.size()));
      for (const GlobalValue &member : value.enumMembers)
        global(member);
      return;
    case GlobalValue::Kind::Array: {
      field("array", value.record ? value.record->str() : ir::irName(value.arrayElement));
      std::string shape;
      for (int64_t extent : value.arrayShape)
        shape += std::to_string(extent) + ",";
      field("shape", shape);
      field("bytes", value.arrayTooLarge ? "too large" : value.arrayBytes);
      return;
    }
    case GlobalValue::Kind::DeviceArray: {
      // The address is compiled in: another array (or process) is another kernel.
      field("device-array", ir::Type::array(value.arrayElement, unsigned(value.arrayShape.size()),
                                            value.arrayLayout)
                                .str());
      field("address", std::to_string(value.arrayAddress));
      for (size_t d = 0; d < value.arrayShape.size(); ++d) {
        field("extent", std::to_string(value.arrayShape[d]));
        field("stride", std::to_string(value.arrayStrides[d]));
      }
      return;
    }
    case GlobalValue::Kind::TupleClass:
    case GlobalValue::Kind::Tuple:
      field(value.kind == GlobalValue::Kind::Tuple ? "tuple" : "tuple class",
            std::to_string(value.elements.size()));
      field("class", value.tupleClass);
      for (const std::string &name : value.fields)
        field("field", name);
      for (const GlobalValue &element : value.elements)
        global(element);
      return;
    case GlobalValue::Kind::Namespace:
      field("namespace", value.qualifiedName);
      for (size_t i = 0; i < value.fields.size(); ++i) {
        field("member", value.fields[i]);
        global(value.elements[i]);
      }
      return;
    }
  }

  std::map<const FunctionDefStmt *, size_t> seen_;
};

} // namespace

std::string fingerprint(const FunctionRef &function) {
  Fingerprinter fingerprinter;
  fingerprinter.function(function);
  return std::move(fingerprinter.text);
}

std::string fingerprint(const Environment &environment) {
  Fingerprinter fingerprinter;
  fingerprinter.environment(environment);
  return std::move(fingerprinter.text);
}

} // namespace kaji::frontend
