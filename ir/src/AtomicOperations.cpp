#include "kaji/ir/AtomicOperations.h"

#include "FindByName.h"

namespace kaji::ir {
namespace {

constexpr AtomicOperation kAtomicOperations[] = {
#define KAJI_ATOMIC_OPERATION(kind, name, elements, halfPrecision)                                 \
  {AtomicOperationKind::kind, #name, AtomicElements::elements, halfPrecision},
#include "kaji/ir/AtomicOperations.def"
#undef KAJI_ATOMIC_OPERATION
};

} // namespace

bool AtomicOperation::takes(ScalarKind kind) const {
  switch (elements) {
  case AtomicElements::Numbers:
    return isInteger(kind) || isFloat(kind);
  case AtomicElements::Integers:
    return isInteger(kind);
  case AtomicElements::UnsignedIntegers:
    return isInteger(kind) && !isSigned(kind);
  case AtomicElements::Floats:
    return isFloat(kind);
  }
  return false;
}

const AtomicOperation &atomicOperation(AtomicOperationKind kind) {
  return kAtomicOperations[size_t(kind)];
}

const AtomicOperation *findAtomicOperation(std::string_view name) {
  return findByName<AtomicOperation>(kAtomicOperations, name);
}

std::string_view attributeName(AtomicOperationKind kind) { return atomicOperation(kind).name; }

} // namespace kaji::ir
