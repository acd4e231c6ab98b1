#include "kaji/ir/WarpCollectives.h"

#include "FindByName.h"

namespace kaji::ir {
namespace {

constexpr WarpCollective kWarpCollectives[] = {
#define KAJI_WARP_COLLECTIVE(name, form) {#name, WarpForm::form},
#include "kaji/ir/WarpCollectives.def"
#undef KAJI_WARP_COLLECTIVE
};

} // namespace

unsigned WarpCollective::operandCount() const {
  switch (form) {
  case WarpForm::ActiveMask:
    return 0;
  case WarpForm::Shuffle:
    return 3;
  case WarpForm::Ballot:
  case WarpForm::Vote:
  case WarpForm::Match:
    return 2;
  }
  return 0;
}

std::span<const WarpCollective> warpCollectives() { return kWarpCollectives; }

const WarpCollective *findWarpCollective(std::string_view name) {
  return findByName<WarpCollective>(kWarpCollectives, name);
}

} // namespace kaji::ir
