// `np.dtype([...])` at module level, as the CLI sees a file: the record numpy would lay out,
// so `cuda.local.array(n, REC)` compiles from the text alone as it does from Python.
// Fields of numpy scalar types, optionally with a fixed shape (`("v", np.float32, 3)`), and
// `align=True`; nested records and every other spelling of a dtype are left to Python.
#include "ModuleConstants.h"

#include "kaji/ir/RecordType.h"

#include <algorithm>
#include <cctype>

namespace kaji::frontend {

namespace {

bool isIdentifier(const std::string &name) {
  return !name.empty() && !std::isdigit(static_cast<unsigned char>(name[0])) &&
         std::all_of(name.begin(), name.end(), [](char c) {
           return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
         });
}

std::optional<int64_t> positiveInt(const GlobalValue &value) {
  if (value.kind != GlobalValue::Kind::Constant || !ir::isInteger(value.constantType) ||
      value.constantType == ir::ScalarKind::Bool || value.intValue <= 0)
    return std::nullopt;
  return value.intValue;
}

// A field's fixed shape: `3` or `(2, 3)` of positive ints.
std::optional<std::vector<int64_t>> fieldShape(const Expr &expr, const Environment &env) {
  std::optional<GlobalValue> value = evaluateModuleConstant(expr, env);
  if (!value)
    return std::nullopt;
  std::vector<GlobalValue> extents =
      value->kind == GlobalValue::Kind::Tuple ? value->elements : std::vector{*value};
  std::vector<int64_t> shape;
  for (const GlobalValue &extent : extents) {
    std::optional<int64_t> n = positiveInt(extent);
    if (!n)
      return std::nullopt;
    shape.push_back(*n);
  }
  return shape;
}

std::optional<bool> alignKeyword(const CallExpr &call, const Environment &env) {
  bool align = false;
  for (const Keyword &keyword : call.keywords) {
    std::optional<GlobalValue> value = evaluateModuleConstant(*keyword.value, env);
    if (keyword.name != "align" || !value || value->kind != GlobalValue::Kind::Constant ||
        value->constantType != ir::ScalarKind::Bool)
      return std::nullopt;
    align = value->intValue != 0;
  }
  return align;
}

int64_t roundUp(int64_t n, int64_t multiple) { return (n + multiple - 1) / multiple * multiple; }

} // namespace

std::optional<GlobalValue> evaluateRecordDtype(const CallExpr &call, const Environment &env) {
  auto *list = call.args.size() == 1 ? call.args[0]->as<ListExpr>() : nullptr;
  std::optional<bool> align = alignKeyword(call, env);
  if (!list || !align)
    return std::nullopt;
  std::vector<ir::RecordField> fields;
  int64_t size = 0, widest = 1;
  for (const ExprPtr &element : list->elts) {
    auto *spec = element->as<TupleExpr>();
    if (!spec || spec->elts.size() < 2 || spec->elts.size() > 3)
      return std::nullopt;
    auto *name = spec->elts[0]->as<StringLiteralExpr>();
    std::optional<ir::ScalarKind> kind = scalarTypeNamed(*spec->elts[1], env);
    std::optional<std::vector<int64_t>> shape =
        spec->elts.size() == 3 ? fieldShape(*spec->elts[2], env) : std::vector<int64_t>{};
    if (!name || !isIdentifier(name->value) || !kind || !shape)
      return std::nullopt;
    ir::RecordField &f = fields.emplace_back();
    f.name = name->value;
    f.scalar = *kind;
    f.shape = std::move(*shape);
    // numpy's align=True puts each field at a multiple of its scalar's alignment (a complex
    // number's part's) and pads the itemsize to the widest; packed records pad nothing.
    int64_t alignment = *align ? int64_t(ir::byteSize(ir::componentKind(*kind))) : 1;
    widest = std::max(widest, alignment);
    f.offset = roundUp(size, alignment);
    size = f.offset + f.size();
  }
  const ir::RecordType *record = ir::RecordType::laidOut(std::move(fields), roundUp(size, widest));
  if (!record->problem().empty()) // two fields of one name: numpy's ValueError
    return std::nullopt;
  return GlobalValue::recordType("", record);
}

} // namespace kaji::frontend
