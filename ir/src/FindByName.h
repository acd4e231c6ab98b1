// The entry of a vocabulary table (MathFunctions.def, AtomicOperations.def, ...) named `name`.
#pragma once

#include <span>
#include <string_view>

namespace kaji::ir {

// Null when no entry of `table` has this name.
template <class Entry>
const Entry *findByName(std::span<const Entry> table, std::string_view name) {
  for (const Entry &entry : table)
    if (entry.name == name)
      return &entry;
  return nullptr;
}

} // namespace kaji::ir
