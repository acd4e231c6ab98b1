// The operations of the `atomic` operation, from AtomicOperations.def: the one list of them.
#pragma once

#include "kaji/ir/Type.h"

#include <cstdint>
#include <span>
#include <string_view>

namespace kaji::ir {

// The `atomic` operation's attribute.
enum class AtomicOperationKind : uint8_t {
#define KAJI_ATOMIC_OPERATION(kind, name, elements, halfPrecision) kind,
#include "kaji/ir/AtomicOperations.def"
#undef KAJI_ATOMIC_OPERATION
};

enum class AtomicElements : unsigned char { Numbers, Integers, UnsignedIntegers, Floats };

struct AtomicOperation {
  AtomicOperationKind kind;
  std::string_view name; // its IR spelling
  AtomicElements elements;
  bool halfPrecision; // also float16 and bfloat16 elements

  // Whether elements of `kind` are ones this operation takes (their width aside: atomics act
  // on 32- and 64-bit elements, and 16-bit floats where halfPrecision).
  bool takes(ScalarKind kind) const;
};

const AtomicOperation &atomicOperation(AtomicOperationKind kind);
// Null when no atomic operation has this name.
const AtomicOperation *findAtomicOperation(std::string_view name);
std::string_view attributeName(AtomicOperationKind kind);

} // namespace kaji::ir
