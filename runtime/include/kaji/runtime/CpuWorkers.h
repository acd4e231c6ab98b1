// How many OS threads run the cpu target's blocks.
#pragma once

#include <optional>
#include <string_view>

namespace kaji::runtime {

// The most workers KAJI_CPU_THREADS may ask for.
inline constexpr unsigned kMaxCpuWorkers = 4096;

// The CPUs this process may run on: those of its affinity mask, fewer when its cgroup's CPU
// quota (cgroup v2 cpu.max, v1 cpu.cfs_quota_us) is fewer whole CPUs; at least 1.
unsigned availableCpus();

// $KAJI_CPU_THREADS when it is set and not empty, else availableCpus(). Throws
// std::invalid_argument naming the variable and its value when that is not a whole number in
// 1..kMaxCpuWorkers.
unsigned defaultCpuWorkers();

// A KAJI_CPU_THREADS value; throws std::invalid_argument as defaultCpuWorkers does.
unsigned parseCpuWorkers(std::string_view text);

// The whole CPUs (rounded up, at least 1) a cgroup v2 cpu.max line ("<quota> <period>", or
// "max <period>" for no quota) allows; nullopt for no quota or a line it cannot read.
std::optional<unsigned> cpuMaxQuota(std::string_view line);

} // namespace kaji::runtime
