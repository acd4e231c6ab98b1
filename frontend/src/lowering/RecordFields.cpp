// Fields of records (numpy structured dtypes): `r.f`, `r['f']`, `a[i].f`, `r.v[k]`,
// `r.inner.f`. A record is memory, never a value: `a[i]` of an array of records is a 0-d
// view of it, and a field is a view of the field's bytes (the IR's `field` op), read or
// written as any array (docs/ir.md, "Records").
#include "FunctionLowerer.h"

#include "kaji/ir/RecordType.h"

namespace kaji::frontend {

namespace {

std::string fieldNames(const ir::RecordType &record) {
  std::string names;
  for (const ir::RecordField &f : record.fields())
    names += (names.empty() ? "" : ", ") + f.name;
  return names;
}

} // namespace

Operand FunctionLowerer::fieldView(const Operand &records, const std::string &name,
                                   const Expr &node) {
  const ir::RecordType &record = *records.type().record();
  const ir::RecordField *f = record.field(name);
  if (!f)
    throw ir::CompileError(node.loc, "the record has no field '" + name + "' (its fields: " +
                                         fieldNames(record) + "), in '" + unparse(node) + "'");
  if (std::string problem = record.accessProblem(*f); !problem.empty())
    throw ir::CompileError(node.loc, problem + ", in '" + unparse(node) + "'");
  ir::Operation *view = at(node.loc).create(
      ir::Opcode::Field, ir::fieldViewType(records.type(), *f), {records.value}, name);
  return Operand::array(view->result());
}

Operand FunctionLowerer::fieldValue(const Operand &view, const Location &loc) {
  ir::Type type = view.type();
  if (type.ndim() != 0 || type.isRecordArray())
    return view;
  ir::Type element = ir::Type::scalar(type.scalarKind());
  return Operand::scalar(at(loc).create(ir::Opcode::Load, element, {view.value})->result());
}

std::optional<Operand> FunctionLowerer::fieldTarget(const Expr &target) {
  const Expr *recordsExpr = nullptr;
  std::string name;
  if (auto *attribute = target.as<AttributeExpr>()) {
    recordsExpr = attribute->value.get();
    name = attribute->attr;
  } else if (auto *subscript = target.as<SubscriptExpr>()) {
    auto *literal = subscript->index->as<StringLiteralExpr>();
    if (!literal)
      return std::nullopt;
    recordsExpr = subscript->value.get();
    name = literal->value;
  } else {
    return std::nullopt;
  }
  Operand records = lower(*recordsExpr);
  if (records.kind != Operand::Kind::Array || !records.type().isRecordArray())
    throw ir::CompileError(target.loc, "cannot assign to '" + unparse(target) +
                                           "': only fields of records take assignments");
  checkWritable(records, target);
  return fieldView(records, name, target);
}

void FunctionLowerer::storeField(const Operand &view, const Operand &value, const Expr &target) {
  ir::Type type = view.type();
  if (type.isRecordArray())
    return copyRecord(view, value, target);
  if (type.ndim() != 0)
    return storeIntoView(view, value, target);
  if (!value.isScalar())
    throw ir::CompileError(target.loc, "cannot store '" + describe(value) + "' into the field '" +
                                           unparse(target) + "'");
  at(target.loc)
      .create(ir::Opcode::Store, ir::Type(), {convert(value, type.scalarKind()), view.value});
}

void FunctionLowerer::copyRecord(const Operand &destination, const Operand &source,
                                 const Expr &target) {
  const ir::RecordType *record = destination.type().record();
  if (source.kind != Operand::Kind::Array || source.type().record() != record ||
      source.type().ndim() != destination.type().ndim())
    throw ir::CompileError(target.loc, "cannot assign '" + describe(source) + "' to '" +
                                           unparse(target) + "', a " + describe(destination) +
                                           ": a record takes a record of its own type");
  // Field by field, as numpy's copy of a record moves every field's bytes (padding aside);
  // each access stays a scalar load and store (docs/ir.md, "Records").
  for (const ir::RecordField &f : record->fields()) {
    Operand value = fieldValue(fieldView(source, f.name, target), target.loc);
    storeField(fieldView(destination, f.name, target), value, target);
  }
}

} // namespace kaji::frontend
