// A GPU module's exception table travels in its PTX as comments: compile() writes it, and
// readExceptionTable gives back each raise's site and exception (and, bounds-checked, each
// array access's), numbered as the backends number them, whatever the message holds.
#include "kaji/driver/KernelExceptions.h"
#include "kaji/driver/Compiler.h"
#include "kaji/frontend/Signature.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

using namespace kaji;

namespace {

driver::CompiledModule compileKernel(const std::string &text, bool debug,
                                     bool boundsCheck = false) {
  frontend::SourceFile source{std::make_shared<const std::string>("table.py"), text, 1};
  driver::CompileRequest request;
  request.debug = debug;
  request.ptx.boundsCheck = boundsCheck;
  ir::Location where{source.name, 1, 1};
  request.kernels.push_back({driver::findFunction(driver::parse(source), "kernel", nullptr),
                             frontend::parseSignature("void(int64[:])", where).params,
                             {}});
  return driver::compile(request);
}

constexpr const char *kKernel = "def kernel(a):\n"
                                "    if a[0] < 0:\n"
                                "        raise ValueError(\"tab\\there\\nnew line \\\\ back\")\n"
                                "    assert a[1] == 0\n";

TEST(KernelExceptions, CompiledPtxCarriesTheTableInOrder) {
  driver::CompiledModule compiled = compileKernel(kKernel, true);
  std::vector<driver::ReportedException> table = driver::readExceptionTable(compiled.ptx);
  ASSERT_EQ(table.size(), 2u);
  EXPECT_EQ(table[0].site, "table.py:3:9: in 'kernel'");
  EXPECT_EQ(table[0].exception, "ValueError: tab\there\nnew line \\ back");
  EXPECT_EQ(table[1].site, "table.py:4:5: in 'kernel'");
  EXPECT_EQ(table[1].exception, "AssertionError");
  EXPECT_FALSE(table[1].indexError);
}

TEST(KernelExceptions, BoundsCheckedAccessesAreIndexErrorEntriesInModuleOrder) {
  driver::CompiledModule compiled = compileKernel("def kernel(a):\n"
                                                  "    a[0] = a[1]\n",
                                                  false, true);
  std::vector<driver::ReportedException> table = driver::readExceptionTable(compiled.ptx);
  ASSERT_EQ(table.size(), 2u);
  EXPECT_EQ(table[0].site, "table.py:2:12: in 'kernel'");
  EXPECT_EQ(table[1].site, "table.py:2:5: in 'kernel'");
  for (const driver::ReportedException &entry : table) {
    EXPECT_EQ(entry.exception, "IndexError");
    EXPECT_TRUE(entry.indexError);
  }
}

TEST(KernelExceptions, WithoutDebugTheCudaTargetReportsNothing) {
  driver::CompiledModule compiled = compileKernel(kKernel, false);
  EXPECT_TRUE(driver::readExceptionTable(compiled.ptx).empty());
  EXPECT_EQ(compiled.ptx.find("kaji_exception"), std::string::npos);
}

} // namespace
