#include "kaji/ir/WarpCollectives.h"

#include "FindByName.h"

namespace kaji::ir {
namespace {

constexpr WarpCollective kWarpCollectives[] = {
#define KAJI_WARP_COLLECTIVE(kind, name, form) {WarpCollectiveKind::kind, #name, WarpForm::form},
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

const WarpCollective &warpCollective(WarpCollectiveKind kind) {
  return kWarpCollectives[size_t(kind)];
}

const WarpCollective *findWarpCollective(std::string_view name) {
  return findByName<WarpCollective>(kWarpCollectives, name);
}

std::string_view attributeName(WarpCollectiveKind kind) { return warpCollective(kind).name; }

} // namespace kaji::ir
