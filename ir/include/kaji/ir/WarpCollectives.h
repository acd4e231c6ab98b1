// The collectives of the `warp` operation, from WarpCollectives.def: the one list of them.
#pragma once

#include <span>
#include <string_view>

namespace kaji::ir {

// What a collective takes and gives (WarpCollectives.def).
enum class WarpForm : unsigned char { ActiveMask, Ballot, Vote, Match, Shuffle };

struct WarpCollective {
  std::string_view name; // the `warp` operation's attribute
  WarpForm form;

  // Its operands: the mask, the value, and a shuffle's lane operand.
  unsigned operandCount() const;
};

std::span<const WarpCollective> warpCollectives();
// Null when no warp collective has this name.
const WarpCollective *findWarpCollective(std::string_view name);

} // namespace kaji::ir
