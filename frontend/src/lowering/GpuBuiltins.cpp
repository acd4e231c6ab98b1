// The GPU model's builtins: static arrays, atomics, fences, bit functions, the lane id.
#include "FunctionLowerer.h"

#include "kaji/frontend/Signature.h"
#include "kaji/ir/AtomicOperations.h"
#include "kaji/ir/OperationAttributes.h"
#include "kaji/ir/RecordType.h"

#include <charconv>
#include <functional>
#include <map>
#include <string_view>

namespace kaji::frontend {

using ir::ScalarKind;

namespace {

// A local array may be at most what a CUDA thread has in local memory; the whole of a thread's
// frames is checked against the same limit at launch on the cpu target (CpuExecutor).
constexpr int64_t kMaxLocalArrayBytes = 512 * 1024;
// What CUDA's constant memory holds.
constexpr int64_t kMaxConstantArrayBytes = 64 * 1024;

// The oldest GPU architecture (10 × major + minor) that has each builtin, for those LLVM 19's
// NVPTX backend cannot compile for every architecture it knows (sm_20 upwards) at kaji's PTX
// ISA 6.2 (NVPTXTargetMachine.cpp); found by compiling each builtin with `kaji-compile
// --arch` for sm_20 to sm_90. The builtins not named here compile for all of them: LLVM
// emulates what older GPUs lack (float64 atomics as a compare-and-swap loop, float16
// arithmetic in float32). docs/language.md lists the same table.
const std::map<std::string_view, unsigned> kMinimumArchitecture = {
    {"syncwarp", 30},      {"shfl_sync", 30},   {"shfl_up_sync", 30},   {"shfl_down_sync", 30},
    {"shfl_xor_sync", 30}, {"ballot_sync", 30}, {"all_sync", 30},       {"any_sync", 30},
    {"eq_sync", 30},       {"activemask", 30},  {"match_any_sync", 70}, {"match_all_sync", 70},
    {"nanosleep", 70}};

// 70 for "sm_70" and "sm_70a"; nothing for what is no architecture name (codegen reports it).
std::optional<unsigned> architectureNumber(std::string_view arch) {
  if (!arch.starts_with("sm_"))
    return std::nullopt;
  arch.remove_prefix(3);
  if (arch.ends_with('a'))
    arch.remove_suffix(1);
  unsigned number = 0;
  auto [end, error] = std::from_chars(arch.data(), arch.data() + arch.size(), number);
  if (error != std::errc() || end != arch.data() + arch.size())
    return std::nullopt;
  return number;
}

// Numba's names for the atomic operations on `element`s, to the IR's. Integers have no NaN:
// their nanmax is max.
std::string atomicKind(const std::string &operation, ScalarKind element) {
  if (operation == "and_" || operation == "or_")
    return operation.substr(0, operation.size() - 1);
  if ((operation == "nanmax" || operation == "nanmin") && !ir::isFloat(element))
    return operation.substr(3);
  return operation;
}

// Every array kernels make holds bytes: a record dtype without fields (np.dtype([])) has none.
void requireElementBytes(const ir::Type &array, const Location &loc, const std::string &what) {
  if (array.elementSize() == 0)
    throw ir::CompileError(loc, "a " + what +
                                    " of a record with no fields (0 bytes) holds "
                                    "nothing; give the record a field");
}

} // namespace

Operand FunctionLowerer::staticArray(const CallExpr &expr, bool shared) {
  std::string display = shared ? "kaji.shared.array()" : "kaji.local.array()";
  std::string what = shared ? "shared array" : "local array";
  const Expr *shapeExpr = expr.args.size() > 0 ? expr.args[0].get() : nullptr;
  const Expr *dtypeExpr = expr.args.size() > 1 ? expr.args[1].get() : nullptr;
  const Expr *alignmentExpr = expr.args.size() > 2 ? expr.args[2].get() : nullptr;
  for (const Keyword &kw : expr.keywords) {
    if (kw.name == "shape" && !shapeExpr)
      shapeExpr = kw.value.get();
    else if (kw.name == "dtype" && !dtypeExpr)
      dtypeExpr = kw.value.get();
    else if (kw.name == "alignment" && !alignmentExpr)
      alignmentExpr = kw.value.get();
    else
      throw ir::CompileError(kw.loc,
                             display + " got an unexpected keyword argument '" + kw.name + "'");
  }
  if (!shapeExpr || !dtypeExpr || expr.args.size() > 3)
    throw ir::CompileError(expr.loc, display + " takes a shape, a dtype and an alignment");
  Operand shape = lower(*shapeExpr);
  Operand dtype = lower(*dtypeExpr);
  std::vector<Operand> extents =
      shape.kind == Operand::Kind::Tuple ? shape.elements : std::vector<Operand>{shape};
  std::vector<int64_t> constantExtents;
  for (const Operand &extent : extents) {
    std::optional<int64_t> value = constantInt(extent);
    // A shared array of shape 0 (Numba's spelling) is the launch's dynamic shared memory.
    bool dynamic = shared && value == 0 && extents.size() == 1;
    if (value && (*value > 0 || dynamic)) {
      constantExtents.push_back(*value);
      continue;
    }
    std::string problem = "the shape of a " + what + " must be positive constant integers" +
                          (shared ? " (or 0 for dynamic shared memory)" : "") + ", not '" +
                          unparse(*shapeExpr) + "'";
    // A shape known only at run time: Numba's typing error, whose words its users look for.
    if (!value)
      problem = "No implementation of function Function(<function " +
                std::string(shared ? "shared" : "local") +
                ".array>) found for signature:\n \n >>> array(shape=" + numbaTypeName(shape) +
                ", dtype=" + numbaTypeName(dtype) + ")\n \n" + problem;
    throw ir::CompileError(shapeExpr->loc, problem);
  }
  // A numpy scalar type, a structured dtype, or a vector type (cuda.float32x4, as
  // numba-cuda-mlir allows).
  std::optional<ir::Type> element;
  if (dtype.kind == Operand::Kind::Builtin && dtype.name.starts_with("numpy."))
    if (std::optional<ScalarKind> kind = scalarKindFromNumpyName(dtype.name.substr(6)))
      element = ir::Type::scalar(*kind);
  if (dtype.kind == Operand::Kind::Builtin && dtype.name.starts_with("kaji."))
    element = vectorTypeNamed(dtype.name.substr(5));
  // A dtype's name as a string ("int32"), as numpy.dtype takes it; Numba's words for another.
  if (dtype.kind == Operand::Kind::String) {
    std::optional<ScalarKind> kind = scalarKindFromNumpyName(dtype.name);
    if (!kind)
      throw ir::CompileError(dtypeExpr->loc, "Invalid NumPy dtype specified: '" + dtype.name +
                                                 "' for the dtype of a " + what);
    element = ir::Type::scalar(*kind);
  }
  const ir::RecordType *record =
      dtype.kind == Operand::Kind::RecordType ? dtype.global->record : nullptr;
  if (!element && !record)
    throw ir::CompileError(dtypeExpr->loc, "the dtype of a " + what +
                                               " must be a numpy scalar type such as float32 "
                                               "(or its name), a structured (record) dtype or a "
                                               "vector type "
                                               "such as cuda.float32x4, not '" +
                                               unparse(*dtypeExpr) + "'");
  ir::MemorySpace space = shared ? ir::MemorySpace::Shared : ir::MemorySpace::Local;
  unsigned ndim = unsigned(constantExtents.size());
  ir::Type type = record ? ir::Type::array(record, ndim, ir::Layout::C, space)
                         : ir::Type::arrayOf(*element, ndim, ir::Layout::C, space);
  requireElementBytes(type, dtypeExpr->loc, what);
  if (!shared) {
    int64_t bytes = type.elementSize();
    for (int64_t extent : constantExtents)
      bytes = extent > kMaxLocalArrayBytes / bytes ? kMaxLocalArrayBytes + 1 : bytes * extent;
    if (bytes > kMaxLocalArrayBytes)
      throw ir::CompileError(shapeExpr->loc, "a local array of shape " + unparse(*shapeExpr) +
                                                 " is over kaji's limit of " +
                                                 std::to_string(kMaxLocalArrayBytes) +
                                                 " bytes per thread; use a shared or global "
                                                 "array");
  }
  int64_t alignment = alignmentExpr ? arrayAlignment(*alignmentExpr, type) : 0;
  if (shared && constantExtents == std::vector<int64_t>{0})
    return Operand::array(
        at(expr.loc).create(ir::Opcode::DynamicSharedArray, type, {}, alignment)->result());
  ir::Opcode opcode = shared ? ir::Opcode::SharedArray : ir::Opcode::LocalArray;
  return Operand::array(
      at(expr.loc)
          .create(opcode, type, {}, ir::ArrayAllocation(std::move(constantExtents), alignment))
          ->result());
}

int64_t FunctionLowerer::arrayAlignment(const Expr &alignmentExpr, ir::Type array) {
  Operand alignment = lower(alignmentExpr);
  if (alignment.kind == Operand::Kind::None)
    return 0;
  std::optional<int64_t> value = constantInt(alignment);
  if (!value || *value <= 0 || (*value & (*value - 1)) != 0 || *value > ir::kMaxArrayAlignment)
    throw ir::CompileError(alignmentExpr.loc, "alignment must be a constant power of two up to " +
                                                  std::to_string(ir::kMaxArrayAlignment) +
                                                  ", not '" + unparse(alignmentExpr) + "'");
  // A record's elements need its alignment, a scalar's its size.
  const ir::RecordType *record = array.record();
  int64_t needed = record ? record->alignment() : array.elementSize();
  if (*value < needed)
    throw ir::CompileError(alignmentExpr.loc,
                           "alignment " + std::to_string(*value) + " is less than the " +
                               std::to_string(needed) + "-byte " +
                               (record ? "alignment of the record" : "element size"));
  return *value;
}

// Numba freezes a global numpy array into the kernel: kaji makes it a constant array, whether
// the kernel names it alone or through const.array_like.
Operand FunctionLowerer::globalConstArray(const GlobalValue &global, const Location &loc) {
  const std::string &name = global.qualifiedName;
  unsigned ndim = unsigned(global.arrayShape.size());
  ir::Type type =
      global.record
          ? ir::Type::array(global.record, ndim, ir::Layout::C, ir::MemorySpace::Constant)
          : ir::Type::array(global.arrayElement, ndim, ir::Layout::C, ir::MemorySpace::Constant);
  requireElementBytes(type, loc, "constant array");
  int64_t elements = 1;
  for (int64_t extent : global.arrayShape)
    elements *= extent;
  if (global.arrayShape.empty())
    throw ir::CompileError(loc, "the global array '" + name +
                                    "' is 0-dimensional; a constant array needs a dimension "
                                    "(pass it as an argument)");
  if (global.arrayTooLarge)
    throw ir::CompileError(
        loc, "the global array '" + name + "' is " + std::to_string(elements * type.elementSize()) +
                 " bytes; constant memory holds " + std::to_string(kMaxConstantArrayBytes) +
                 " (pass it as an argument instead)");
  ir::ConstantData data{global.arrayShape, global.arrayBytes};
  return Operand::array(
      at(loc).create(ir::Opcode::ConstArray, type, {}, std::move(data))->result());
}

Operand FunctionLowerer::constArray(const CallExpr &expr) {
  if (expr.args.size() != 1 || !expr.keywords.empty())
    throw ir::CompileError(expr.loc, "kaji.const.array_like() takes one numpy array");
  Operand source = lower(*expr.args[0]);
  if (source.kind != Operand::Kind::Array ||
      source.type().memorySpace() != ir::MemorySpace::Constant)
    throw ir::CompileError(expr.args[0]->loc,
                           "kaji.const.array_like() takes a numpy array that is a global or "
                           "closure variable of the kernel, not '" +
                               describe(source) + "'");
  return source;
}

// print(...) of string literals, numbers and tuples of them, with Python's sep and end; the
// text is fixed at compile time, the numbers fill its "{}".
Operand FunctionLowerer::print(const CallExpr &expr) {
  std::string separator = " ", end = "\n";
  for (const Keyword &kw : expr.keywords) {
    Operand value = lower(*kw.value);
    if ((kw.name != "sep" && kw.name != "end") || value.kind != Operand::Kind::String)
      throw ir::CompileError(kw.loc, "print() in kernels takes only sep= and end= string "
                                     "literals as keywords");
    (kw.name == "sep" ? separator : end) = value.name;
  }
  auto escaped = [](const std::string &text) {
    std::string out;
    for (char c : text)
      out += c == '{' ? "{{" : c == '}' ? "}}" : std::string(1, c);
    return out;
  };
  std::string layout;
  std::vector<ir::Value *> values;
  // As Python prints it: a tuple as its elements in parentheses (a string among them quoted),
  // a dim3 (threadIdx, ...) as the tuple of its x, y and z.
  std::function<void(const Operand &, const Expr &, bool)> append =
      [&](const Operand &value, const Expr &arg, bool inTuple) {
        if (value.kind == Operand::Kind::String) {
          std::string text = escaped(value.name);
          layout += inTuple ? std::string(1, '\'') + text + '\'' : text;
        } else if (value.isScalar()) {
          layout += "{}";
          // An 8-bit float prints its value, as float32 prints it.
          ScalarKind kind = value.scalarType().kind;
          values.push_back(convert(value, ir::isFloat8(kind) ? ScalarKind::Float32 : kind));
        } else if (value.kind == Operand::Kind::Tuple || isDim3(value)) {
          std::vector<Operand> elements = value.elements;
          if (isDim3(value))
            for (const char *axis : {"x", "y", "z"})
              elements.push_back(attribute(value, axis, arg));
          layout += "(";
          for (size_t i = 0; i < elements.size(); ++i) {
            layout += i ? ", " : "";
            append(elements[i], arg, true);
          }
          layout += elements.size() == 1 ? ",)" : ")";
        } else {
          throw ir::CompileError(arg.loc, "print() in kernels takes strings, numbers and tuples of "
                                          "them, not '" +
                                              describe(value) + "'");
        }
      };
  for (size_t i = 0; i < expr.args.size(); ++i) {
    layout += i ? escaped(separator) : "";
    append(lower(*expr.args[i]), *expr.args[i], false);
  }
  at(expr.loc).create(ir::Opcode::Print, ir::Type(), values, layout + escaped(end));
  return Operand();
}

Operand FunctionLowerer::atomic(const std::string &operation, const std::vector<Operand> &args,
                                const CallExpr &expr) {
  std::string display = "kaji.atomic." + operation + "()";
  bool cas = operation == "cas" || operation == "compare_and_swap";
  bool firstElement = operation == "compare_and_swap"; // Numba's: element 0 of a 1-D array
  size_t valueCount = cas ? 2 : 1;
  size_t expected = (firstElement ? 1 : 2) + valueCount;
  if (args.size() != expected)
    throw ir::CompileError(expr.loc,
                           display + (firstElement ? " takes an array, the expected value and "
                                                     "the new value"
                                      : cas ? " takes an array, an index, the expected value "
                                              "and the new value"
                                            : " takes an array, an index and a value"));
  const Operand &array = args[0];
  if (array.kind != Operand::Kind::Array)
    throw ir::CompileError(expr.args[0]->loc,
                           display + " needs an array, not '" + describe(array) + "'");
  if (array.type().memorySpace() == ir::MemorySpace::Constant)
    throw ir::CompileError(expr.args[0]->loc, display + " cannot change a constant array");
  if (array.type().isVectorArray())
    throw ir::CompileError(expr.args[0]->loc, display + " works on arrays of numbers, not on '" +
                                                  describe(array) + "'");
  ScalarKind element = array.type().scalarKind();
  const ir::AtomicOperation *atomicOperation =
      cas ? nullptr : ir::findAtomicOperation(atomicKind(operation, element));
  unsigned bits = element == ScalarKind::Bool ? 1 : ir::bitWidth(element);
  std::string elementName = ir::Type::scalar(element).str();
  bool halfAddition =
      ir::isHalfPrecision(element) && atomicOperation && atomicOperation->halfPrecision;
  if (element == ScalarKind::Bool || (bits != 32 && bits != 64 && !halfAddition))
    throw ir::CompileError(expr.args[0]->loc,
                           display + " works on arrays of 32- and 64-bit numbers" +
                               (ir::isHalfPrecision(element)
                                    ? " (float16 and bfloat16 arrays: add and sub only)"
                                    : "") +
                               ", not " + elementName);
  ir::AtomicElements elements =
      atomicOperation ? atomicOperation->elements : ir::AtomicElements::Integers;
  if (cas ? !ir::isInteger(element) : !atomicOperation->takes(element))
    throw ir::CompileError(expr.args[0]->loc,
                           display + " works on " +
                               (elements == ir::AtomicElements::Integers ? "integer arrays"
                                : elements == ir::AtomicElements::Floats
                                    ? "float arrays"
                                    : "uint32 and uint64 arrays") +
                               ", not " + elementName);

  size_t firstValue = firstElement ? 1 : 2;
  std::vector<ir::Value *> operands{array.value};
  for (size_t i = firstValue; i < firstValue + valueCount; ++i) {
    if (!args[i].isScalar())
      throw ir::CompileError(expr.args[i]->loc,
                             display + " needs a number, not '" + describe(args[i]) + "'");
    operands.push_back(convert(args[i], element));
  }
  std::vector<Operand> indices;
  if (firstElement) {
    if (array.type().ndim() != 1)
      throw ir::CompileError(expr.args[0]->loc, display + " needs a 1-D array");
    indices.push_back(intConstant(ScalarKind::Int64, 0));
  } else {
    indices =
        args[1].kind == Operand::Kind::Tuple ? args[1].elements : std::vector<Operand>{args[1]};
    checkIndexCount(array, indices.size(), *expr.args[0], expr);
  }
  const Expr &indexNode = firstElement ? *expr.args[0] : *expr.args[1];
  for (unsigned d = 0; d < indices.size(); ++d)
    operands.push_back(indexValue(array, d, indices[d], indexNode, expr));
  ir::Type type = ir::Type::scalar(element);
  at(expr.loc);
  if (cas)
    return Operand::scalar(builder_.create(ir::Opcode::AtomicCAS, type, operands)->result());
  return Operand::scalar(
      builder_.create(ir::Opcode::Atomic, type, operands, atomicOperation->kind)->result());
}

std::optional<CachedAccess> cachedAccessNamed(std::string_view member) {
  bool load = member.starts_with("ld");
  if (member.size() != 4 || !(load || member.starts_with("st")))
    return std::nullopt;
  std::optional<ir::CacheOperator> cache = ir::findCacheOperator(member.substr(2));
  if (!cache || !ir::cacheOperatorApplies(*cache, load))
    return std::nullopt;
  return CachedAccess{load, *cache};
}

// cuda.ldcg(array, index) and cuda.stcg(array, index, value): the element access of
// `array[index]` (an int, or a tuple of one per dimension) with PTX's cache operator, on an
// array of numbers in global memory.
Operand FunctionLowerer::cachedAccess(const CachedAccess &access, const std::string &display,
                                      const std::vector<Operand> &args, const CallExpr &expr) {
  std::string call = "cuda." + display + "()";
  if (args.size() != (access.load ? 2u : 3u))
    throw ir::CompileError(expr.loc,
                           call + (access.load ? " takes an array and an index"
                                               : " takes an array, an index and a value"));
  const Operand &array = args[0];
  if (array.kind != Operand::Kind::Array)
    throw ir::CompileError(expr.args[0]->loc,
                           call + " needs an array, not '" + describe(array) + "'");
  ir::Type type = array.type();
  if (type.memorySpace() != ir::MemorySpace::Global)
    throw ir::CompileError(expr.args[0]->loc,
                           call +
                               " needs an array in global memory (an argument, a C pointer or "
                               "a device array), not '" +
                               describe(array) + "'");
  // Numba's phrases lead the messages below, for code that matches them.
  if (type.isVectorArray() || type.isRecordArray() || ir::isComplex(type.scalarKind()))
    throw ir::CompileError(expr.args[0]->loc, display +
                                                  " requires array of integer or float "
                                                  "type (or bool), not '" +
                                                  describe(array) + "'");
  ScalarKind element = type.scalarKind();
  std::vector<ir::Value *> operands;
  if (!access.load) {
    if (!args[2].isScalar())
      throw ir::CompileError(expr.args[2]->loc,
                             call + " needs a number, not '" + describe(args[2]) + "'");
    operands.push_back(convert(args[2], element));
  }
  operands.push_back(array.value);
  bool scalarIndex = args[1].kind != Operand::Kind::Tuple;
  std::vector<Operand> indices = scalarIndex ? std::vector<Operand>{args[1]} : args[1].elements;
  if (indices.size() != type.ndim())
    throw ir::CompileError(
        expr.args[1]->loc,
        call + ": Expected " + std::to_string(type.ndim()) + " indices, got " +
            (scalarIndex ? std::string("a scalar") : std::to_string(indices.size())) + " for '" +
            describe(array) + "'");
  for (const Operand &index : indices)
    if (!index.isScalar() || !index.type().isInteger())
      throw ir::CompileError(expr.args[1]->loc,
                             call + ": " + describe(index) + " is not a valid index (an integer)");
  for (unsigned d = 0; d < indices.size(); ++d)
    operands.push_back(indexValue(array, d, indices[d], *expr.args[1], expr));
  at(expr.loc);
  if (!access.load) {
    builder_.create(ir::Opcode::Store, ir::Type(), operands, access.cache);
    return Operand();
  }
  return Operand::scalar(
      builder_.create(ir::Opcode::Load, type.elementType(), operands, access.cache)->result());
}

// The thread's lane: its linear index in the block (x fastest) modulo the warp size, which
// is %laneid for every launch shape.
Operand FunctionLowerer::laneId(const Location &loc) {
  at(loc);
  auto reg = [&](ir::SpecialReg::Kind kind, unsigned dim) {
    return builder_.specialReg(kind, dim);
  };
  ir::Value *linear = builder_.binary(
      ir::Opcode::Add, reg(ir::SpecialReg::ThreadIdx, 0),
      builder_.binary(
          ir::Opcode::Mul, reg(ir::SpecialReg::BlockDim, 0),
          builder_.binary(ir::Opcode::Add, reg(ir::SpecialReg::ThreadIdx, 1),
                          builder_.binary(ir::Opcode::Mul, reg(ir::SpecialReg::BlockDim, 1),
                                          reg(ir::SpecialReg::ThreadIdx, 2)))));
  return Operand::scalar(
      builder_.binary(ir::Opcode::And, linear, intConstant(ScalarKind::Int32, 31).value));
}

std::vector<Operand> FunctionLowerer::positionalArguments(const CallExpr &expr,
                                                          const std::string &function) {
  if (!expr.keywords.empty())
    throw ir::CompileError(expr.keywords.front().loc,
                           function + " takes positional arguments only in kernels");
  std::vector<Operand> args;
  for (const ExprPtr &arg : expr.args)
    args.push_back(lower(*arg));
  return args;
}

void FunctionLowerer::requireArgumentCount(const std::vector<Operand> &args, size_t least,
                                           size_t most, const std::string &function,
                                           const Location &loc) {
  if (args.size() >= least && args.size() <= most)
    return;
  std::string count = std::to_string(least);
  if (most > least)
    count.append(" to ").append(std::to_string(most));
  throw ir::CompileError(loc, function + " takes " + count + " argument" + (most == 1 ? "" : "s") +
                                  ", got " + std::to_string(args.size()));
}

std::optional<unsigned> FunctionLowerer::compiledArchitecture() const {
  return architectureNumber(context_.options().gpuArch);
}

void FunctionLowerer::requireArchitecture(unsigned minimum, const std::string &what,
                                          const Location &loc) {
  const std::string &arch = context_.options().gpuArch;
  std::optional<unsigned> compiledFor = architectureNumber(arch);
  if (compiledFor && *compiledFor < minimum)
    throw ir::CompileError(loc, what + " needs sm_" + std::to_string(minimum) +
                                    " or newer (compiling for " + arch + ")");
}

void FunctionLowerer::requireArchitecture(const std::string &name, const Location &loc) {
  const std::string &arch = context_.options().gpuArch;
  auto minimum = kMinimumArchitecture.find(name);
  std::optional<unsigned> compiledFor = architectureNumber(arch);
  if (minimum == kMinimumArchitecture.end() || !compiledFor || *compiledFor >= minimum->second)
    return;
  throw ir::CompileError(loc, "'" + name + "' needs sm_" + std::to_string(minimum->second) +
                                  " or newer (compiling for " + arch + ")");
}

std::optional<Operand> FunctionLowerer::callGpuFunction(const std::string &name,
                                                        const std::vector<Operand> &args,
                                                        const CallExpr &expr) {
  requireArchitecture(name, expr.loc);
  auto expectArgs = [&](size_t count, const char *what) {
    if (args.size() != count)
      throw ir::CompileError(expr.loc, "kaji." + name + "() takes " + what);
  };
  if (name == "syncthreads" || name.starts_with("threadfence")) {
    expectArgs(0, "no arguments");
    if (name == "syncthreads") {
      builder_.create(ir::Opcode::Barrier, ir::Type());
    } else {
      ir::FenceScope scope = name == "threadfence_block"    ? ir::FenceScope::Block
                             : name == "threadfence_system" ? ir::FenceScope::System
                                                            : ir::FenceScope::Device;
      builder_.create(ir::Opcode::Fence, ir::Type(), {}, scope);
    }
    return Operand();
  }
  if (std::optional<ir::BitFunction> function = ir::findBitFunction(name)) {
    expectArgs(1, "one integer");
    const Operand &x = args.front();
    if (!x.isScalar() || !ir::isInteger(x.scalarType().kind))
      throw ir::CompileError(expr.args[0]->loc,
                             "kaji." + name + "() needs an integer, not '" + describe(x) + "'");
    // A literal is int64, like Numba's.
    ScalarKind kind = x.scalarType().kind;
    ir::Value *value = convert(x, kind);
    return Operand::scalar(
        builder_.create(ir::Opcode::Bits, ir::Type::scalar(kind), {value}, *function)->result());
  }
  if (name == "selp") {
    expectArgs(3, "a condition and two values");
    for (const Operand &arg : args)
      if (!arg.isScalar())
        throw ir::CompileError(expr.loc, "kaji.selp() needs numbers, not '" + describe(arg) + "'");
    ScalarType type = promote(args[1].scalarType(), args[2].scalarType());
    return Operand::scalar(builder_
                               .create(ir::Opcode::Select, ir::Type::scalar(type.kind),
                                       {truth(args[0], *expr.args[0]), convert(args[1], type.kind),
                                        convert(args[2], type.kind)})
                               ->result(),
                           type.weak);
  }
  return warpFunction(name, args, expr);
}

std::optional<Operand> FunctionLowerer::warpFunction(const std::string &name,
                                                     const std::vector<Operand> &args,
                                                     const CallExpr &expr) {
  using Collective = ir::WarpCollectiveKind;
  static const std::map<std::string, Collective> collectives = {
      {"shfl_sync", Collective::ShflIdx},
      {"shfl_up_sync", Collective::ShflUp},
      {"shfl_down_sync", Collective::ShflDown},
      {"shfl_xor_sync", Collective::ShflXor},
      {"ballot_sync", Collective::Ballot},
      {"all_sync", Collective::All},
      {"any_sync", Collective::Any},
      {"eq_sync", Collective::Eq},
      {"match_any_sync", Collective::MatchAny},
      {"match_all_sync", Collective::MatchAll},
      {"activemask", Collective::ActiveMask}};
  std::string display = "kaji." + name + "()";
  ir::Type u32 = ir::Type::scalar(ScalarKind::UInt32);
  auto scalarArg = [&](size_t i) -> const Operand & {
    if (!args[i].isScalar())
      throw ir::CompileError(expr.args[i]->loc,
                             display + " needs a number, not '" + describe(args[i]) + "'");
    return args[i];
  };
  if (name == "nanosleep") {
    if (args.size() != 1)
      throw ir::CompileError(expr.loc, display + " takes the nanoseconds to sleep");
    if (!scalarArg(0).type().isInteger())
      throw ir::CompileError(expr.args[0]->loc,
                             display + " takes an integer, not '" + describe(args[0]) + "'");
    builder_.create(ir::Opcode::Nanosleep, ir::Type(), {convert(args[0], ScalarKind::UInt32)});
    return Operand();
  }
  if (name == "syncwarp") {
    if (args.size() > 1)
      throw ir::CompileError(expr.loc, display + " takes an optional lane mask");
    ir::Value *mask = args.empty() ? builder_.intConstant(u32, int64_t(0xffffffff))
                                   : convert(scalarArg(0), ScalarKind::UInt32);
    builder_.create(ir::Opcode::WarpSync, ir::Type(), {mask});
    return Operand();
  }
  if (name == "syncthreads_count" || name == "syncthreads_and" || name == "syncthreads_or") {
    if (args.size() != 1)
      throw ir::CompileError(expr.loc, display + " takes one predicate");
    ir::Value *predicate = truth(scalarArg(0), *expr.args[0]);
    return Operand::scalar(
        builder_
            .create(ir::Opcode::BarrierReduce, ir::Type::scalar(ScalarKind::Int32), {predicate},
                    *ir::findBarrierReduction(name.substr(std::string("syncthreads_").size())))
            ->result());
  }
  if (name == "lanemask_lt") {
    if (!args.empty())
      throw ir::CompileError(expr.loc, display + " takes no arguments");
    ir::Value *lane = convert(laneId(expr.loc), ScalarKind::UInt32);
    ir::Value *one = builder_.intConstant(u32, int64_t(1));
    return Operand::scalar(
        builder_.binary(ir::Opcode::Sub, builder_.binary(ir::Opcode::Shl, one, lane), one));
  }
  auto found = collectives.find(name);
  if (found == collectives.end())
    return std::nullopt;
  Collective collective = found->second;
  const ir::WarpCollective &row = ir::warpCollective(collective);
  size_t arity = row.operandCount();
  if (args.size() != arity)
    throw ir::CompileError(expr.loc, display + " takes " + std::to_string(arity) + " arguments");
  if (arity == 0)
    return Operand::scalar(builder_.create(ir::Opcode::Warp, u32, {}, collective)->result());
  // Numba's words: a lane mask is an integer, a predicate an integer or a bool.
  if (ScalarKind mask = scalarArg(0).type().scalarKind();
      mask == ScalarKind::Bool || !ir::isInteger(mask))
    throw ir::CompileError(expr.args[0]->loc,
                           display + ": Mask type must be an integer, not " + describe(args[0]));
  std::vector<ir::Value *> operands{convert(args[0], ScalarKind::UInt32)};
  bool predicate = row.form == ir::WarpForm::Ballot || row.form == ir::WarpForm::Vote;
  ir::Type result = u32;
  if (predicate) {
    if (ScalarKind kind = scalarArg(1).type().scalarKind();
        kind != ScalarKind::Bool && !ir::isInteger(kind))
      throw ir::CompileError(expr.args[1]->loc,
                             display + ": Predicate must be an integer or boolean, not " +
                                 describe(args[1]));
    operands.push_back(truth(args[1], *expr.args[1]));
    if (row.form == ir::WarpForm::Vote)
      result = ir::Type::scalar(ScalarKind::Int32);
  } else {
    ScalarType type = scalarArg(1).scalarType();
    unsigned bits = type.kind == ScalarKind::Bool ? 1 : ir::bitWidth(type.kind);
    if (type.kind == ScalarKind::Bool || (bits != 32 && bits != 64))
      throw ir::CompileError(expr.args[1]->loc, display +
                                                    " exchanges 32- and 64-bit numbers, not " +
                                                    ir::Type::scalar(type.kind).str());
    operands.push_back(convert(args[1], type.kind));
    if (row.form == ir::WarpForm::Shuffle)
      result = ir::Type::scalar(type.kind);
  }
  if (arity == 3)
    operands.push_back(convert(scalarArg(2), ScalarKind::UInt32));
  ir::Value *value = builder_.create(ir::Opcode::Warp, result, operands, collective)->result();
  if (collective == Collective::MatchAll) // Numba's (mask, predicate)
    return Operand::tuple(
        {Operand::scalar(value),
         Operand::scalar(builder_.cmp(ir::CmpPredicate::Ne, value, builder_.intConstant(u32, 0)))});
  return Operand::scalar(value);
}

} // namespace kaji::frontend
