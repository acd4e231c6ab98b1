// The process-wide cap on the device memory kaji allocates ($KAJI_MEMORY_LIMIT).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace kaji::runtime {

// A process-wide cap on the device memory kaji allocates (device and managed buffers,
// counted while they live), so that a program shares a GPU politely or fails early. Unset by
// default; $KAJI_MEMORY_LIMIT sets it when first consulted.
//
// The limit in bytes, or nullopt when there is none. Throws std::invalid_argument naming
// KAJI_MEMORY_LIMIT when that variable does not parse (parseByteSize).
std::optional<std::size_t> memoryLimit();
// Replaces the limit (nullopt removes it), whatever the environment said. Buffers already
// allocated stay; only later allocations are checked.
void setMemoryLimit(std::optional<std::size_t> bytes);
// The bytes of the live buffers counted against the limit.
std::size_t memoryInUse();

// "1048576", "512MiB", "4 GiB", "1.5GiB": a byte count with an optional binary suffix (KiB,
// MiB, GiB, TiB; K, M, G, T mean the same). Throws std::invalid_argument for anything else.
std::size_t parseByteSize(std::string_view text);
// "1536 bytes (1.5 KiB)": a size for messages, exact and readable.
std::string describeBytes(std::size_t bytes);

// Bytes counted against the limit while this object lives. Construction throws OutOfMemory
// naming the limit, the size asked for and the bytes in use when they would pass it.
class MemoryReservation {
public:
  MemoryReservation() = default;
  explicit MemoryReservation(std::size_t bytes);
  MemoryReservation(MemoryReservation &&other) noexcept;
  MemoryReservation &operator=(MemoryReservation &&other) noexcept;
  MemoryReservation(const MemoryReservation &) = delete;
  MemoryReservation &operator=(const MemoryReservation &) = delete;
  ~MemoryReservation();

  std::size_t bytes() const { return bytes_; }

private:
  std::size_t bytes_ = 0;
};

} // namespace kaji::runtime
