#include "kaji/ir/RecordType.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <map>
#include <memory>
#include <mutex>

namespace kaji::ir {

namespace {

std::string elementSpelling(const RecordField &f) {
  std::string s = f.record ? f.record->str() : std::string(irName(f.scalar));
  if (f.shape.empty())
    return s;
  s += "[";
  for (size_t i = 0; i < f.shape.size(); ++i)
    s += (i ? ", " : "") + std::to_string(f.shape[i]);
  return s + "]";
}

// A title in double quotes, with `"` and `\` escaped by a backslash.
std::string quoted(std::string_view text) {
  std::string s = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\')
      s += '\\';
    s += c;
  }
  return s + '"';
}

std::string spell(const std::vector<RecordField> &fields, int64_t size, int64_t alignment,
                  bool alignedStruct) {
  std::string s = "record<" + std::to_string(size) + ", align " + std::to_string(alignment);
  if (alignedStruct)
    s += ", aligned";
  for (const RecordField &f : fields) {
    s += ", " + f.name;
    if (!f.title.empty())
      s += " title " + quoted(f.title);
    s += ": " + elementSpelling(f) + " at " + std::to_string(f.offset);
  }
  return s + ">";
}

// Cursor over the spelling: each step skips leading blanks and reports false on a mismatch.
struct Cursor {
  std::string_view &text;

  void blanks() {
    while (!text.empty() && text.front() == ' ')
      text.remove_prefix(1);
  }
  bool literal(std::string_view word) {
    blanks();
    if (!text.starts_with(word))
      return false;
    text.remove_prefix(word.size());
    return true;
  }
  bool number(int64_t &out) {
    blanks();
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
    if (ec != std::errc() || out < 0)
      return false;
    text.remove_prefix(size_t(end - text.data()));
    return true;
  }
  // A double-quoted string as quoted() spells it.
  bool quotedText(std::string &out) {
    if (!literal("\""))
      return false;
    while (!text.empty() && text.front() != '"') {
      if (text.front() == '\\')
        text.remove_prefix(1);
      if (text.empty())
        return false;
      out += text.front();
      text.remove_prefix(1);
    }
    return literal("\"");
  }
  std::string_view word() {
    blanks();
    size_t n = 0;
    while (n < text.size() && (std::isalnum(static_cast<unsigned char>(text[n])) || text[n] == '_'))
      ++n;
    std::string_view w = text.substr(0, n);
    text.remove_prefix(n);
    return w;
  }
};

bool parseField(Cursor &in, RecordField &f) {
  f.name = std::string(in.word());
  if (f.name.empty())
    return false;
  if (in.literal("title") && (!in.quotedText(f.title) || f.title.empty()))
    return false;
  if (!in.literal(":"))
    return false;
  in.blanks();
  if (in.text.starts_with("record<")) {
    f.record = parseRecordType(in.text);
    if (!f.record)
      return false;
  } else {
    std::string_view kind = in.word();
    auto scalar = scalarKindFromName(kind);
    if (!scalar || irName(*scalar) != kind)
      return false;
    f.scalar = *scalar;
  }
  if (in.literal("[")) {
    do {
      int64_t extent = 0;
      if (!in.number(extent))
        return false;
      f.shape.push_back(extent);
    } while (in.literal(","));
    if (!in.literal("]"))
      return false;
  }
  return in.literal("at") && in.number(f.offset);
}

int64_t product(const std::vector<int64_t> &shape) {
  int64_t n = 1;
  for (int64_t extent : shape)
    n *= extent;
  return n;
}

} // namespace

int64_t RecordField::elementSize() const { return record ? record->size() : byteSize(scalar); }

int64_t RecordField::size() const { return elementSize() * product(shape); }

std::vector<int64_t> RecordField::strides() const {
  std::vector<int64_t> result(shape.size());
  int64_t stride = elementSize();
  for (size_t d = shape.size(); d-- > 0;) {
    result[d] = stride;
    stride *= shape[d];
  }
  return result;
}

int64_t RecordField::elementAlignment() const {
  return record ? record->alignment() : byteSize(componentKind(scalar));
}

RecordType::RecordType(std::vector<RecordField> fields, int64_t size, int64_t alignment,
                       bool alignedStruct, std::string spelling)
    : fields_(std::move(fields)), size_(size), alignment_(alignment), alignedStruct_(alignedStruct),
      spelling_(std::move(spelling)) {}

