#include "kaji/driver/DiskCache.h"

#include <llvm/ADT/ArrayRef.h>
#include <llvm/Support/SHA256.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <mutex>
#include <system_error>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace kaji::driver {
namespace {

// An entry: magic, format version, key digest, payload length, payload digest, payload.
// Integers are little-endian; digests are raw SHA-256.
constexpr std::string_view entryMagic = "KAJICACH";
constexpr uint32_t entryFormatVersion = 1;
using Digest = std::array<uint8_t, 32>;
constexpr size_t payloadLengthOffset = entryMagic.size() + 4 + 32;
constexpr size_t headerSize = payloadLengthOffset + 8 + 32;
// Far above any kernel's PTX: an entry declaring more is damaged, not read.
constexpr uint64_t maxPayloadBytes = uint64_t(1) << 30;

struct Counters {
  std::atomic<uint64_t> hits{0}, misses{0}, rejected{0}, stores{0}, storeFailures{0};
};

Counters &counters() {
  static Counters instance;
  return instance;
}

Digest sha256(std::string_view bytes) {
  return llvm::SHA256::hash(
      llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(bytes.data()), bytes.size()));
}

std::string hex(const Digest &digest) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string text;
  for (uint8_t byte : digest) {
    text += digits[byte >> 4];
    text += digits[byte & 15];
  }
  return text;
}

void appendInteger(std::string &out, uint64_t value, unsigned bytes) {
  for (unsigned i = 0; i < bytes; ++i)
    out += char((value >> (8 * i)) & 0xff);
}

uint64_t readInteger(std::string_view in, unsigned bytes) {
  uint64_t value = 0;
  for (unsigned i = 0; i < bytes; ++i)
    value |= uint64_t(uint8_t(in[i])) << (8 * i);
  return value;
}

void appendDigest(std::string &out, const Digest &digest) {
  out.append(reinterpret_cast<const char *>(digest.data()), digest.size());
}

bool digestMatches(std::string_view in, const Digest &digest) {
  return in.substr(0, digest.size()) ==
         std::string_view(reinterpret_cast<const char *>(digest.data()), digest.size());
}

std::string encodeEntry(const Digest &keyDigest, std::string_view payload) {
  std::string entry;
  entry.reserve(headerSize + payload.size());
  entry += entryMagic;
  appendInteger(entry, entryFormatVersion, 4);
  appendDigest(entry, keyDigest);
  appendInteger(entry, payload.size(), 8);
  appendDigest(entry, sha256(payload));
  entry += payload;
  return entry;
}

// The payload of a well-formed entry for `keyDigest`; nothing for anything else.
std::optional<std::string> decodeEntry(std::string_view entry, const Digest &keyDigest) {
  if (entry.size() < headerSize || entry.substr(0, entryMagic.size()) != entryMagic)
    return std::nullopt;
  std::string_view rest = entry.substr(entryMagic.size());
  if (readInteger(rest, 4) != entryFormatVersion || !digestMatches(rest.substr(4), keyDigest))
    return std::nullopt;
  rest = rest.substr(4 + 32);
  uint64_t length = readInteger(rest, 8);
  std::string_view payload = entry.substr(headerSize);
  if (length != payload.size() || !digestMatches(rest.substr(8), sha256(payload)))
    return std::nullopt;
  return std::string(payload);
}

bool readFully(int fd, char *out, size_t size) {
  while (size > 0) {
    ssize_t got = read(fd, out, size);
    if (got < 0 && errno == EINTR)
      continue;
    if (got <= 0)
      return false;
    out += got;
    size -= size_t(got);
  }
  return true;
}

// The bytes of the entry file at `path`, read only once it is known to be a regular file
// (not a link, a FIFO, a device) whose size is what its header declares, within
// maxPayloadBytes: whatever sits under an entry's name costs at most a header's read.
// `found` says whether anything is there at all.
std::optional<std::string> readEntryFile(const std::filesystem::path &path, bool &found) {
  int fd = open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  found = fd >= 0 || errno != ENOENT;
  if (fd < 0)
    return std::nullopt;
  std::string entry(headerSize, '\0');
  struct stat info;
  bool sound = fstat(fd, &info) == 0 && S_ISREG(info.st_mode) &&
               uint64_t(info.st_size) >= headerSize &&
               uint64_t(info.st_size) - headerSize <= maxPayloadBytes &&
               readFully(fd, entry.data(), headerSize);
  uint64_t length = sound ? readInteger(std::string_view(entry).substr(payloadLengthOffset), 8) : 0;
  if (sound && length == uint64_t(info.st_size) - headerSize) {
    entry.resize(headerSize + length);
    sound = readFully(fd, entry.data() + headerSize, length);
  } else {
    sound = false;
  }
  close(fd);
  return sound ? std::optional(std::move(entry)) : std::nullopt;
}

