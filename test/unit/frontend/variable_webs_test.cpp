// A variable rebound to a value of another type where no read sees both is two variables, each
// with its own type (VariableWebs.h), observed through the types localVariableTypes reports.
#include "lowering_test_support.h"

namespace kaji::frontend::test {
namespace {

// "name: type" of each variable of kernel `k`, in name order.
std::string variableTypes(const std::string &source, const std::string &signature) {
  SourceFile file;
  file.name = std::make_shared<const std::string>("k.py");
  file.text = source;
  std::shared_ptr<const Module> module = parseModule(file);
  for (const StmtPtr &stmt : module->body)
    if (auto *def = stmt->as<FunctionDefStmt>(); def && def->name == "k") {
      std::string text;
      for (const auto &[name, type] :
           localVariableTypes(FunctionRef{module, def, environmentFromModule(module), false, {}},
                              parseSignature(signature, {}).params, ir::Function::Kind::Kernel))
        text += (text.empty() ? "" : ", ") + name + ": " + type;
      return text;
    }
  ADD_FAILURE() << "no function k";
  return "";
}

TEST(VariableWebs, AParameterReshapedInALoopIsTwoVariables) {
  EXPECT_EQ(variableTypes("def k(out, arr):\n"
                          "    for i in range(1):\n"
                          "        arr = arr.reshape(6)\n"
                          "        arr = arr.reshape(3, 2)\n"
                          "    out[0] = arr[0, 0]\n",
                          "void(float64[:], float64[:, ::1])"),
            "arr: float64[:, ::1], arr.1: float64[::1], i: int64, out: float64[:]");
}

TEST(VariableWebs, ALoopCounterReboundToAnArrayIsTwoVariables) {
  EXPECT_EQ(variableTypes("def k(out, m):\n"
                          "    for t in range(m):\n"
                          "        t = out\n"
                          "        t[0] += 1\n",
                          "void(float64[:], int64)"),
            "m: int64, out: float64[:], t: int64, t.1: float64[:]");
}

TEST(VariableWebs, AssignmentsOneReadSeesShareAType) {
  EXPECT_EQ(variableTypes("def k(out, flag):\n"
                          "    x = 1\n"
                          "    if flag:\n"
                          "        x = 2.5\n"
                          "    out[0] = x\n",
                          "void(float64[:], bool)"),
            "flag: bool, out: float64[:], x: float64");
}

TEST(VariableWebs, AnAugmentedAssignmentJoinsTheWebItReads) {
  EXPECT_EQ(variableTypes("def k(out):\n"
                          "    s = 1\n"
                          "    s += 0.5\n"
                          "    out[0] = s\n",
                          "void(float64[:])"),
            "out: float64[:], s: float64");
}

TEST(VariableWebs, BreaksAndContinuesCarryTheirAssignmentsOut) {
  EXPECT_EQ(variableTypes("def k(out, n):\n"
                          "    x = 0\n"
                          "    while x < n:\n"
                          "        x += 1\n"
                          "        if x > 3:\n"
                          "            x = 0.5\n"
                          "            break\n"
                          "        if x > 2:\n"
                          "            x = 1.5\n"
                          "            continue\n"
                          "    out[0] = x\n"
                          "    x = out\n"
                          "    x[1] = 2.0\n",
                          "void(float64[:], int64)"),
            "n: int64, out: float64[:], x: float64, x.1: float64[:]");
}

TEST(VariableWebs, AnAnnotatedVariableStaysWhole) {
  EXPECT_EQ(loweringError("def k(out):\n"
                          "    x: float64 = 1.0\n"
                          "    out[0] = x\n"
                          "    x = out\n"
                          "    x[0] = 2.0\n",
                          "void(float64[:])"),
            "4:5: variable 'x' is assigned both 'float64' and 'float64[:]'; a variable has one "
            "type");
}

} // namespace
} // namespace kaji::frontend::test
