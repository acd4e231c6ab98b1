// Bad input is reported as an error, never a crash.
#include "CodegenTestSupport.h"

#include "kaji/codegen/llvm/FatalErrors.h"
#include "kaji/ir/Verifier.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <stdexcept>
#include <unistd.h>

using namespace kaji;
using namespace kaji::codegen;
using namespace kaji::codegen::test;

namespace {

ir::Location lineSeven() {
  return ir::Location{std::make_shared<const std::string>("kernel.py"), 7, 5};
}

template <class Exception> std::string messageOf(const std::function<void()> &action) {
  try {
    action();
  } catch (const Exception &error) {
    return error.what();
  }
  ADD_FAILURE() << "no exception thrown";
  return {};
}

} // namespace

// The verifier is the one place that checks an operation: the backends lower only verified
// IR (the driver verifies every module first) and assert what it guarantees, so a call to
// a function the module lacks is the verifier's error, at the call.
TEST(Errors, CallToUnknownFunctionIsAVerifierError) {
  ir::Module module;
  auto [function, b] = addFunction(module, "k", ir::Function::Kind::Kernel, {}, {});
  b.setLocation(lineSeven());
  b.create(ir::Opcode::Call, ir::Type(), {}, std::string("missing"));
  b.ret();
  try {
    ir::verify(module);
    ADD_FAILURE() << "the verifier accepted a call to an unknown function";
  } catch (const ir::CompileError &error) {
    EXPECT_EQ(std::string(error.what()), "'call' calls unknown function @missing");
    EXPECT_EQ(error.location().line, 7u);
    EXPECT_EQ(error.location().col, 5u);
  }
}

// The verifier rejects a block without a terminator (VerifierTest); the lowering trusts
// verified IR, and LLVM's own verifier still refuses what it makes of such a block.
TEST(Errors, UnverifiedBlockWithoutTerminatorIsRefused) {
  ir::Module module;
  auto [function, b] = addFunction(module, "k", ir::Function::Kind::Kernel, {}, {});
  b.intConstant(kI32, 1);
  std::string message = messageOf<std::runtime_error>([&] { emitLLVMIR(module, PTXOptions{}); });
  EXPECT_NE(message.find("terminator"), std::string::npos) << message;
}

TEST(Errors, UnknownArchitectureNamesTheKnownOnes) {
  ir::Module module;
  addSaxpy(module);
  for (const char *arch : {"sm_9000", "compute_90", "sm_", "gfx90a"}) {
    PTXOptions options;
    options.arch = arch;
    std::string message = messageOf<std::runtime_error>([&] { emitPTX(module, options); });
    EXPECT_NE(message.find(arch), std::string::npos) << message;
    EXPECT_NE(message.find("sm_90"), std::string::npos) << message;
  }
}

// What the driver sends to the nvrtc backend instead: GPUs after LLVM 19's newest, sm_90a.
TEST(Errors, ArchitecturesNewerThanLLVMKnowsAreTold) {
  for (const char *arch : {"sm_91", "sm_100", "sm_100a", "sm_103f", "sm_120", "sm_9000"})
    EXPECT_TRUE(isNewerThanNVPTXKnows(arch)) << arch;
  for (const char *arch : {"sm_90", "sm_90a", "sm_75", "compute_100", "sm_", "sm_1x0", "sm_12345"})
    EXPECT_FALSE(isNewerThanNVPTXKnows(arch)) << arch;
}

TEST(Errors, OptimisationLevelOutOfRange) {
  ir::Module module;
  addSaxpy(module);
  PTXOptions options;
  options.optLevel = 4;
  std::string message = messageOf<std::runtime_error>([&] { emitPTX(module, options); });
  EXPECT_NE(message.find("4"), std::string::npos) << message;
}

TEST(Errors, OtherArchitecturesCompile) {
  ir::Module module;
  addSaxpy(module);
  PTXOptions options;
  options.arch = "sm_80";
  EXPECT_NE(emitPTX(module, options).find(".target sm_80"), std::string::npos);
}

// The frontend rejects the builtins an architecture lacks (GpuBuiltins.cpp); IR that still
// asks for one makes LLVM's instruction selection call report_fatal_error, which must throw
// rather than abort the process.
TEST(Errors, LLVMFatalErrorIsABackendError) {
  installFatalErrorHandlers();
  ir::Module module;
  ir::Type u32 = scalar(ir::ScalarKind::UInt32);
  auto [function, b] = addFunction(module, "k", ir::Function::Kind::Kernel,
                                   {ir::Type::array(ir::ScalarKind::UInt32, 1)}, {"out"});
  ir::Value *zero = b.intConstant(kI64, 0);
  ir::Value *lanes = b.intConstant(u32, int64_t(0xffffffff));
  ir::Value *value = load(b, function->entry()->argument(0), {zero});
  ir::Value *peers =
      b.create(ir::Opcode::Warp, u32, {lanes, value}, ir::WarpCollectiveKind::MatchAny)->result();
  store(b, peers, function->entry()->argument(0), {zero});
  b.ret();
  PTXOptions options;
  options.arch = "sm_60";
  std::string message = messageOf<BackendError>([&] { emitPTX(module, options); });
  EXPECT_NE(message.find("match.any.sync"), std::string::npos) << message;
}

TEST(Libdevice, FoundThroughCudaHome) {
  std::filesystem::path root =
      std::filesystem::temp_directory_path() / ("kaji_cuda_home_" + std::to_string(getpid()));
  std::filesystem::create_directories(root / "nvvm" / "libdevice");
  std::ofstream(root / "nvvm" / "libdevice" / "libdevice.10.bc") << "x";
  const char *previous = std::getenv("CUDA_HOME");
  std::string saved = previous ? previous : "";
  setenv("CUDA_HOME", root.c_str(), 1);
  std::string found = findLibdevice();
  if (previous)
    setenv("CUDA_HOME", saved.c_str(), 1);
  else
    unsetenv("CUDA_HOME");
  std::filesystem::remove_all(root);
  EXPECT_EQ(found, (root / "nvvm" / "libdevice" / "libdevice.10.bc").string());
}
