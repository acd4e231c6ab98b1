// A GPU compile's CompiledModule record: compile() fills it from the IR (entry names, cooperative
// launch, recursion, the exception table numbered as the backends number it), and the disk
// cache's serialized form gives back the same record, whatever the strings hold, and refuses
// any other text.
#include "kaji/driver/CompiledModule.h"
#include "kaji/driver/Compiler.h"
#include "kaji/frontend/Environment.h"
#include "kaji/frontend/Signature.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

using namespace kaji;

namespace {

driver::CompiledModule compileKernel(const std::string &text, bool debug, bool boundsCheck = false,
                                     driver::Backend backend = driver::Backend::LLVM,
                                     const std::string &kernel = "kernel") {
  frontend::SourceFile source{std::make_shared<const std::string>("table.py"), text, 1};
  driver::CompileRequest request;
  request.debug = debug;
  request.backend = backend;
  request.ptx.boundsCheck = boundsCheck;
  ir::Location where{source.name, 1, 1};
  auto module = driver::parse(source);
  request.kernels.push_back(
      {driver::findFunction(module, kernel, frontend::environmentFromModule(module)),
       frontend::parseSignature("void(int64[:])", where).params,
       {}});
  return driver::compile(request);
}

constexpr const char *kKernel = "def kernel(a):\n"
                                "    if a[0] < 0:\n"
                                "        raise ValueError(\"tab\\there\\nnew line \\\\ back\")\n"
                                "    assert a[1] == 0\n";

TEST(CompiledModule, CarriesTheExceptionTableInOrder) {
  driver::CompiledModule compiled = compileKernel(kKernel, true);
  const std::vector<driver::ReportedException> &table = compiled.exceptions;
  ASSERT_EQ(table.size(), 2u);
  EXPECT_EQ(table[0].site, "table.py:3:9: in 'kernel'");
  EXPECT_EQ(table[0].exception, "ValueError: tab\there\nnew line \\ back");
  EXPECT_EQ(table[1].site, "table.py:4:5: in 'kernel'");
  EXPECT_EQ(table[1].exception, "AssertionError");
  EXPECT_FALSE(table[1].indexError);
  EXPECT_EQ(compiled.ptx.find("// kaji."), std::string::npos);
}

TEST(CompiledModule, BoundsCheckedAccessesAreIndexErrorEntriesInModuleOrder) {
  driver::CompiledModule compiled = compileKernel("def kernel(a):\n"
                                                  "    a[0] = a[1]\n",
                                                  false, true);
  const std::vector<driver::ReportedException> &table = compiled.exceptions;
  ASSERT_EQ(table.size(), 2u);
  EXPECT_EQ(table[0].site, "table.py:2:12: in 'kernel'");
  EXPECT_EQ(table[1].site, "table.py:2:5: in 'kernel'");
  for (const driver::ReportedException &entry : table) {
    EXPECT_EQ(entry.exception, "IndexError");
    EXPECT_TRUE(entry.indexError);
  }
}

TEST(CompiledModule, WithoutDebugTheCudaTargetReportsNothing) {
  driver::CompiledModule compiled = compileKernel(kKernel, false);
  EXPECT_TRUE(compiled.exceptions.empty());
  EXPECT_EQ(compiled.ptx.find("kaji_exception"), std::string::npos);
}

TEST(CompiledModule, NamesEachKernelsEntryCooperativeLaunchAndRecursion) {
  driver::CompiledModule plain = compileKernel("def kernel(a):\n"
                                               "    a[0] = 1\n",
                                               false);
  ASSERT_EQ(plain.kernels.size(), 1u);
  EXPECT_EQ(plain.kernels[0].entryName, "kernel");
  EXPECT_FALSE(plain.kernels[0].cooperative);
  EXPECT_TRUE(plain.kernels[0].recursiveFunctions.empty());

  driver::CompiledModule synchronizing = compileKernel("from kaji import cuda\n"
                                                       "def kernel(a):\n"
                                                       "    a[0] = 1\n"
                                                       "    cuda.cg.this_grid().sync()\n",
                                                       false);
  EXPECT_TRUE(synchronizing.kernels.at(0).cooperative);
}

TEST(CompiledModule, RecursiveDeviceFunctionsAreNamedWithTheirLine) {
  driver::CompiledModule compiled = compileKernel("from kaji import cuda\n"
                                                  "@cuda.jit(device=True)\n"
                                                  "def fact(n):\n"
                                                  "    return 1 if n <= 1 else n * fact(n - 1)\n"
                                                  "def kernel(a):\n"
                                                  "    a[0] = fact(a[1])\n",
                                                  false);
  ASSERT_EQ(compiled.kernels.size(), 1u);
  const std::vector<driver::RecursiveFunction> &recursive = compiled.kernels[0].recursiveFunctions;
  ASSERT_EQ(recursive.size(), 1u);
  EXPECT_TRUE(recursive[0].name.starts_with("fact")) << recursive[0].name; // its IR name
  EXPECT_EQ(recursive[0].line, 3u);
}

TEST(CompiledModule, NvrtcEntriesAreItsCppNames) {
  try {
    driver::CompiledModule compiled = compileKernel("def double(a):\n"
                                                    "    a[0] = 1\n",
                                                    false, false, driver::Backend::NVRTC, "double");
    EXPECT_EQ(compiled.kernels.at(0).entryName, "kaji_double");
  } catch (const std::runtime_error &unavailable) {
    GTEST_SKIP() << unavailable.what();
  }
}

// A kernel calling, directly and through a device function, a CUDA C++ function declared with
// link files (cuda.declare_device's link=), in an environment that declares another it never
// calls.
driver::CompiledModule compileCallingDeclared() {
  frontend::SourceFile source{std::make_shared<const std::string>("linked.py"),
                              "from kaji import cuda\n"
                              "@cuda.jit(device=True)\n"
                              "def twice(x):\n"
                              "    return ops(x, x)\n"
                              "def kernel(a):\n"
                              "    a[0] = twice(a[0]) + ops(a[0], a[0])\n",
                              1};
  ir::Location where{source.name, 1, 1};
  auto module = driver::parse(source);
  std::shared_ptr<frontend::Environment> env = frontend::environmentFromModule(module);
  frontend::Signature binary = frontend::parseSignature("float32(float32, float32)", where);
  env->names.insert_or_assign(
      "ops", frontend::GlobalValue::external("ops", "ops", binary, {"ops.cu", "more.ptx"}));
  env->names.insert_or_assign(
      "unused", frontend::GlobalValue::external("unused", "unused", binary, {"unused.cu"}));
  driver::CompileRequest request;
  request.kernels.push_back({driver::findFunction(module, "kernel", env),
                             frontend::parseSignature("void(float32[:])", where).params,
                             {}});
  return driver::compile(request);
}

TEST(CompiledModule, NamesTheFilesOfTheCudaFunctionsItCallsOnce) {
  driver::CompiledModule compiled = compileCallingDeclared();
  EXPECT_EQ(compiled.linkFiles, (std::vector<std::string>{"ops.cu", "more.ptx"}));
}

driver::CompiledModule awkwardRecord() {
  driver::CompiledModule module;
  module.ptx = "//\n// Generated\n.version 8.5\nkernel\tx\n";
  module.kernels.push_back({"k\tone\\", true, {{"f\nnew", 7}, {"g", 12}}});
  module.kernels.push_back({"second", false, {}});
  module.exceptions.push_back({"a.py:1:2: in 'k'", "ValueError: x\\n\ty", false});
  module.exceptions.push_back({"a.py:3:4: in 'k'", "IndexError", true});
  module.linkFiles = {"/a dir/ops.cu", "tab\there.ptx"};
  return module;
}

TEST(CompiledModule, SerializedRecordReadsBackTheSame) {
  driver::CompiledModule module = awkwardRecord();
  std::optional<driver::CompiledModule> read =
      driver::deserializeCompiledModule(driver::serializeCompiledModule(module), 2);
  ASSERT_TRUE(read);
  EXPECT_EQ(read->ptx, module.ptx);
  EXPECT_EQ(read->kernels, module.kernels);
  EXPECT_EQ(read->exceptions, module.exceptions);
  EXPECT_EQ(read->linkFiles, module.linkFiles);
  EXPECT_TRUE(read->fromDiskCache);
}

TEST(CompiledModule, SerializedLtoIrReadsBackTheSame) {
  driver::CompiledModule module = awkwardRecord();
  module.ptx.clear();
  // Binary: a NUL, a newline and a byte above 0x7f inside.
  static constexpr char bytes[] = "\x7f"
                                  "LTO\0ptx\n\xff\nbinary";
  module.ltoIr = std::string(bytes, sizeof bytes - 1);
  std::optional<driver::CompiledModule> read =
      driver::deserializeCompiledModule(driver::serializeCompiledModule(module), 2);
  ASSERT_TRUE(read);
  EXPECT_EQ(read->ltoIr, module.ltoIr);
  EXPECT_TRUE(read->ptx.empty());
  EXPECT_EQ(read->kernels, module.kernels);
  EXPECT_EQ(read->linkFiles, module.linkFiles);
}

// A small kernel to compile with lto by `backend`, with its source for the disk cache key.
driver::CompileRequest ltoRequest(driver::Backend backend) {
  frontend::SourceFile source{std::make_shared<const std::string>("lto.py"),
                              "def kernel(a):\n    a[0] = a[1] * 2\n", 1};
  auto module = driver::parse(source);
  driver::CompileRequest request;
  request.backend = backend;
  request.lto = true;
  request.kernels.push_back(
      {driver::findFunction(module, "kernel", frontend::environmentFromModule(module)),
       frontend::parseSignature("void(int64[:])", ir::Location{source.name, 1, 1}).params,
       {}});
  request.sources.push_back(source);
  return request;
}

driver::CompiledModule compileWithLto(driver::Backend backend) {
  return driver::compile(ltoRequest(backend));
}

TEST(CompiledModule, TheDiskCacheKeyTellsLtoApart) {
  driver::CompileRequest request = ltoRequest(driver::Backend::NVRTC);
  std::string withLto = driver::cacheKey(request).digest();
  request.lto = false;
  EXPECT_NE(driver::cacheKey(request).digest(), withLto);
}

TEST(CompiledModule, WithLtoTheNvrtcBackendMakesLtoIrInsteadOfPtx) {
  try {
    driver::CompiledModule compiled = compileWithLto(driver::Backend::NVRTC);
    EXPECT_TRUE(compiled.ptx.empty());
    EXPECT_FALSE(compiled.ltoIr.empty());
    EXPECT_EQ(compiled.ltoIr.find(".visible .entry"), std::string::npos); // not PTX
    EXPECT_EQ(compiled.kernels.at(0).entryName, "kernel");
  } catch (const std::runtime_error &unavailable) {
    GTEST_SKIP() << unavailable.what();
  }
}

TEST(CompiledModule, TheLlvmBackendRefusesLto) {
  try {
    compileWithLto(driver::Backend::LLVM);
    FAIL() << "no exception";
  } catch (const std::invalid_argument &error) {
    EXPECT_NE(std::string(error.what()).find("nvrtc backend"), std::string::npos) << error.what();
  }
}

TEST(CompiledModule, OtherTextIsNotARecord) {
  std::string text = driver::serializeCompiledModule(awkwardRecord());
  EXPECT_FALSE(driver::deserializeCompiledModule(text, 1)); // another kernel count
  EXPECT_FALSE(driver::deserializeCompiledModule("", 0));
  EXPECT_FALSE(driver::deserializeCompiledModule("kernel\n\n.version 8.5\n", 1));
  // Cut anywhere before the PTX, the record is refused rather than misread.
  size_t ptxAt = text.find("ptx\n");
  for (size_t cut = 0; cut < ptxAt; ++cut)
    EXPECT_FALSE(driver::deserializeCompiledModule(text.substr(0, cut), 2)) << cut;
  std::string badFlag = text;
  badFlag.replace(badFlag.find("\t1\n"), 3, "\t2\n");
  EXPECT_FALSE(driver::deserializeCompiledModule(badFlag, 2));
  std::string badEscape = text;
  badEscape.replace(badEscape.find("\\\\"), 2, "\\q");
  EXPECT_FALSE(driver::deserializeCompiledModule(badEscape, 2));
}

} // namespace
