// Memory in the emitted CUDA C++: atomics, array elements with or without bounds checks, the
// storage of shared, local and constant arrays, and views of arrays and of records' fields.
#include "kaji/ir/Constants.h"
#include "kaji/ir/RecordType.h"
#include "kaji/ir/StaticArrays.h"

#include "CommaSeparated.h"
#include "CudaEmitter.h"

#include <cassert>
#include <optional>

namespace kaji::codegen::nvrtc::emitter {

std::string FunctionEmitter::atomic(const ir::Operation &op) {
  // Verified: an operation of AtomicOperations.def on elements it takes.
  if (op.opcode() == Opcode::AtomicCAS)
    return "kaji::atomic_cas(" + element(op, 0, 3) + ", " + name(op.operand(1), op) + ", " +
           name(op.operand(2), op) + ")";
  return "kaji::atomic_" + std::string(ir::attributeName(op.attrAs<ir::AtomicOperationKind>())) +
         "(" + element(op, 0, 2) + ", " + name(op.operand(1), op) + ")";
}

// The index the kernel wrote where `index` is the frontend's wraparound of it into dimension
// `dim` of `array` (`i < 0 ? i + extent : i`, or `c + extent` for a negative constant `c`),
// else `index`. A bounds check takes the written one, as the LLVM lowering's does
// (FunctionLowering::checkedIndex): the report names it, and an index below -extent is not
// wrapped twice into range.
static const ir::Value *writtenIndex(const ir::Value *index, const ir::Value *array, unsigned dim) {
  auto isExtent = [&](const ir::Value *value) {
    const ir::Operation *definition = value->definingOp();
    return definition && definition->opcode() == Opcode::ArrayDim &&
           definition->operand(0) == array && definition->attrAs<int64_t>() == int64_t(dim);
  };
  // What `value` adds to the extent, if it is such a sum.
  auto addedToExtent = [&](const ir::Value *value) -> const ir::Value * {
    const ir::Operation *sum = value->definingOp();
    if (!sum || sum->opcode() != Opcode::Add)
      return nullptr;
    return isExtent(sum->operand(1))   ? sum->operand(0)
           : isExtent(sum->operand(0)) ? sum->operand(1)
                                       : nullptr;
  };
  const ir::Operation *definition = index->definingOp();
  if (!definition)
    return index;
  if (const ir::Value *addend = addedToExtent(index)) {
    std::optional<int64_t> constant = ir::intConstant(addend);
    return constant && *constant < 0 ? addend : index;
  }
  if (definition->opcode() != Opcode::Select)
    return index;
  const ir::Value *source = definition->operand(2);
  const ir::Operation *negative = definition->operand(0)->definingOp();
  bool wraps = negative && negative->opcode() == Opcode::Cmp &&
               negative->attrAs<ir::CmpPredicate>() == ir::CmpPredicate::Lt &&
               negative->operand(0) == source && ir::intConstant(negative->operand(1)) == 0 &&
               addedToExtent(definition->operand(1)) == source;
  return wraps ? source : index;
}

std::string FunctionEmitter::element(const ir::Operation &op, unsigned arrayOperand,
                                     unsigned firstIndex) {
  assert(op.numOperands() > arrayOperand && op.operand(arrayOperand)->type().isArray() &&
         "verified: an element access has an array operand");
  ir::Type type = op.operand(arrayOperand)->type();
  assert(op.numOperands() - firstIndex == type.ndim() && "verified: one index per dimension");
  if (type.ndim() == 0)
    return name(op.operand(arrayOperand), op) + ".data";
  const ir::Value *array = op.operand(arrayOperand);
  bool checked = module_.boundsCheck();
  std::string address =
      checked ? "kaji::checked_element(" + name(array, op) + ", " + module_.indexSite(op)
              : "kaji::element(" + name(array, op);
  for (unsigned i = firstIndex; i < op.numOperands(); ++i) {
    const ir::Value *index = op.operand(i);
    assert(index->type().isInteger() && "verified: an index is i64 or u64");
    address += ", " + name(checked ? writtenIndex(index, array, i - firstIndex) : index, op);
  }
  return address + ")";
}

namespace {

// The bits a cached access of `element` moves (a bool is a byte), and the prelude's function
// for it: kaji::load_cg_b32, kaji::store_wb_b8, ...
unsigned cachedBits(ScalarKind element) {
  return element == ScalarKind::Bool ? 8 : ir::bitWidth(element);
}

std::string cachedAccessFunction(const char *access, ir::CacheOperator cache, unsigned bits) {
  std::string function = "kaji::";
  function += access;
  function += '_';
  function += ir::attributeName(cache);
  function += "_b";
  function += std::to_string(bits);
  return function;
}

// The prelude's unsigned type of `bits` bits: u8, u16, u32, u64.
std::string unsignedTypeName(unsigned bits) {
  std::string type = "u";
  type += std::to_string(bits);
  return type;
}

} // namespace

std::string FunctionEmitter::cachedLoad(const ir::Operation &op, ir::CacheOperator cache) {
  ScalarKind kind = op.resultType().scalarKind();
  unsigned bits = cachedBits(kind);
  std::string read = unsignedTypeName(bits) + "(" + cachedAccessFunction("load", cache, bits) +
                     "(" + element(op, 0, 1) + "))";
  if (kind == ScalarKind::Bool)
    return "(" + read + " != 0)";
  return "kaji::bit_cast<" + scalarTypeName(kind) + ">(" + read + ")";
}

std::string FunctionEmitter::cachedStore(const ir::Operation &op, ir::CacheOperator cache) {
  ScalarKind kind = op.operand(0)->type().scalarKind();
  unsigned bits = cachedBits(kind);
  std::string unsignedBits = unsignedTypeName(bits);
  std::string value = name(op.operand(0), op);
  value = kind == ScalarKind::Bool ? unsignedBits + "(" + value + ")"
                                   : "kaji::bit_cast<" + unsignedBits + ">(" + value + ")";
  if (bits == 8) // st.b8 takes a 16-bit register
    value = "u16(" + value + ")";
  return cachedAccessFunction("store", cache, bits) + "(" + element(op, 1, 2) + ", " + value + ");";
}

void FunctionEmitter::emitStaticArray(const ir::Operation &op) {
  bool constant = op.opcode() == Opcode::ConstArray;
  ir::Type type = op.resultType();
  const std::vector<int64_t> &shape = ir::staticArrayShape(op);
  std::string data = constant ? module_.constantArray(op) : storage_.at(&op);
  std::vector<std::string> extents, strides;
  for (uint64_t stride : ir::staticArrayStrides(op))
    strides.push_back(std::to_string(stride));
  for (int64_t extent : shape)
    extents.push_back(std::to_string(extent));
  assign(op, arrayTypeName(type) + "{" + data + ", {" + commaSeparated(extents) + "}, {" +
                 commaSeparated(strides) + "}}");
}

void FunctionEmitter::emitArrayView(const ir::Operation &op) {
  // The offset is in bytes; a view as another dtype reads the same bytes.
  assignArray(op, "(char *)" + name(op.operand(0), op) + ".data + " + name(op.operand(1), op), 2);
}

void FunctionEmitter::emitArrayAt(const ir::Operation &op) {
  assignArray(op, "(char *)" + name(op.operand(0), op), 1);
}

void FunctionEmitter::assignArray(const ir::Operation &op, const std::string &start,
                                  unsigned firstExtent) {
  ir::Type type = op.resultType();
  std::vector<std::string> extents, strides;
  for (unsigned d = 0; d < type.ndim(); ++d) {
    extents.push_back(name(op.operand(firstExtent + d), op));
    strides.push_back(name(op.operand(firstExtent + type.ndim() + d), op));
  }
  assignView(op, start, std::move(extents), std::move(strides));
}

void FunctionEmitter::assignView(const ir::Operation &op, const std::string &start,
                                 std::vector<std::string> extents,
                                 std::vector<std::string> strides) {
  ir::Type type = op.resultType();
  if (type.ndim() == 0)
    extents = strides = {"0"};
  // std::string("("), not "(": GCC 12 warns falsely (-Wrestrict, bug 105329) about a literal
  // plus a returned std::string.
  std::string data = std::string("(") + elementTypeName(type) + " *)(" + start + ")";
  assign(op, arrayTypeName(type) + "{" + data + ", {" + commaSeparated(extents) + "}, {" +
                 commaSeparated(strides) + "}}");
}

// A field of records (arrays of records are arrays of bytes here): the records' extents and
// strides, then the field's own, from the field's first byte on.
void FunctionEmitter::emitField(const ir::Operation &op) {
  ir::Type records = op.operand(0)->type();
  const ir::RecordField &f = *records.record()->field(op.attrAs<std::string>());
  std::string source = name(op.operand(0), op);
  std::vector<std::string> extents, strides;
  for (unsigned d = 0; d < records.ndim(); ++d) {
    extents.push_back(source + ".shape[" + std::to_string(d) + "]");
    strides.push_back(source + ".strides[" + std::to_string(d) + "]");
  }
  for (int64_t extent : f.shape)
    extents.push_back(std::to_string(extent));
  for (int64_t stride : f.strides())
    strides.push_back(std::to_string(stride));
  assignView(op, "(char *)" + source + ".data + " + std::to_string(f.offset), std::move(extents),
             std::move(strides));
}

} // namespace kaji::codegen::nvrtc::emitter
