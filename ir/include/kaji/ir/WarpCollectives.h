// The collectives of the `warp` operation, from WarpCollectives.def: the one list of them.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

namespace kaji::ir {

// The `warp` operation's attribute.
enum class WarpCollectiveKind : uint8_t {
#define KAJI_WARP_COLLECTIVE(kind, name, form) kind,
#include "kaji/ir/WarpCollectives.def"
#undef KAJI_WARP_COLLECTIVE
};

// What a collective takes and gives (WarpCollectives.def).
enum class WarpForm : unsigned char { ActiveMask, Ballot, Vote, Match, Shuffle };

struct WarpCollective {
  WarpCollectiveKind kind;
  std::string_view name; // its IR spelling
  WarpForm form;

  // Its operands: the mask, the value, and a shuffle's lane operand.
  unsigned operandCount() const;
};

const WarpCollective &warpCollective(WarpCollectiveKind kind);
// Null when no warp collective has this name.
const WarpCollective *findWarpCollective(std::string_view name);
std::string_view attributeName(WarpCollectiveKind kind);

} // namespace kaji::ir
