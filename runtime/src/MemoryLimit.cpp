#include "kaji/runtime/MemoryLimit.h"

#include "kaji/runtime/Error.h"

#include <atomic>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <stdexcept>
#include <utility>

namespace kaji::runtime {

namespace {

constexpr const char *kLimitVariable = "KAJI_MEMORY_LIMIT";

struct LimitState {
  std::mutex mutex;
  bool consulted = false; // the environment was read, or setMemoryLimit overrode it
  std::optional<std::size_t> limit;
  std::string environmentError; // why $KAJI_MEMORY_LIMIT was refused
  std::atomic<std::size_t> inUse{0};
};

LimitState &state() {
  static LimitState limitState;
  return limitState;
}

void readEnvironment(LimitState &limitState) {
  limitState.consulted = true;
  const char *text = std::getenv(kLimitVariable);
  if (!text || !*text)
    return;
  try {
    limitState.limit = parseByteSize(text);
  } catch (const std::invalid_argument &error) {
    limitState.environmentError = std::string(kLimitVariable) + "='" + text + "': " + error.what();
  }
}

} // namespace

std::size_t parseByteSize(std::string_view text) {
  auto refuse = [&] {
    return std::invalid_argument("'" + std::string(text) +
                                 "' is not a byte size: write a number of bytes, optionally "
                                 "followed by KiB, MiB, GiB or TiB");
  };
  std::size_t position = 0;
  while (position < text.size() &&
         (std::isdigit(static_cast<unsigned char>(text[position])) || text[position] == '.'))
    ++position;
  std::string number(text.substr(0, position));
  if (number.empty() || number.find('.') != number.rfind('.') || number == ".")
    throw refuse();
  std::string_view suffix = text.substr(position);
  while (!suffix.empty() && suffix.front() == ' ')
    suffix.remove_prefix(1);
  constexpr std::pair<std::string_view, int> kSuffixes[] = {
      {"", 0},     {"B", 0},  {"K", 10},   {"KiB", 10}, {"M", 20},
      {"MiB", 20}, {"G", 30}, {"GiB", 30}, {"T", 40},   {"TiB", 40}};
  for (auto [spelling, shift] : kSuffixes) {
    if (suffix != spelling)
      continue;
    long double bytes = std::strtold(number.c_str(), nullptr) * std::ldexp(1.0L, shift);
    if (bytes >= std::ldexp(1.0L, 64))
      throw std::invalid_argument("'" + std::string(text) + "' is more bytes than fit in 64 bits");
    return std::size_t(bytes);
  }
  throw refuse();
}

std::string describeBytes(std::size_t bytes) {
  constexpr const char *kUnits[] = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  std::string text = std::to_string(bytes) + " bytes";
  if (bytes < 1024)
    return text;
  double scaled = double(bytes);
  int unit = -1;
  while (scaled >= 1024 && unit + 1 < int(std::size(kUnits))) {
    scaled /= 1024;
    ++unit;
  }
  char readable[32];
  std::snprintf(readable, sizeof readable, " (%.1f %s)", scaled, kUnits[unit]);
  return text + readable;
}

std::optional<std::size_t> memoryLimit() {
  LimitState &limitState = state();
  std::lock_guard lock(limitState.mutex);
  if (!limitState.consulted)
    readEnvironment(limitState);
  if (!limitState.environmentError.empty())
    throw std::invalid_argument(limitState.environmentError);
  return limitState.limit;
}

void setMemoryLimit(std::optional<std::size_t> bytes) {
  LimitState &limitState = state();
  std::lock_guard lock(limitState.mutex);
  limitState.consulted = true;
  limitState.environmentError.clear();
  limitState.limit = bytes;
}

std::size_t memoryInUse() { return state().inUse.load(); }

MemoryReservation::MemoryReservation(std::size_t bytes) {
  std::optional<std::size_t> limit = memoryLimit();
  std::atomic<std::size_t> &inUse = state().inUse;
  std::size_t before = inUse.load();
  // Reserving is one atomic step, so threads allocating together cannot pass the limit.
  do {
    if (limit && (bytes > *limit || before > *limit - bytes))
      throw OutOfMemory("cannot allocate " + describeBytes(bytes) + ": kaji's memory limit is " +
                        describeBytes(*limit) + " and " + describeBytes(before) +
                        " are in use (kaji.set_memory_limit or KAJI_MEMORY_LIMIT sets it)");
  } while (!inUse.compare_exchange_weak(before, before + bytes));
  bytes_ = bytes;
}

MemoryReservation::MemoryReservation(MemoryReservation &&other) noexcept
    : bytes_(std::exchange(other.bytes_, 0)) {}

MemoryReservation &MemoryReservation::operator=(MemoryReservation &&other) noexcept {
  if (this != &other) {
    state().inUse -= bytes_;
    bytes_ = std::exchange(other.bytes_, 0);
  }
  return *this;
}

MemoryReservation::~MemoryReservation() { state().inUse -= bytes_; }

} // namespace kaji::runtime
