// Every function of the libdevice table compiles: for NVPTX as calls of __nv_NAME that
// libdevice resolves (the PTX assembles), for the host as the C library's function, kaji's own
// lowering, or a CompileError naming the function.
#include "CodegenTestSupport.h"
#include "CpuTestSupport.h"

#include "kaji/ir/Libdevice.h"

#include <gtest/gtest.h>

using namespace kaji;
using namespace kaji::codegen;
using namespace kaji::codegen::test;

namespace {

// `kernel @NAME(%p0: T0, ..., %out0: array<V0, 1, C>, ...)` storing each value of `function`
// of its parameters.
std::string kernelCalling(const ir::LibdeviceFunction &function) {
  std::string params, body;
  for (size_t i = 0; i < function.parameters.size(); ++i)
    params += (i ? ", %p" : "%p") + std::to_string(i) + ": " +
              std::string(ir::irName(function.parameters[i]));
  std::string arguments;
  for (size_t i = 0; i < function.parameters.size(); ++i)
    arguments += (i ? ", %p" : "%p") + std::to_string(i);
  for (size_t v = 0; v < function.valueCount(); ++v) {
    std::string type(ir::irName(function.valueKind(v)));
    std::string value = "%v" + std::to_string(v);
    params += ", %out" + std::to_string(v) + ": array<" + type + ", 1, C>";
    body += "  " + value + " = libdevice " + ir::libdeviceSelection(function, v) + "(" + arguments +
            ") : " + type + "\n  store " + value + ", %out" + std::to_string(v) + "[%zero]\n";
  }
  return "kernel @" + std::string(function.name) + "(" + params +
         ") {\n^bb0:\n  %zero = const 0 : i64\n" + body + "  ret\n}\n";
}

std::string moduleCallingAll(bool withHostImplementation) {
  std::string text;
  for (std::string_view name : ir::libdeviceFunctionNames()) {
    const ir::LibdeviceFunction &function = *ir::findLibdeviceFunction(name);
    if ((function.host != ir::LibdeviceHost::None) == withHostImplementation)
      text += kernelCalling(function);
  }
  return text;
}

TEST(Libdevice, EveryFunctionAssemblesForTheGpu) {
  if (findLibdevice().empty())
    GTEST_SKIP() << "libdevice not found";
  std::string text = moduleCallingAll(true) + moduleCallingAll(false);
  std::unique_ptr<ir::Module> module =
      ir::parseIR(text, std::make_shared<const std::string>("libdevice.kir"));
  ir::verify(*module);
  std::string ptx = emitPTX(*module, PTXOptions{});
  EXPECT_EQ(ptx.find("__nv_"), std::string::npos) << "libdevice must be inlined";
  expectPTXAssembles(ptx);
}

TEST(Libdevice, EveryFunctionWithAHostImplementationLinksOnTheHost) {
  for (std::string_view name : ir::libdeviceFunctionNames()) {
    const ir::LibdeviceFunction &function = *ir::findLibdeviceFunction(name);
    if (function.host != ir::LibdeviceHost::None) {
      EXPECT_NO_THROW(compileCpuText(kernelCalling(function), name)) << name;
    }
  }
}

TEST(Libdevice, AFunctionWithoutOneIsAnErrorNamingIt) {
  const ir::LibdeviceFunction &function = *ir::findLibdeviceFunction("dadd_rd");
  ASSERT_EQ(function.host, ir::LibdeviceHost::None);
  try {
    compileCpuText(kernelCalling(function), "dadd_rd");
    FAIL() << "compiled";
  } catch (const ir::CompileError &error) {
    EXPECT_NE(std::string(error.what())
                  .find("cuda.libdevice.dadd_rd has no implementation on "
                        "the cpu target"),
              std::string::npos)
        << error.what();
  }
}

TEST(Libdevice, SignaturesAreNumbas) {
  const ir::LibdeviceFunction &frexp = *ir::findLibdeviceFunction("frexpf");
  EXPECT_EQ(frexp.parameters, std::vector{ir::ScalarKind::Float32});
  EXPECT_EQ(frexp.valueKind(0), ir::ScalarKind::Float32);
  EXPECT_EQ(frexp.valueKind(1), ir::ScalarKind::Int32);
  const ir::LibdeviceFunction &sincos = *ir::findLibdeviceFunction("sincos");
  EXPECT_FALSE(sincos.result);
  EXPECT_EQ(sincos.valueCount(), 2u);
  EXPECT_EQ(ir::findLibdeviceFunction("popcll")->parameters, std::vector{ir::ScalarKind::Int64});
  EXPECT_EQ(ir::findLibdeviceFunction("nan"), nullptr); // takes a pointer input
}

} // namespace
