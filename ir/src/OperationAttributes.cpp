#include "kaji/ir/OperationAttributes.h"

#include <algorithm>

namespace kaji::ir {
namespace {

constexpr std::string_view kBitFunctions[] = {
#define KAJI_BIT_FUNCTION(name) #name,
#include "kaji/ir/OperationAttributes.def"
};

constexpr std::string_view kBarrierReductions[] = {
#define KAJI_BARRIER_REDUCTION(name) #name,
#include "kaji/ir/OperationAttributes.def"
};

constexpr std::string_view kFenceScopes[] = {
#define KAJI_FENCE_SCOPE(name) #name,
#include "kaji/ir/OperationAttributes.def"
};

} // namespace

std::span<const std::string_view> bitFunctions() { return kBitFunctions; }
std::span<const std::string_view> barrierReductions() { return kBarrierReductions; }
std::span<const std::string_view> fenceScopes() { return kFenceScopes; }

bool isOneOf(std::span<const std::string_view> names, std::string_view name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

} // namespace kaji::ir
