#include "kaji/runtime/CpuWorkers.h"

#include <sched.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <stdexcept>
#include <string>
#include <thread>

namespace kaji::runtime {
namespace {

constexpr const char *kWorkersVariable = "KAJI_CPU_THREADS";

std::optional<uint64_t> parseUnsigned(std::string_view text) {
  uint64_t value = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size())
    return std::nullopt;
  return value;
}

std::optional<std::string> firstLine(const char *path) {
  std::ifstream file(path);
  std::string line;
  if (!file || !std::getline(file, line))
    return std::nullopt;
  return line;
}

unsigned affinityCpus() {
  // The mask grows until it holds every CPU the kernel knows of.
  for (int cpus = 1024; cpus <= (1 << 20); cpus *= 2) {
    cpu_set_t *mask = CPU_ALLOC(cpus);
    if (!mask)
      break;
    size_t bytes = CPU_ALLOC_SIZE(cpus);
    CPU_ZERO_S(bytes, mask);
    int result = sched_getaffinity(0, bytes, mask);
    int count = result == 0 ? CPU_COUNT_S(bytes, mask) : 0;
    CPU_FREE(mask);
    if (result == 0)
      return unsigned(std::max(count, 1));
    if (errno != EINVAL)
      break;
  }
  return std::max(1u, std::thread::hardware_concurrency());
}

std::optional<unsigned> cgroupQuota() {
  if (std::optional<std::string> line = firstLine("/sys/fs/cgroup/cpu.max"))
    return cpuMaxQuota(*line);
  std::optional<std::string> quota = firstLine("/sys/fs/cgroup/cpu/cpu.cfs_quota_us");
  std::optional<std::string> period = firstLine("/sys/fs/cgroup/cpu/cpu.cfs_period_us");
  if (!quota || !period || quota->starts_with("-"))
    return std::nullopt;
  return cpuMaxQuota(*quota + " " + *period);
}

} // namespace

std::optional<unsigned> cpuMaxQuota(std::string_view line) {
  size_t space = line.find(' ');
  if (space == std::string_view::npos)
    return std::nullopt;
  std::optional<uint64_t> quota = parseUnsigned(line.substr(0, space));
  std::optional<uint64_t> period = parseUnsigned(line.substr(space + 1));
  if (!quota || !period || *period == 0 || *quota == 0)
    return std::nullopt;
  uint64_t cpus = (*quota + *period - 1) / *period;
  return unsigned(std::min<uint64_t>(cpus, kMaxCpuWorkers));
}

unsigned availableCpus() {
  unsigned cpus = affinityCpus();
  if (std::optional<unsigned> quota = cgroupQuota())
    cpus = std::min(cpus, *quota);
  return std::max(cpus, 1u);
}

unsigned parseCpuWorkers(std::string_view text) {
  std::optional<uint64_t> workers = parseUnsigned(text);
  if (!workers || *workers == 0 || *workers > kMaxCpuWorkers)
    throw std::invalid_argument(std::string(kWorkersVariable) + "='" + std::string(text) +
                                "': the cpu target's worker threads must be a whole number in 1.." +
                                std::to_string(kMaxCpuWorkers));
  return unsigned(*workers);
}

unsigned defaultCpuWorkers() {
  const char *setting = std::getenv(kWorkersVariable);
  if (setting && *setting)
    return parseCpuWorkers(setting);
  return availableCpus();
}

} // namespace kaji::runtime
