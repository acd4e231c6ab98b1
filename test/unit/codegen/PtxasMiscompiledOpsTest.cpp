#include "kaji/codegen/PtxasMiscompiledOps.h"

#include <gtest/gtest.h>

using kaji::codegen::rewriteMiscompiledOpsForPtxas;

TEST(PtxasMiscompiledOps, NarrowMinMaxOfRegistersIsWidenedByTheOperandsSignedness) {
  std::string ptx = rewriteMiscompiledOpsForPtxas("\tmax.u16 \t%rs3, %rs2, %rs1;\n"
                                                  "\tmin.s16 \t%rs4, %rs3, %rs2;\n");
  EXPECT_EQ(ptx, "\t{\n\t.reg .b32 %kaji_left, %kaji_right, %kaji_wide;\n"
                 "\tcvt.u32.u16 %kaji_left, %rs2;\n\tcvt.u32.u16 %kaji_right, %rs1;\n"
                 "\tmax.u32 %kaji_wide, %kaji_left, %kaji_right;\n"
                 "\tcvt.u16.u32 %rs3, %kaji_wide;\n\t}\n"
                 "\t{\n\t.reg .b32 %kaji_left, %kaji_right, %kaji_wide;\n"
                 "\tcvt.s32.s16 %kaji_left, %rs3;\n\tcvt.s32.s16 %kaji_right, %rs2;\n"
                 "\tmin.s32 %kaji_wide, %kaji_left, %kaji_right;\n"
                 "\tcvt.u16.u32 %rs4, %kaji_wide;\n\t}\n");
}

TEST(PtxasMiscompiledOps, NarrowImmediatesKeepTheir16BitValue) {
  // LLVM prints the u16 40001 as -25535; as a u32 operand it is 40001, as an s32 one -25535.
  EXPECT_NE(rewriteMiscompiledOpsForPtxas("\tmax.u16 \t%rs3, %rs2, -25535;\n")
                .find("max.u32 %kaji_wide, %kaji_left, 40001;"),
            std::string::npos);
  EXPECT_NE(rewriteMiscompiledOpsForPtxas("\tmin.s16 \t%rs3, %rs2, -25535;\n")
                .find("min.s32 %kaji_wide, %kaji_left, -25535;"),
            std::string::npos);
  EXPECT_NE(rewriteMiscompiledOpsForPtxas("\tmin.s16 \t%rs3, %rs2, 65535;\n")
                .find("min.s32 %kaji_wide, %kaji_left, -1;"),
            std::string::npos);
}

TEST(PtxasMiscompiledOps, PackedAndWideMinMaxAreLeftAlone) {
  for (const char *line : {"\tmax.u16x2 \t%r3, %r2, %r1;\n", "\tmin.s32 \t%r3, %r2, %r1;\n",
                           "\tmax.u16 \t%rs3, %rs2;\n"})
    EXPECT_EQ(rewriteMiscompiledOpsForPtxas(line), line);
}
