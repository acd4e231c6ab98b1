// The on-disk cache of compiled kernels: one file per key in a directory shared by every
// process of the user. Entries are written atomically (a temporary file renamed into place)
// and verified on read; a damaged entry is a miss and is removed, never trusted. Failing to
// write (read-only directory, disk full) never fails a compile.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace kaji::driver {

// Everything a cached artifact depends on, as labelled fields; entries are keyed on the
// SHA-256 of this text. Fields are length-prefixed, so different field lists never collide.
class CacheKey {
public:
  CacheKey &add(std::string_view label, std::string_view value);
  const std::string &text() const { return text_; }
  // The SHA-256 of text(), 64 lowercase hex digits.
  std::string digest() const;

private:
  std::string text_;
};

// Counts over every DiskCache of this process since it started.
struct DiskCacheStats {
  uint64_t hits = 0;
  uint64_t misses = 0;        // no entry, or a damaged one (counted in `rejected` too)
  uint64_t rejected = 0;      // entries that failed verification and were removed
  uint64_t stores = 0;        // entries written
  uint64_t storeFailures = 0; // entries that could not be written
};

class DiskCache {
public:
  explicit DiskCache(std::filesystem::path directory);

  // $KAJI_CACHE_DIR, else $XDG_CACHE_HOME/kaji, else ~/.cache/kaji (read at each call).
  static std::filesystem::path defaultDirectory();
  static DiskCacheStats stats();

  const std::filesystem::path &directory() const { return directory_; }
  // Where the entry for `key` lives, whether or not it exists.
  std::filesystem::path entryPath(const CacheKey &key) const;

  // The payload stored under `key`, or nothing if there is none, or what is there is not a
  // regular file of the size its header declares, fails verification, or is refused by
  // `accept` (the caller's decoding): then it is removed and counted as rejected, a miss.
  // Never throws for anything found on disk, and never reads more than the header declares.
  std::optional<std::string>
  load(const CacheKey &key, const std::function<bool(std::string_view)> &accept = nullptr) const;
  // Stores `payload` under `key`, replacing any entry atomically. Never throws: a failure is
  // counted and reported once per process on stderr, and the caller goes on without it.
  void store(const CacheKey &key, std::string_view payload) const;

private:
  std::filesystem::path directory_;
};

} // namespace kaji::driver
