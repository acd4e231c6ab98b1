#include "LocalTypes.h"

#include "VariableWebs.h"
#include "kaji/frontend/Signature.h"

#include <algorithm>

namespace kaji::frontend {
namespace {

std::string spell(const LocalType &t) {
  switch (t.kind) {
  case LocalType::Kind::Scalar:
    return std::string(ir::numpyName(t.scalar.kind));
  case LocalType::Kind::Array:
    return typeString(t.array);
  case LocalType::Kind::Vector:
    return typeString(t.vector);
  case LocalType::Kind::Tuple: {
    std::string text = (t.tupleClass.empty() ? "tuple" : t.tupleClass) + "(";
    for (size_t i = 0; i < t.elements.size(); ++i)
      text += (i ? ", " : "") + (t.fields.empty() ? "" : t.fields[i] + "=") + spell(t.elements[i]);
    return text + ")";
  }
  }
  return "?";
}

[[noreturn]] void conflict(const LocalType &a, const LocalType &b, const std::string &variable,
                           const ir::Location &loc) {
  throw ir::CompileError(loc, "variable '" + std::string(sourceVariableName(variable)) +
                                  "' is assigned both '" + spell(a) + "' and '" + spell(b) +
                                  "'; a variable has one type");
}

LocalType typeOf(const Operand &value, const Operand &whole, const std::string &variable,
                 const ir::Location &loc) {
  LocalType t;
  switch (value.kind) {
  case Operand::Kind::Scalar:
    t.scalar = value.scalarType();
    return t;
  case Operand::Kind::Array:
    t.kind = LocalType::Kind::Array;
    t.array = value.type();
    return t;
  case Operand::Kind::Vector:
  case Operand::Kind::Fragment:
    t.kind = LocalType::Kind::Vector;
    t.vector = value.type();
    return t;
  case Operand::Kind::Tuple:
    t.kind = LocalType::Kind::Tuple;
    t.tupleClass = value.tupleClass;
    t.fields = value.fields;
    for (const Operand &element : value.elements)
      t.elements.push_back(typeOf(element, whole, variable, loc));
    return t;
  default:
    if (&value != &whole)
      throw ir::CompileError(loc, "cannot assign '" + describe(whole) + "' to '" +
                                      std::string(sourceVariableName(variable)) +
                                      "': tuple variables may hold only numbers, arrays and "
                                      "tuples of them");
    throw ir::CompileError(loc, "cannot assign " + describe(value) + " to variable '" +
                                    std::string(sourceVariableName(variable)) + "' in a kernel");
  }
}

ir::Type anyLayout(const ir::Type &array) {
  if (array.isRecordArray())
    return ir::Type::array(array.record(), array.ndim(), ir::Layout::Any, array.memorySpace());
  return ir::Type::arrayOf(array.elementType(), array.ndim(), ir::Layout::Any, array.memorySpace());
}

} // namespace

std::string typeText(const LocalType &t) {
  if (t.kind != LocalType::Kind::Tuple)
    return spell(t);
  std::vector<std::string> elements;
  for (const LocalType &element : t.elements)
    elements.push_back(typeText(element));
  if (!elements.empty() &&
      std::all_of(elements.begin(), elements.end(),
                  [&](const std::string &element) { return element == elements.front(); }))
    return "UniTuple(" + elements.front() + " x " + std::to_string(elements.size()) + ")";
  std::string text;
  for (const std::string &element : elements)
    text += (text.empty() ? "" : ", ") + element;
  return "Tuple(" + text + ")";
}

LocalType localTypeOf(const Operand &value, const std::string &variable, const ir::Location &loc) {
  return typeOf(value, value, variable, loc);
}

LocalType unify(const LocalType &a, const LocalType &b, const std::string &variable,
                const ir::Location &loc) {
  if (a.kind != b.kind)
    conflict(a, b, variable, loc);
  switch (a.kind) {
  case LocalType::Kind::Scalar: {
    LocalType t = a;
    t.scalar = promote(a.scalar, b.scalar);
    t.scalar.weak = a.scalar.weak && b.scalar.weak;
    return t;
  }
  case LocalType::Kind::Array:
    if (a.array == b.array)
      return a;
    // Two layouts of one kind of array: either may be held as an array of any layout.
    if (a.array.isRecordArray() == b.array.isRecordArray() &&
        anyLayout(a.array) == anyLayout(b.array)) {
      LocalType t = a;
      t.array = anyLayout(a.array);
      return t;
    }
    conflict(a, b, variable, loc);
  case LocalType::Kind::Vector:
    if (a.vector != b.vector)
      conflict(a, b, variable, loc);
    return a;
  case LocalType::Kind::Tuple: {
    if (a.elements.size() != b.elements.size() || a.fields != b.fields ||
        a.tupleClass != b.tupleClass)
      conflict(a, b, variable, loc);
    LocalType t = a;
    for (size_t i = 0; i < a.elements.size(); ++i) {
      if (a.elements[i].kind != b.elements[i].kind)
        conflict(a, b, variable, loc);
      t.elements[i] = unify(a.elements[i], b.elements[i], variable, loc);
    }
    return t;
  }
  }
  return a;
}
void unifyInto(LocalTypes &into, const LocalTypes &from, const ir::Location &loc) {
  for (const auto &[name, type] : from) {
    auto it = into.find(name);
    if (it == into.end())
      into.emplace(name, type);
    else
      it->second = unify(it->second, type, name, loc);
  }
}

} // namespace kaji::frontend
