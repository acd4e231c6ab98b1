// The kernel language in text, for the Python API: compile errors rendered against their
// source, the spellings of types and signatures, and the names of the function families
// kernels call (cuda.libdevice, cuda.fp16, cuda.bf16). The binding reaches the frontend
// through these and never calls it itself.
#pragma once

#include "kaji/driver/FunctionSource.h"
#include "kaji/frontend/ConversionRating.h"
#include "kaji/frontend/Signature.h"
#include "kaji/frontend/Source.h"
#include "kaji/ir/Location.h"
#include "kaji/ir/Type.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kaji::driver {

// `error` as `file:line:col: error: message`, then the source line and a caret: the line is
// looked up in `sources`, else read from the file, else left out.
std::string renderDiagnostic(const ir::CompileError &error,
                             const std::vector<const frontend::SourceFile *> &sources);

// The signature `source.text` ("void(float32[:], float32)", "(array(float32, 1d, A)) -> none");
// a kernel's must return void and take no vectors. Throws ir::CompileError pointing into
// `source`.
frontend::Signature parseSignature(const frontend::SourceFile &source, bool kernel);
// One type as a signature spells it ("float32[:, ::1]"); throws ir::CompileError.
ir::Type parseType(std::string_view text);
std::string typeString(const ir::Type &type);
std::string signatureString(const frontend::Signature &signature);
std::vector<std::string> parameterStrings(const frontend::Signature &signature);

// The function's syntax tree as `kaji-compile --emit ast` prints it (parsed, or translated
// from its code object); throws ir::CompileError on a syntax error.
std::string syntaxTree(const FunctionSource &source);

// How a launch's argument of type `arg` becomes a kernel's eager parameter of type `param`,
// rated as Numba rates overloads, or nullopt when it does not: arrays of the same element type
// and rank and a layout the parameter allows; any number to a float or a complex number,
// integers to integers, bool to bool (a launch converts no float to an integer, as Numba's).
std::optional<frontend::Conversion> launchConversion(const ir::Type &param, const ir::Type &arg);

// A function of cuda.libdevice (libdevice's name without __nv_) in Numba's type names: its
// result ("void" for none), its parameters, and the values it writes through pointer
// parameters, which the Python function returns after its result.
struct LibdeviceSignature {
  std::string_view name;
  std::string_view result;
  std::vector<std::string_view> parameters;
  std::vector<std::string_view> outputs;
};
std::vector<LibdeviceSignature> libdeviceSignatures();
// The functions of cuda.fp16 (hadd, hsin, heq, __float2half_rz, ...), cuda.bf16 and kaji.fp8
// (cvt_float_to_fp8, ...).
const std::vector<std::string_view> &halfPrecisionFunctionNames();
const std::vector<std::string_view> &bfloat16FunctionNames();
const std::vector<std::string_view> &float8FunctionNames();

} // namespace kaji::driver
