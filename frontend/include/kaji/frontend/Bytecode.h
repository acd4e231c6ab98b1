// Kernels without source text (defined by exec(), `python -c` or the plain REPL): the
// function's code object, as the interpreter that compiled it decoded it, translated back
// into the AST the parser would have produced. See docs/python.md, "Kernels without source
// text".
#pragma once

#include "kaji/frontend/AST.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace kaji::frontend {

// One entry of co_consts.
struct BytecodeConstant {
  enum class Kind : uint8_t { None, Bool, Int, Float, Complex, String, Tuple, Unsupported };
  Kind kind = Kind::None;
  bool negative = false;                  // Int
  uint64_t magnitude = 0;                 // Int (its absolute value), Bool (0 or 1)
  double floatValue = 0;                  // Float; Complex: the real part
  double imagValue = 0;                   // Complex: the imaginary part
  std::string text;                       // String; Unsupported: the Python type's name
  std::vector<BytecodeConstant> elements; // Tuple
};

// One instruction as `dis.get_instructions` gives it (no caches, EXTENDED_ARG folded in).
struct BytecodeInstruction {
  unsigned offset = 0;
  std::string opname;
  int64_t arg = 0;
  std::string argText;     // the name or operator it refers to ("x", "<", "+="); a complex
                           // constant's parts, each as repr() writes a float ("-0.0 -1.0")
  int64_t jumpTarget = -1; // the offset a jump goes to
  unsigned line = 0;       // 0: the interpreter recorded none
  unsigned column = 0;     // 1-based; 0: none
};

struct CodeObject {
  unsigned pythonMinor = 0; // the CPython 3.x that compiled it: 11 or 12
  std::string name;
  std::string fileName;
  unsigned firstLine = 0;
  unsigned argCount = 0;
  std::vector<std::string> varNames; // parameters first
  std::vector<std::string> cellVars; // locals a nested function captures
  std::vector<BytecodeConstant> constants;
  std::vector<BytecodeConstant> defaults; // of the last parameters (__defaults__)
  std::vector<BytecodeInstruction> instructions;
  bool hasExceptionTable = false; // try/with
};

// A module holding the one `def` the code object compiles. Throws ir::CompileError, at the
// code's line, for a construct the translation does not recover (naming it, and telling the
// user to define the kernel in a file), and for a Python version it does not know.
std::shared_ptr<Module> translateBytecode(const CodeObject &code);

} // namespace kaji::frontend
