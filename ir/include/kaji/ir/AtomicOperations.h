// The operations of the `atomic` operation, from AtomicOperations.def: the one list of them.
#pragma once

#include "kaji/ir/Type.h"

#include <span>
#include <string_view>

namespace kaji::ir {

enum class AtomicElements : unsigned char { Numbers, Integers, UnsignedIntegers, Floats };

struct AtomicOperation {
  std::string_view name; // the `atomic` operation's attribute
  AtomicElements elements;
  bool halfPrecision; // also float16 and bfloat16 elements

  // Whether elements of `kind` are ones this operation takes (their width aside: atomics act
  // on 32- and 64-bit elements, and 16-bit floats where halfPrecision).
  bool takes(ScalarKind kind) const;
};

std::span<const AtomicOperation> atomicOperations();
// Null when no atomic operation has this name.
const AtomicOperation *findAtomicOperation(std::string_view name);

} // namespace kaji::ir