const RecordType *RecordType::get(std::vector<RecordField> fields, int64_t size, int64_t alignment,
                                  bool alignedStruct) {
  // Never freed: types hold bare pointers and are copied freely across threads.
  static std::mutex mutex;
  static std::map<std::string, std::unique_ptr<RecordType>, std::less<>> interned;
  std::string spelling = spell(fields, size, alignment, alignedStruct);
  std::lock_guard lock(mutex);
  auto it = interned.find(spelling);
  if (it == interned.end())
    it = interned
             .emplace(spelling, std::make_unique<RecordType>(std::move(fields), size, alignment,
                                                             alignedStruct, spelling))
             .first;
  return it->second.get();
}

const RecordType *RecordType::laidOut(std::vector<RecordField> fields, int64_t size,
                                      bool alignedStruct) {
  int64_t widest = 1;
  for (const RecordField &f : fields)
    widest = std::max(widest, f.elementAlignment());
  int64_t sizeAlignment = size > 0 ? size & -size : widest;
  return get(std::move(fields), size, std::min(widest, sizeAlignment), alignedStruct);
}

const RecordField *RecordType::field(std::string_view name) const {
  for (const RecordField &f : fields_)
    if (f.name == name)
      return &f;
  return nullptr;
}

std::string RecordType::problem() const {
  if (alignment_ < 1 || (alignment_ & (alignment_ - 1)) != 0)
    return "record alignment " + std::to_string(alignment_) + " is not a power of two";
  for (size_t i = 0; i < fields_.size(); ++i) {
    const RecordField &f = fields_[i];
    for (size_t j = 0; j < i; ++j)
      if (fields_[j].name == f.name)
        return "record has two fields named '" + f.name + "'";
    if (f.offset + f.size() > size_)
      return "field '" + f.name + "' ends at byte " + std::to_string(f.offset + f.size()) +
             ", past the record's " + std::to_string(size_);
    if (f.record)
      if (std::string nested = f.record->problem(); !nested.empty())
        return "in field '" + f.name + "': " + nested;
  }
  return {};
}

std::string RecordType::accessProblem(const RecordField &f) const {
  int64_t needed = f.elementAlignment();
  if (f.offset % needed == 0 && alignment_ % needed == 0)
    return {};
  return "field '" + f.name + "' at byte " + std::to_string(f.offset) + " needs " +
         std::to_string(needed) + "-byte alignment, which the record's elements (" +
         std::to_string(size_) + " bytes, aligned to " + std::to_string(alignment_) +
         ") do not give it; lay the record out with np.dtype(..., align=True)";
}

const RecordType *parseRecordType(std::string_view &text) {
  Cursor in{text};
  int64_t size = 0, alignment = 0;
  if (!in.literal("record<") || !in.number(size) || !in.literal(",") || !in.literal("align") ||
      !in.number(alignment))
    return nullptr;
  bool alignedStruct = false;
  std::vector<RecordField> fields;
  while (in.literal(",")) {
    // The flag, not a field whose name starts with it: no ':' follows.
    std::string_view beforeFlag = text;
    if (fields.empty() && !alignedStruct && in.literal("aligned")) {
      in.blanks();
      if (text.starts_with(",") || text.starts_with(">")) {
        alignedStruct = true;
        continue;
      }
      text = beforeFlag;
    }
    if (!parseField(in, fields.emplace_back()))
      return nullptr;
  }
  if (!in.literal(">"))
    return nullptr;
  return RecordType::get(std::move(fields), size, alignment, alignedStruct);
}

Type viewTypeOf(const Type &array, unsigned ndim, Layout layout) {
  if (array.isRecordArray())
    return Type::array(array.record(), ndim, layout, array.memorySpace());
  return Type::arrayOf(array.elementType(), ndim, layout, array.memorySpace());
}

Type fieldViewType(const Type &records, const RecordField &f) {
  unsigned ndim = records.ndim() + unsigned(f.shape.size());
  // The field of a single record is contiguous; fields of many records are strided.
  Layout layout = records.ndim() == 0 ? Layout::C : Layout::Any;
  if (f.record)
    return Type::array(f.record, ndim, layout, records.memorySpace());
  return Type::array(f.scalar, ndim, layout, records.memorySpace());
}

} // namespace kaji::ir
