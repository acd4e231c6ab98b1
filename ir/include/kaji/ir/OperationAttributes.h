// The names the `bits`, `barrier_reduce` and `fence` operations take, from
// OperationAttributes.def: the one list of each.
#pragma once

#include <span>
#include <string_view>

namespace kaji::ir {

std::span<const std::string_view> bitFunctions();
std::span<const std::string_view> barrierReductions();
std::span<const std::string_view> fenceScopes();

// Whether `names` holds `name`.
bool isOneOf(std::span<const std::string_view> names, std::string_view name);

} // namespace kaji::ir
