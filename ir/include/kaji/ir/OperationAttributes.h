// The attributes of the `bits`, `barrier_reduce` and `fence` operations and the cache
// operators of `load` and `store`, from
// OperationAttributes.def: the one list of each.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace kaji::ir {

enum class BitFunction : uint8_t {
#define KAJI_BIT_FUNCTION(kind, name) kind,
#include "kaji/ir/OperationAttributes.def"
};

enum class BarrierReduction : uint8_t {
#define KAJI_BARRIER_REDUCTION(kind, name) kind,
#include "kaji/ir/OperationAttributes.def"
};

enum class FenceScope : uint8_t {
#define KAJI_FENCE_SCOPE(kind, name) kind,
#include "kaji/ir/OperationAttributes.def"
};

enum class CacheOperator : uint8_t {
#define KAJI_CACHE_OPERATOR(kind, name, loads, stores) kind,
#include "kaji/ir/OperationAttributes.def"
};

// Whether a load (else a store) takes the cache operator `op`.
bool cacheOperatorApplies(CacheOperator op, bool load);

// Each attribute's IR spelling, and back (nullopt for a name none has).
std::string_view attributeName(BitFunction function);
std::string_view attributeName(BarrierReduction reduction);
std::string_view attributeName(FenceScope scope);
std::string_view attributeName(CacheOperator op);
std::optional<BitFunction> findBitFunction(std::string_view name);
std::optional<BarrierReduction> findBarrierReduction(std::string_view name);
std::optional<FenceScope> findFenceScope(std::string_view name);
std::optional<CacheOperator> findCacheOperator(std::string_view name);

} // namespace kaji::ir
