// cuda.wmma, CUDA C++'s nvcuda::wmma: fragments of a warp's matrices and their multiply-
// accumulate on the tensor cores (ir/MatrixFragments.h). A fragment is an IR value of type
// fragment<...>, the thread's storage, which the operations change in place; `frag.x` is the
// thread's elements, `frag.num_elements` their number (the target's).
#include "FunctionLowerer.h"

#include "kaji/frontend/Signature.h"

namespace kaji::frontend {

using ir::ScalarKind;

namespace {

constexpr const char *kElements = "kaji.wmma.fragment.x";

std::string memberName(const Operand &operand) {
  return operand.kind == Operand::Kind::Builtin && operand.name.starts_with("kaji.wmma.")
             ? operand.name.substr(10)
             : "";
}

} // namespace

Operand FunctionLowerer::callMatrixFragments(const std::string &name, const CallExpr &expr) {
  std::string function = "cuda.wmma." + name.substr(10) + "()";
  std::vector<Operand> args = positionalArguments(expr, function);
  auto argumentCount = [&](size_t least, size_t most) {
    requireArgumentCount(args, least, most, function, expr.loc);
  };
  auto fragmentArgument = [&](size_t i) {
    if (args[i].kind != Operand::Kind::Fragment)
      throw ir::CompileError(expr.args[i]->loc, function + " takes a fragment as argument " +
                                                    std::to_string(i + 1) + ", not " +
                                                    describe(args[i]));
    return args[i].value;
  };
  auto arrayArgument = [&](size_t i) {
    if (args[i].kind != Operand::Kind::Array)
      throw ir::CompileError(expr.args[i]->loc, function +
                                                    " takes an array (the matrix's "
                                                    "first element on) as argument " +
                                                    std::to_string(i + 1) + ", not " +
                                                    describe(args[i]));
    return args[i].value;
  };
  // An accumulator's order in memory: wmma.mem_row_major or wmma.mem_col_major.
  auto memoryLayout = [&](size_t i) {
    std::string member = memberName(args[i]);
    if (member != "mem_row_major" && member != "mem_col_major")
      throw ir::CompileError(expr.args[i]->loc,
                             function +
                                 " takes cuda.wmma.mem_row_major or mem_col_major as "
                                 "the accumulator's layout, not " +
                                 describe(args[i]));
    return member == "mem_row_major" ? ir::MatrixLayout::Row : ir::MatrixLayout::Col;
  };
  auto ldm = [&](size_t i) {
    if (!args[i].isScalar() || !ir::isInteger(args[i].type().scalarKind()))
      throw ir::CompileError(expr.args[i]->loc,
                             function + " takes the leading dimension ldm as an integer, not " +
                                 describe(args[i]));
    return convert(args[i], ScalarKind::Int64);
  };
  std::string member = name.substr(10);
  if (member == "fragment") {
    argumentCount(5, 6);
    std::string use = memberName(args[0]);
    if (use != "matrix_a" && use != "matrix_b" && use != "accumulator")
      throw ir::CompileError(expr.args[0]->loc, function +
                                                    " takes cuda.wmma.matrix_a, "
                                                    "matrix_b or accumulator first, not " +
                                                    describe(args[0]));
    std::vector<int64_t> extents;
    for (size_t i = 1; i < 4; ++i) {
      std::optional<int64_t> extent = constantInt(args[i]);
      if (!extent)
        throw ir::CompileError(expr.args[i]->loc,
                               function + " takes m, n and k as constant integers");
      extents.push_back(*extent);
    }
    std::string shapeName;
    for (size_t i = 0; i < 3; ++i) {
      shapeName += "mnk"[i];
      shapeName += std::to_string(extents[i]);
    }
    std::optional<ir::MatrixShape> shape = ir::matrixShapeFromName(shapeName);
    if (!shape)
      throw ir::CompileError(expr.args[1]->loc,
                             function + ": the tensor cores have no shape " + shapeName +
                                 " (m16n16k16, m32n8k16, m8n32k16; m16n16k8 for tf32; mma.sync's "
                                 "m16n8k16, m16n8k8; a warpgroup's m64n32k16, m64n64k16, "
                                 "m64n128k16, m64n256k16)");
    std::optional<ScalarKind> element;
    if (args[4].kind == Operand::Kind::Builtin && args[4].name.starts_with("numpy."))
      element = scalarKindFromNumpyName(args[4].name.substr(6));
    if (!element)
      throw ir::CompileError(expr.args[4]->loc,
                             function +
                                 " takes a numpy element type (float16, bfloat16, "
                                 "float32, int8, uint8, int32), not " +
                                 describe(args[4]));
    bool accumulator = use == "accumulator";
    ir::Layout layout = ir::Layout::Any;
    if (!accumulator) {
      std::string order = args.size() == 6 ? memberName(args[5]) : "";
      if (order != "row_major" && order != "col_major")
        throw ir::CompileError(args.size() == 6 ? expr.args[5]->loc : expr.loc,
                               function + " of a matrix_a or matrix_b takes its layout, "
                                          "cuda.wmma.row_major or col_major, last");
      layout = order == "row_major" ? ir::Layout::C : ir::Layout::F;
    } else if (args.size() == 6) {
      throw ir::CompileError(expr.args[5]->loc,
                             function + " of an accumulator takes no layout: its loads and "
                                        "stores name theirs");
    }
    ir::MatrixUse matrixUse = use == "matrix_a"   ? ir::MatrixUse::A
                              : use == "matrix_b" ? ir::MatrixUse::B
                                                  : ir::MatrixUse::Accumulator;
    ir::Type type = ir::Type::fragment(matrixUse, *shape, *element, layout);
    if (std::string problem = ir::fragmentProblem(type); !problem.empty())
      throw ir::CompileError(expr.loc, function + ": " + problem);
    requireArchitecture(ir::fragmentArchitecture(type), "a " + type.str(), expr.loc);
    if (ir::isWarpgroupShape(*shape))
      requireWarpgroupArchitecture("a " + type.str(), expr.loc);
    return Operand::fragment(at(expr.loc).create(ir::Opcode::Fragment, type, {})->result());
  }
  if (member == "fill_fragment") {
    argumentCount(2, 2);
    ir::Value *fragment = fragmentArgument(0);
    if (!args[1].isScalar())
      throw ir::CompileError(expr.args[1]->loc,
                             function + " fills with a number, not " + describe(args[1]));
    ir::Value *value = convert(args[1], fragment->type().scalarKind());
    at(expr.loc).create(ir::Opcode::FragmentFill, ir::Type(), {fragment, value});
    return Operand();
  }
  if (member == "load_matrix_sync") {
    argumentCount(3, 4);
    ir::Value *fragment = fragmentArgument(0);
    bool accumulator = fragment->type().matrixUse() == ir::MatrixUse::Accumulator;
    if (accumulator != (args.size() == 4))
      throw ir::CompileError(expr.loc,
                             function + (accumulator ? " of an accumulator takes its layout, "
                                                       "cuda.wmma.mem_row_major or "
                                                       "mem_col_major, last"
                                                     : " of a matrix_a or matrix_b takes no "
                                                       "layout: its fragment has one"));
    ir::Attr layout;
    if (accumulator)
      layout = memoryLayout(3);
    ir::Value *matrix = arrayArgument(1);
    ir::Value *leading = ldm(2);
    at(expr.loc).create(ir::Opcode::FragmentLoad, ir::Type(), {fragment, matrix, leading}, layout);
    return Operand();
  }
  if (member == "store_matrix_sync") {
    argumentCount(4, 4);
    ir::Value *matrix = arrayArgument(0);
    ir::Value *fragment = fragmentArgument(1);
    ir::Value *leading = ldm(2);
    ir::MatrixLayout layout = memoryLayout(3);
    at(expr.loc).create(ir::Opcode::FragmentStore, ir::Type(), {matrix, fragment, leading}, layout);
    return Operand();
  }
  if (member == "mma_sync") {
    argumentCount(4, 4);
    std::vector<ir::Value *> fragments;
    for (size_t i = 0; i < 4; ++i)
      fragments.push_back(fragmentArgument(i));
    ir::Type a = fragments[1]->type(), c = fragments[3]->type();
    if (a.matrixUse() != ir::MatrixUse::A || fragments[2]->type().matrixUse() != ir::MatrixUse::B ||
        c.matrixUse() != ir::MatrixUse::Accumulator || fragments[0]->type() != c)
      throw ir::CompileError(expr.loc, function +
                                           " takes (d, a, b, c): accumulators d and c of "
                                           "one type, a matrix_a and a matrix_b, not (" +
                                           describe(args[0]) + ", " + describe(args[1]) + ", " +
                                           describe(args[2]) + ", " + describe(args[3]) + ")");
    std::optional<unsigned> architecture =
        ir::mmaArchitecture(c.matrixShape(), a.scalarKind(), c.scalarKind());
    if (!architecture || fragments[2]->type().scalarKind() != a.scalarKind() ||
        fragments[2]->type().matrixShape() != c.matrixShape() || a.matrixShape() != c.matrixShape())
      throw ir::CompileError(expr.loc, function + ": the tensor cores multiply no " +
                                           describe(args[1]) + " by " + describe(args[2]) +
                                           " into " + describe(args[3]));
    requireArchitecture(*architecture, function, expr.loc);
    at(expr.loc).create(ir::Opcode::FragmentMma, ir::Type(), fragments);
    return Operand();
  }
  throw ir::CompileError(expr.loc, "cuda.wmma." + member + " is no function");
}

std::optional<Operand>
FunctionLowerer::fragmentAttribute(const Operand &base, const std::string &attr, const Expr &node) {
  if (base.kind != Operand::Kind::Fragment)
    return std::nullopt;
  if (attr == "num_elements")
    return Operand::scalar(
        at(node.loc)
            .create(ir::Opcode::FragmentLength, ir::Type::scalar(ScalarKind::Int64), {base.value})
            ->result());
  if (attr == "x") {
    Operand elements = Operand::named(Operand::Kind::Builtin, kElements);
    elements.elements = {base};
    return elements;
  }
  throw ir::CompileError(node.loc, "a fragment has no attribute '" + attr +
                                       "' in kernels (it has num_elements and x)");
}

bool isFragmentElements(const Operand &operand) {
  return operand.kind == Operand::Kind::Builtin && operand.name == kElements;
}

ir::Value *FunctionLowerer::fragmentIndex(const Operand &index, const Location &loc) {
  if (!index.isScalar() || !ir::isInteger(index.type().scalarKind()))
    throw ir::CompileError(loc, "a fragment's x takes an integer index, not " + describe(index));
  return convert(index, ScalarKind::Int64);
}

Operand FunctionLowerer::fragmentElement(const Operand &elements, const Operand &index,
                                         const Location &loc) {
  ir::Value *fragment = elements.elements.front().value;
  ir::Value *position = fragmentIndex(index, loc);
  return Operand::scalar(at(loc)
                             .create(ir::Opcode::FragmentGet,
                                     ir::Type::scalar(fragment->type().scalarKind()),
                                     {fragment, position})
                             ->result());
}

void FunctionLowerer::storeFragmentElement(const Operand &elements, const Operand &index,
                                           const Operand &value, const Location &loc) {
  ir::Value *fragment = elements.elements.front().value;
  ir::Value *position = fragmentIndex(index, loc);
  if (!value.isScalar())
    throw ir::CompileError(loc, "a fragment's element is a number, not " + describe(value));
  ir::Value *converted = convert(value, fragment->type().scalarKind());
  at(loc).create(ir::Opcode::FragmentSet, ir::Type(), {fragment, position, converted});
}

} // namespace kaji::frontend
