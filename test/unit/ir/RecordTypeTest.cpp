#include "kaji/ir/RecordType.h"

#include <gtest/gtest.h>

using namespace kaji::ir;

namespace {

// numpy's np.dtype([('x', 'f8'), ('v', 'f4', 3), ('inner', [('p', 'i4')])], align=True).
const RecordType *sample() {
  const RecordType *inner = RecordType::get({{"p", 0, ScalarKind::Int32, nullptr, {}, {}}}, 4, 4);
  return RecordType::get({{"x", 0, ScalarKind::Float64, nullptr, {}, {}},
                          {"v", 8, ScalarKind::Float32, nullptr, {3}, {}},
                          {"inner", 20, ScalarKind::UInt8, inner, {}, {}}},
                         24, 8);
}

} // namespace

TEST(RecordType, EqualLayoutsAreOneRecord) {
  EXPECT_EQ(sample(), sample());
  EXPECT_EQ(Type::array(sample(), 1, Layout::C), Type::array(sample(), 1, Layout::C));
  EXPECT_NE(RecordType::get({{"x", 0, ScalarKind::Float64, nullptr, {}, {}}}, 8, 8),
            RecordType::get({{"y", 0, ScalarKind::Float64, nullptr, {}, {}}}, 8, 8));
}

TEST(RecordType, SpellingRoundTrips) {
  Type records = Type::array(sample(), 2, Layout::C, MemorySpace::Shared);
  EXPECT_EQ(records.str(), "array<record<24, align 8, x: f64 at 0, v: f32[3] at 8, inner: "
                           "record<4, align 4, p: i32 at 0> at 20>, 2, C, shared>");
  EXPECT_EQ(parseIRType(records.str()), records);
  EXPECT_EQ(records.elementSize(), 24u);
  EXPECT_EQ(parseIRType("array<record<8, align 4, x: f32 at>, 1, C>"), std::nullopt);
  EXPECT_EQ(parseIRType("array<record<8, align 4, x: f32 at 0>>"), std::nullopt);
}

TEST(RecordType, TitlesAndTheAlignedFlagMakeOtherRecords) {
  RecordField x{"x", 0, ScalarKind::Float32, nullptr, {}, {}};
  RecordField titled = x;
  titled.title = "the \"x\" \\ part";
  const RecordType *plain = RecordType::get({x}, 4, 4);
  const RecordType *aligned = RecordType::get({x}, 4, 4, true);
  const RecordType *withTitle = RecordType::get({titled}, 4, 4);
  EXPECT_NE(plain, aligned);
  EXPECT_NE(plain, withTitle);
  EXPECT_EQ(aligned->str(), "record<4, align 4, aligned, x: f32 at 0>");
  EXPECT_EQ(withTitle->str(), "record<4, align 4, x title \"the \\\"x\\\" \\\\ part\": f32 at 0>");
  for (const RecordType *record : {plain, aligned, withTitle}) {
    std::string_view text = record->str();
    EXPECT_EQ(parseRecordType(text), record);
  }
  // A first field whose name starts with the flag's word is a field.
  std::string_view field = "record<4, align 4, aligned_x: f32 at 0>";
  const RecordType *named = parseRecordType(field);
  ASSERT_NE(named, nullptr);
  EXPECT_FALSE(named->alignedStruct());
  EXPECT_EQ(named->fields().at(0).name, "aligned_x");
  std::string_view untitled = "record<4, align 4, x title \"\": f32 at 0>";
  EXPECT_EQ(parseRecordType(untitled), nullptr);
}

TEST(RecordType, FieldViews) {
  const RecordType &record = *sample();
  Type one = Type::array(sample(), 0, Layout::C);
  Type many = Type::array(sample(), 1, Layout::C);
  EXPECT_EQ(fieldViewType(one, *record.field("x")), Type::array(ScalarKind::Float64, 0, Layout::C));
  EXPECT_EQ(fieldViewType(many, *record.field("v")),
            Type::array(ScalarKind::Float32, 2, Layout::Any));
  EXPECT_EQ(fieldViewType(one, *record.field("inner")).record(), record.field("inner")->record);
  EXPECT_EQ(record.field("v")->strides(), std::vector<int64_t>{4});
  EXPECT_EQ(record.field("nope"), nullptr);
}

TEST(RecordType, Problems) {
  EXPECT_EQ(sample()->problem(), "");
  const RecordType *past = RecordType::get({{"x", 4, ScalarKind::Float64, nullptr, {}, {}}}, 8, 4);
  EXPECT_EQ(past->problem(), "field 'x' ends at byte 12, past the record's 8");
  const RecordType *holdsPast =
      RecordType::get({{"inner", 0, ScalarKind::UInt8, past, {}, {}}}, 8, 4);
  EXPECT_EQ(holdsPast->problem(),
            "in field 'inner': field 'x' ends at byte 12, past the record's 8");
  const RecordType *packed = RecordType::get({{"n", 0, ScalarKind::Int32, nullptr, {}, {}},
                                              {"x", 4, ScalarKind::Float64, nullptr, {}, {}}},
                                             12, 4);
  EXPECT_EQ(packed->accessProblem(*packed->field("n")), "");
  EXPECT_NE(packed->accessProblem(*packed->field("x")).find("needs 8-byte alignment"),
            std::string::npos);
}