void warnStoreFailedOnce(const std::filesystem::path &directory, const std::string &reason) {
  static std::once_flag warned;
  std::call_once(warned, [&] {
    std::cerr << "kaji: warning: cannot write the kernel cache in " << directory << " (" << reason
              << "); kernels are compiled without it\n";
  });
}

// A new, empty file beside `target` that no other writer uses; its path, or nothing.
std::optional<std::filesystem::path> createTemporaryFile(const std::filesystem::path &target,
                                                         std::string &reason) {
  std::string pattern = target.string() + ".tmp.XXXXXX";
  int fd = mkstemp(pattern.data());
  if (fd < 0) {
    reason = std::generic_category().message(errno);
    return std::nullopt;
  }
  close(fd);
  return std::filesystem::path(pattern);
}

} // namespace

CacheKey &CacheKey::add(std::string_view label, std::string_view value) {
  text_ += label;
  text_ += ' ';
  text_ += std::to_string(value.size());
  text_ += ':';
  text_ += value;
  text_ += '\n';
  return *this;
}

std::string CacheKey::digest() const { return hex(sha256(text_)); }

DiskCache::DiskCache(std::filesystem::path directory) : directory_(std::move(directory)) {}

std::filesystem::path DiskCache::defaultDirectory() {
  auto nonEmpty = [](const char *name) -> const char * {
    const char *value = std::getenv(name);
    return value && *value ? value : nullptr;
  };
  if (const char *dir = nonEmpty("KAJI_CACHE_DIR"))
    return dir;
  if (const char *dir = nonEmpty("XDG_CACHE_HOME"))
    return std::filesystem::path(dir) / "kaji";
  if (const char *home = nonEmpty("HOME"))
    return std::filesystem::path(home) / ".cache" / "kaji";
  return std::filesystem::temp_directory_path() / "kaji-cache";
}

DiskCacheStats DiskCache::stats() {
  const Counters &c = counters();
  return {c.hits.load(), c.misses.load(), c.rejected.load(), c.stores.load(),
          c.storeFailures.load()};
}

std::filesystem::path DiskCache::entryPath(const CacheKey &key) const {
  return directory_ / (key.digest() + ".kajicache");
}

std::optional<std::string>
DiskCache::load(const CacheKey &key, const std::function<bool(std::string_view)> &accept) const {
  std::filesystem::path path = entryPath(key);
  bool found;
  std::optional<std::string> entry = readEntryFile(path, found);
  std::optional<std::string> payload =
      entry ? decodeEntry(*entry, sha256(key.text())) : std::nullopt;
  if (payload && accept && !accept(*payload))
    payload.reset();
  if (payload) {
    ++counters().hits;
    return payload;
  }
  ++counters().misses;
  if (found) {
    ++counters().rejected;
    std::error_code ignored; // another process may have removed or replaced it already
    std::filesystem::remove(path, ignored);
  }
  return std::nullopt;
}

void DiskCache::store(const CacheKey &key, std::string_view payload) const {
  std::filesystem::path path = entryPath(key);
  std::string reason;
  std::error_code error;
  std::filesystem::create_directories(directory_, error);
  std::optional<std::filesystem::path> temporary =
      error ? std::nullopt : createTemporaryFile(path, reason);
  if (error)
    reason = error.message();
  if (temporary) {
    std::string entry = encodeEntry(sha256(key.text()), payload);
    std::ofstream file(*temporary, std::ios::binary | std::ios::trunc);
    file.write(entry.data(), std::streamsize(entry.size()));
    file.close();
    if (!file) {
      reason = "writing " + temporary->string() + " failed";
    } else {
      // rename() replaces the entry atomically: readers see the old file or the new one.
      std::filesystem::rename(*temporary, path, error);
      if (!error) {
        ++counters().stores;
        return;
      }
      reason = error.message();
    }
    std::filesystem::remove(*temporary, error);
  }
  ++counters().storeFailures;
  warnStoreFailedOnce(directory_, reason);
}

} // namespace kaji::driver
