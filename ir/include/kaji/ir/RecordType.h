// A record (numpy structured dtype): named fields at byte offsets in a block of memory. A
// record is a memory layout, never an SSA value: arrays have records as elements, and the
// `field` op views one field of them (docs/ir.md, "Records").
#pragma once

#include "kaji/ir/Type.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace kaji::ir {

class RecordType;

// One field: a scalar or a nested record, or a fixed-size array of them (`shape` non-empty,
// C order, as numpy's ('v', np.float32, 3) lays it out).
struct RecordField {
  std::string name;
  int64_t offset = 0;
  ScalarKind scalar = ScalarKind::UInt8; // the element when `record` is null
  const RecordType *record = nullptr;
  std::vector<int64_t> shape;
  // numpy's title of the field (another key of dtype.fields), or empty.
  std::string title;

  // The bytes of one element and of the whole field.
  int64_t elementSize() const;
  int64_t size() const;
  // The alignment its element needs: a scalar's natural one (a complex number's part's), a
  // nested record's own.
  int64_t elementAlignment() const;
  // The byte strides of a fixed-size array field's dimensions (C order).
  std::vector<int64_t> strides() const;
  friend bool operator==(const RecordField &, const RecordField &) = default;
};

class RecordType {
public:
  // The one record with these fields, size and alignment, and numpy's aligned-struct flag
  // (np.dtype(..., align=True)): records are interned for the life of the process, so types
  // compare and hash by the pointer, and two dtypes share a record only if numpy's
  // descriptions of them match in every field, title and flag.
  static const RecordType *get(std::vector<RecordField> fields, int64_t size, int64_t alignment,
                               bool alignedStruct = false);
  // The record of an array numpy lays out with these fields and itemsize: aligned as every
  // element is where the first is aligned to it, the largest power of two dividing the size,
  // never more than the widest field needs.
  static const RecordType *laidOut(std::vector<RecordField> fields, int64_t size,
                                   bool alignedStruct = false);

  const std::vector<RecordField> &fields() const { return fields_; }
  // Null when no field has this name.
  const RecordField *field(std::string_view name) const;
  int64_t size() const { return size_; }
  // The alignment every element's address has: a field needing more cannot be accessed.
  int64_t alignment() const { return alignment_; }
  bool alignedStruct() const { return alignedStruct_; }
  // "record<16, align 8, s0: u64 at 0, s1: u64 at 8>"; a fixed-size array field reads
  // "v: f32[3] at 8", a titled one `x title "T": f32 at 0`; an aligned struct's reads
  // "record<16, align 8, aligned, ...>".
  const std::string &str() const { return spelling_; }

  // What makes this layout, or a record nested in it, unusable ("field 'x' ends at byte 20,
  // past the record's 16"), or empty.
  std::string problem() const;
  // What keeps field `f` from being read or written where it lies, or empty.
  std::string accessProblem(const RecordField &f) const;

  RecordType(std::vector<RecordField> fields, int64_t size, int64_t alignment, bool alignedStruct,
             std::string spelling);

private:
  std::vector<RecordField> fields_;
  int64_t size_;
  int64_t alignment_;
  bool alignedStruct_;
  std::string spelling_;
};

// Parses RecordType::str()'s spelling from the start of `text`, advancing it past the
// record; null if malformed.
const RecordType *parseRecordType(std::string_view &text);

// The type of a view of `array` with `ndim` dimensions: its element (scalar or record) and
// memory space, and `layout`.
Type viewTypeOf(const Type &array, unsigned ndim, Layout layout);

// The type of field `f` viewed through an array of records with `ndim` dimensions: its
// element kind (or record), with the field's own extents after the array's.
Type fieldViewType(const Type &records, const RecordField &f);

} // namespace kaji::ir
