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

TEST(PtxasMiscompiledOps, F32ComparesWithNonPositiveImmediatesTestTheOperandForNaN) {
  EXPECT_EQ(rewriteMiscompiledOpsForPtxas("\tsetp.gt.f32 \t%p1, %f2, 0fBF800000;\n"),
            "\t{\n\t.reg .pred %kaji_nan_test;\n\tsetp.num.f32 %kaji_nan_test, %f2, %f2;\n"
            "\tsetp.gt.and.f32 %p1, %f2, 0fBF800000, %kaji_nan_test;\n\t}\n");
  EXPECT_EQ(rewriteMiscompiledOpsForPtxas("\tsetp.leu.ftz.f32 \t%p1, %f2, 0f80000000;\n"),
            "\t{\n\t.reg .pred %kaji_nan_test;\n\tsetp.nan.ftz.f32 %kaji_nan_test, %f2, %f2;\n"
            "\tsetp.leu.or.ftz.f32 %p1, %f2, 0f80000000, %kaji_nan_test;\n\t}\n");
  EXPECT_NE(rewriteMiscompiledOpsForPtxas("\tsetp.ge.f32 \t%p3, %f1, 0f00000000;\n")
                .find("setp.ge.and.f32 %p3, %f1, 0f00000000, %kaji_nan_test;"),
            std::string::npos);
}

TEST(PtxasMiscompiledOps, ComparesPtxasFoldsRightAreLeftAlone) {
  for (const char *line :
       {"\tsetp.gt.f32 \t%p1, %f2, 0f3F800000;\n", "\tsetp.lt.f32 \t%p1, %f2, 0fBF800000;\n",
        "\tsetp.gtu.f32 \t%p1, %f2, 0fBF800000;\n", "\tsetp.gt.f32 \t%p1, %f2, %f3;\n",
        "\tsetp.gt.f32 \t%p1, %f2, 0fFFC00000;\n",
        "\tsetp.gt.f64 \t%p1, %fd2, 0dBFF0000000000000;\n",
        "\tsetp.gt.and.f32 \t%p1, %f2, 0fBF800000, %p2;\n"})
    EXPECT_EQ(rewriteMiscompiledOpsForPtxas(line), line);
}

TEST(PtxasMiscompiledOps, UnroundedFloatOpsGetRoundToNearest) {
  EXPECT_EQ(kaji::codegen::roundUnroundedFloatOps("\tmul.f32 \t%f2, %f1, %f1;\n"
                                                  "\tmul.f32 \t%f3, %f2, 0f3F000000;\n"
                                                  "\t@%p1 add.f64 \t%fd2, %fd1, %fd1;\n"
                                                  "\tsub.rz.f32 \t%f4, %f3, %f1;\n"
                                                  "\tmul.ftz.f32 \t%f5, %f4, %f1;\n"
                                                  "\tmul.lo.s32 \t%r2, %r1, %r1;\n"
                                                  "\tadd.f16 %rs9, %rs6, %rs11;\n"),
            "\tmul.rn.f32 \t%f2, %f1, %f1;\n"
            "\tmul.rn.f32 \t%f3, %f2, 0f3F000000;\n"
            "\t@%p1 add.rn.f64 \t%fd2, %fd1, %fd1;\n"
            "\tsub.rz.f32 \t%f4, %f3, %f1;\n"
            "\tmul.ftz.f32 \t%f5, %f4, %f1;\n"
            "\tmul.lo.s32 \t%r2, %r1, %r1;\n"
            "\tadd.rn.f16 \t%rs9, %rs6, %rs11;\n");
}

TEST(PtxasMiscompiledOps, AMultiplyReadOnlyByAddsStaysFusible) {
  std::string fusible = "\tmul.f64 \t%fd8, %fd6, %fd7;\n"
                        "\tsub.f64 \t%fd9, %fd5, %fd8;\n"
                        "\tst.global.f64 \t[%rd5+8], %fd9;\n";
  EXPECT_EQ(kaji::codegen::roundUnroundedFloatOps(fusible), fusible);
  // Read by a store too (as one lane of a vector), it is rounded, and so is the add.
  EXPECT_EQ(kaji::codegen::roundUnroundedFloatOps("\tmul.f64 \t%fd8, %fd6, %fd7;\n"
                                                  "\tadd.f64 \t%fd9, %fd5, %fd8;\n"
                                                  "\tst.global.v2.f64 \t[%rd5], {%fd8, %fd9};\n"),
            "\tmul.rn.f64 \t%fd8, %fd6, %fd7;\n"
            "\tadd.rn.f64 \t%fd9, %fd5, %fd8;\n"
            "\tst.global.v2.f64 \t[%rd5], {%fd8, %fd9};\n");
}

TEST(PtxasMiscompiledOps, RegistersAreNamedAnewInEachFunction) {
  std::string ptx = ".visible .entry a()\n{\n\tmul.f32 \t%f2, %f1, %f1;\n"
                    "\tadd.f32 \t%f3, %f2, %f1;\n}\n"
                    ".visible .entry b()\n{\n\tmul.f32 \t%f2, %f1, %f1;\n"
                    "\tst.global.f32 \t[%rd1], %f2;\n}\n";
  std::string rounded = kaji::codegen::roundUnroundedFloatOps(ptx);
  EXPECT_NE(rounded.find("\tmul.f32 \t%f2, %f1, %f1;\n\tadd.f32"), std::string::npos);
  EXPECT_NE(rounded.find("\tmul.rn.f32 \t%f2, %f1, %f1;\n\tst.global"), std::string::npos);
}
