// Matrix fragments in the emitted CUDA C++: PTX's wmma instructions in inline assembly, as the
// llvm backend's intrinsics become, since NVRTC has no <mma.h> without the toolkit's headers. A
// fragment is the prelude's kaji::fragment<T, N> (N elements: its registers, in order, as
// PtxFragments.h counts them), made once per fragment op and passed by pointer, so that a device
// function changes its caller's.
#include "CommaSeparated.h"
#include "CudaEmitter.h"

#include "kaji/codegen/PtxFragments.h"
#include "kaji/ir/MatrixFragments.h"

namespace kaji::codegen::nvrtc::emitter {

namespace {

using ir::Opcode;

std::string fragmentTypeName(const ir::Type &fragment) {
  return "kaji::fragment<" + scalarTypeName(fragment.scalarKind()) + ", " +
         std::to_string(ptxFragmentElements(fragment)) + ">";
}

// The asm operand of register `i` of the fragment `pointer` points to, `constraint` "=" for an
// output: f32 accumulators as float registers, every other register as its 32 bits.
std::string registerOperand(const ir::Type &fragment, const std::string &pointer, unsigned i,
                            const char *direction) {
  bool floats = fragment.matrixUse() == ir::MatrixUse::Accumulator &&
                fragment.scalarKind() == ScalarKind::Float32;
  std::string element = std::to_string(i);
  std::string operand = std::string("\"") + direction;
  return floats ? operand + "f\"(" + pointer + "->x[" + element + "])"
                : operand + "r\"(reinterpret_cast<u32 *>(" + pointer + "->x)[" + element + "])";
}

std::vector<std::string> registerOperands(const ir::Type &fragment, const std::string &pointer,
                                          const char *direction) {
  std::vector<std::string> operands;
  for (unsigned i = 0; i < ptxFragmentRegisters(fragment); ++i)
    operands.push_back(registerOperand(fragment, pointer, i, direction));
  return operands;
}

// "{%first, ..., %(first + count - 1)}"
std::string registerList(unsigned first, unsigned count) {
  std::vector<std::string> names;
  for (unsigned i = 0; i < count; ++i) {
    names.push_back("%");
    names.back() += std::to_string(first + i); // `"%" + string` trips GCC 12's -Wrestrict
  }
  return std::string("{") + commaSeparated(names) + "}";
}

std::string layoutOf(const ir::Type &fragment) {
  return fragment.layout() == ir::Layout::F ? "col" : "row";
}

} // namespace

std::string fragmentPointerTypeName(const ir::Type &fragment) {
  return fragmentTypeName(fragment) + " *";
}

std::string fragmentStorage(const ir::Type &fragment, const std::string &name) {
  return fragmentTypeName(fragment) + " " + name + ";";
}

void FunctionEmitter::emitFragment(const ir::Operation &op) {
  ir::Type fragment = op.opcode() == Opcode::Fragment        ? op.resultType()
                      : op.opcode() == Opcode::FragmentStore ? op.operand(1)->type()
                                                             : op.operand(0)->type();
  std::string length = std::to_string(ptxFragmentElements(fragment));
  // x[i]: from the end for a negative i and checked under bounds checks, as an array's.
  auto element = [&]() {
    std::string pointer = name(op.operand(0), op), index = name(op.operand(1), op);
    if (module_.boundsCheck())
      index = "kaji::checked_index(i64(" + index + "), " + length + ", " + module_.indexSite(op) +
              ", 0, false)";
    else
      index = "(" + index + " < 0 ? " + index + " + " + length + " : " + index + ")";
    return pointer + "->x[" + index + "]";
  };
  switch (op.opcode()) {
  case Opcode::Fragment:
    return assign(op, "&" + storage_.at(&op));
  case Opcode::FragmentFill:
    return statement(op, "for (int i = 0; i < " + length + "; ++i) " + name(op.operand(0), op) +
                             "->x[i] = " + name(op.operand(1), op) + ";");
  case Opcode::FragmentLength:
    return assign(op, length + "ll");
  case Opcode::FragmentGet:
    return assign(op, element());
  case Opcode::FragmentSet:
    return statement(op, element() + " = " + name(op.operand(2), op) + ";");
  case Opcode::WarpgroupMma:
    return emitWarpgroupMma(op);
  case Opcode::FragmentLoad:
  case Opcode::FragmentStore: {
    bool load = op.opcode() == Opcode::FragmentLoad;
    if (ir::instructionOf(fragment.matrixShape()) != ir::MatrixInstruction::Wmma)
      return emitPlacedCopy(op, fragment, load,
                            fragment.matrixUse() == ir::MatrixUse::Accumulator
                                ? op.attrAs<ir::MatrixLayout>()
                            : layoutOf(fragment) == "row" ? ir::MatrixLayout::Row
                                                          : ir::MatrixLayout::Col);
    const ir::Value *array = op.operand(load ? 1 : 0);
    std::string pointer = name(op.operand(load ? 0 : 1), op);
    std::string layout = fragment.matrixUse() == ir::MatrixUse::Accumulator
                             ? std::string(ir::attributeName(op.attrAs<ir::MatrixLayout>()))
                             : layoutOf(fragment);
    std::string use = !load                                      ? "store.d"
                      : fragment.matrixUse() == ir::MatrixUse::A ? "load.a"
                      : fragment.matrixUse() == ir::MatrixUse::B ? "load.b"
                                                                 : "load.c";
    // Shared memory by its 32-bit window address, global by its generic one, local generically.
    ir::MemorySpace space = array->type().memorySpace();
    std::string data = name(array, op) + ".data";
    std::string address = space == ir::MemorySpace::Shared
                              ? "\"r\"(unsigned(__cvta_generic_to_shared(" + data + ")))"
                              : "\"l\"(" + data + ")";
    std::string spaceSuffix = space == ir::MemorySpace::Shared   ? ".shared"
                              : space == ir::MemorySpace::Global ? ".global"
                                                                 : "";
    unsigned registers = ptxFragmentRegisters(fragment);
    std::string instruction = "wmma." + use + ".sync.aligned." + layout + "." +
                              std::string(ir::matrixShapeName(fragment.matrixShape())) +
                              spaceSuffix + "." + std::string(ptxFragmentKind(fragment));
    std::string ldm = "\"r\"(u32(" + name(op.operand(2), op) + "))";
    if (load)
      return statement(op, "asm volatile(\"" + instruction + " " + registerList(0, registers) +
                               ", [%" + std::to_string(registers) + "], %" +
                               std::to_string(registers + 1) +
                               ";\" : " + commaSeparated(registerOperands(fragment, pointer, "=")) +
                               " : " + address + ", " + ldm + " : \"memory\");");
    std::vector<std::string> inputs{address};
    for (const std::string &operand : registerOperands(fragment, pointer, ""))
      inputs.push_back(operand);
    inputs.push_back(ldm);
    return statement(op, "asm volatile(\"" + instruction + " [%0], " + registerList(1, registers) +
                             ", %" + std::to_string(registers + 1) +
                             ";\" :: " + commaSeparated(inputs) + " : \"memory\");");
  }
  case Opcode::FragmentMma: {
    ir::Type a = op.operand(1)->type(), b = op.operand(2)->type();
    std::string accumulator(ptxFragmentKind(fragment)), input(ptxFragmentKind(a));
    std::string kinds = input == "f16"
                            ? accumulator + "." + accumulator
                            : accumulator + "." + input + "." + input + "." + accumulator;
    std::string shape(ir::matrixShapeName(fragment.matrixShape()));
    // mma.sync multiplies row-major A by column-major B registers whatever the memory's order.
    std::string instruction =
        ir::instructionOf(fragment.matrixShape()) == ir::MatrixInstruction::Mma
            ? "mma.sync.aligned." + shape + ".row.col." + accumulator + "." + input + "." + input +
                  "." + accumulator
            : "wmma.mma.sync.aligned." + layoutOf(a) + "." + layoutOf(b) + "." + shape + "." +
                  kinds;
    unsigned d = ptxFragmentRegisters(fragment), ra = ptxFragmentRegisters(a),
             rb = ptxFragmentRegisters(b);
    std::vector<std::string> inputs;
    for (auto [type, operand] : {std::pair{a, 1u}, {b, 2u}, {fragment, 3u}})
      for (const std::string &value : registerOperands(type, name(op.operand(operand), op), ""))
        inputs.push_back(value);
    return statement(
        op,
        "asm volatile(\"" + instruction + " " + registerList(0, d) + ", " + registerList(d, ra) +
            ", " + registerList(d + ra, rb) + ", " + registerList(d + ra + rb, d) +
            ";\" : " + commaSeparated(registerOperands(fragment, name(op.operand(0), op), "=")) +
            " : " + commaSeparated(inputs) + ");");
  }
  default:
    break;
  }
  throw CompileError(op.location(), "not a matrix fragment operation");
}

// Each thread's own elements (ir::elementPlacement), as the llvm backend copies them.
void FunctionEmitter::emitPlacedCopy(const ir::Operation &op, const ir::Type &fragment, bool load,
                                     ir::MatrixLayout layout) {
  std::string pointer = name(op.operand(load ? 0 : 1), op);
  std::string data = name(op.operand(load ? 1 : 0), op) + ".data";
  std::string ldm = name(op.operand(2), op);
  std::string text = "{ u32 t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * "
                     "threadIdx.z); i64 g = t % 32 / 4, l = t % 4, w = t / 32 % 4;";
  auto place = [](const ir::LanePlacement &placement) {
    std::string sum("(");
    sum.append(std::to_string(placement.group)).append(" * g + ");
    sum.append(std::to_string(placement.thread)).append(" * l + ");
    sum.append(std::to_string(placement.warp)).append(" * w + ");
    return sum.append(std::to_string(placement.offset)).append(")");
  };
  for (unsigned i = 0; i < ir::placedElements(fragment); ++i) {
    ir::ElementPlacement placement = ir::elementPlacement(fragment, i);
    std::string r = place(placement.row), c = place(placement.column);
    std::string element = data + "[" +
                          (layout == ir::MatrixLayout::Row ? r + " * " + ldm + " + " + c
                                                           : c + " * " + ldm + " + " + r) +
                          "]";
    std::string own = pointer + "->x[" + std::to_string(i) + "]";
    text.append(" ").append(load ? own + " = " + element : element + " = " + own).append(";");
  }
  statement(op, text + " }");
}

// The fence before every multiply (the llvm backend removes those between multiplies after
// unrolling; here nvcc's ptxas sees them all); the descriptors as PtxFragments.h makes them.
void FunctionEmitter::emitWarpgroupMma(const ir::Operation &op) {
  ir::Type accumulator = op.operand(0)->type();
  ir::MatrixShapeExtents extents = ir::extentsOf(accumulator.matrixShape());
  std::vector<std::string> descriptors;
  for (unsigned operand = 1; operand < 3; ++operand) {
    std::string matrix = name(op.operand(operand), op);
    std::string address = "u64(__cvta_generic_to_shared(" + matrix + ".data))";
    if (module_.boundsCheck()) {
      unsigned rows = operand == 1 ? extents.m : extents.n;
      for (unsigned d = 0; d < 2; ++d)
        statement(op, "kaji::checked_index(" + std::to_string(d == 0 ? rows - 1 : extents.k - 1) +
                          ", " + matrix + ".shape[" + std::to_string(d) + "], " +
                          module_.indexSite(op) + ", " + std::to_string(d) + ", false);");
      std::string elementSize =
          std::to_string(ir::byteSize(op.operand(operand)->type().scalarKind()));
      statement(op, "if (" + matrix + ".strides[0] != 128 || " + matrix +
                        ".strides[1] != " + elementSize + " || (" + address + " & 0x38F)) { " +
                        reportException(op, module_.misalignmentNumber(op)) +
                        " asm volatile(\"exit;\" ::: \"memory\"); }");
    }
    descriptors.push_back("(((" + address + " & 0x3FFFF) >> 4) | " +
                          std::to_string(kWarpgroupDescriptorBits) + "ull)");
  }
  unsigned count = ir::placedElements(accumulator);
  std::string pointer = name(op.operand(0), op);
  std::vector<std::string> outputs;
  for (unsigned i = 0; i < count; ++i)
    outputs.push_back("\"+f\"(" + pointer + "->x[" + std::to_string(i) + "])");
  std::string instruction = ptxWarpgroupMma(accumulator, op.operand(1)->type().scalarKind());
  statement(op, "asm volatile(\"wgmma.fence.sync.aligned;\" ::: \"memory\");");
  statement(op, "asm volatile(\"{ .reg .pred p; setp.ne.b32 p, %" + std::to_string(count + 2) +
                    ", 0; " + instruction + " " + registerList(0, count) + ", %" +
                    std::to_string(count) + ", %" + std::to_string(count + 1) +
                    ", p, 1, 1, 0, 0; }\" : " + commaSeparated(outputs) + " : \"l\"(" +
                    descriptors[0] + "), \"l\"(" + descriptors[1] + "), \"r\"(1) : \"memory\");");
}

// After a wait, every warpgroup accumulator of the function passes through an empty statement
// that reads and writes it, so that no read of an element moves above the wait.
void FunctionEmitter::emitWarpgroupSync(const ir::Operation &op) {
  if (op.opcode() == Opcode::WarpgroupCommit)
    return statement(op, "asm volatile(\"wgmma.commit_group.sync.aligned;\" ::: \"memory\");");
  statement(op, "asm volatile(\"wgmma.wait_group.sync.aligned " +
                    std::to_string(op.attrAs<int64_t>()) + ";\" ::: \"memory\");");
  for (const auto &block : function_.blocks())
    for (const auto &fragment : block->operations())
      if (fragment->opcode() == Opcode::Fragment &&
          ir::isWarpgroupShape(fragment->resultType().matrixShape())) {
        std::vector<std::string> operands;
        for (unsigned i = 0; i < ir::placedElements(fragment->resultType()); ++i)
          operands.push_back("\"+f\"(" + storage_.at(fragment.get()) + ".x[" + std::to_string(i) +
                             "])");
        statement(op, "asm volatile(\"\" : " + commaSeparated(operands) + ");");
      }
}

} // namespace kaji::codegen::nvrtc::emitter
