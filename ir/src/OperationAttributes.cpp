#include "kaji/ir/OperationAttributes.h"

#include <span>

namespace kaji::ir {
namespace {

constexpr std::string_view kBitFunctions[] = {
#define KAJI_BIT_FUNCTION(kind, name) #name,
#include "kaji/ir/OperationAttributes.def"
};

constexpr std::string_view kBarrierReductions[] = {
#define KAJI_BARRIER_REDUCTION(kind, name) #name,
#include "kaji/ir/OperationAttributes.def"
};

constexpr std::string_view kFenceScopes[] = {
#define KAJI_FENCE_SCOPE(kind, name) #name,
#include "kaji/ir/OperationAttributes.def"
};

constexpr std::string_view kCacheOperators[] = {
#define KAJI_CACHE_OPERATOR(kind, name, loads, stores) #name,
#include "kaji/ir/OperationAttributes.def"
};

struct CacheOperatorAccesses {
  bool loads, stores;
};
constexpr CacheOperatorAccesses kCacheOperatorAccesses[] = {
#define KAJI_CACHE_OPERATOR(kind, name, loads, stores) {loads, stores},
#include "kaji/ir/OperationAttributes.def"
};

// The enumerator of the row spelled `name`: the enumerators follow the rows.
template <class Kind>
std::optional<Kind> findByName(std::span<const std::string_view> names, std::string_view name) {
  for (size_t i = 0; i < names.size(); ++i)
    if (names[i] == name)
      return Kind(i);
  return std::nullopt;
}

} // namespace

std::string_view attributeName(BitFunction function) { return kBitFunctions[size_t(function)]; }
std::string_view attributeName(BarrierReduction reduction) {
  return kBarrierReductions[size_t(reduction)];
}
std::string_view attributeName(FenceScope scope) { return kFenceScopes[size_t(scope)]; }
std::string_view attributeName(CacheOperator op) { return kCacheOperators[size_t(op)]; }

bool cacheOperatorApplies(CacheOperator op, bool load) {
  const CacheOperatorAccesses &accesses = kCacheOperatorAccesses[size_t(op)];
  return load ? accesses.loads : accesses.stores;
}

std::optional<BitFunction> findBitFunction(std::string_view name) {
  return findByName<BitFunction>(kBitFunctions, name);
}
std::optional<BarrierReduction> findBarrierReduction(std::string_view name) {
  return findByName<BarrierReduction>(kBarrierReductions, name);
}
std::optional<FenceScope> findFenceScope(std::string_view name) {
  return findByName<FenceScope>(kFenceScopes, name);
}
std::optional<CacheOperator> findCacheOperator(std::string_view name) {
  return findByName<CacheOperator>(kCacheOperators, name);
}

} // namespace kaji::ir
