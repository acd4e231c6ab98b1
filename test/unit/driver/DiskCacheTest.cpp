#include "kaji/driver/DiskCache.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <iterator>
#include <thread>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

namespace kaji::driver {
namespace {

namespace fs = std::filesystem;

class DiskCacheTest : public ::testing::Test {
protected:
  void SetUp() override {
    directory = fs::temp_directory_path() /
                ("kaji-disk-cache-test-" + std::to_string(getpid()) + "-" +
                 ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(directory);
  }
  void TearDown() override { fs::remove_all(directory); }

  static std::string readFile(const fs::path &path) {
    std::ifstream file(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
  }
  static void writeFile(const fs::path &path, const std::string &bytes) {
    std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
  }
  size_t filesInDirectory() const {
    return size_t(std::distance(fs::directory_iterator(directory), fs::directory_iterator()));
  }

  fs::path directory;
  CacheKey key = CacheKey().add("source", "def k(a): a[0] = 1").add("arch", "sm_90");
};

TEST(CacheKeyTest, DigestIsSha256OfTheFieldText) {
  CacheKey key;
  EXPECT_EQ(key.digest(), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  key.add("a", "bc");
  EXPECT_EQ(key.text(), "a 2:bc\n");
}

TEST(CacheKeyTest, FieldBoundariesChangeTheDigest) {
  EXPECT_NE(CacheKey().add("a", "bc").digest(), CacheKey().add("ab", "c").digest());
  EXPECT_NE(CacheKey().add("x", "1").add("x", "2").digest(), CacheKey().add("x", "12").digest());
}

TEST_F(DiskCacheTest, StoredPayloadLoadsBack) {
  DiskCache cache(directory);
  EXPECT_FALSE(cache.load(key));
  std::string payload("k\n\n.version 8.0\0binary", 22);
  cache.store(key, payload);
  EXPECT_EQ(cache.load(key), payload);
  EXPECT_EQ(cache.entryPath(key).parent_path(), directory);
  EXPECT_EQ(filesInDirectory(), 1u);
}

TEST_F(DiskCacheTest, OtherKeyMisses) {
  DiskCache cache(directory);
  cache.store(key, "ptx");
  EXPECT_FALSE(cache.load(CacheKey(key).add("fastmath", "1")));
}

TEST_F(DiskCacheTest, EveryTruncationIsAMissAndRemovesTheEntry) {
  DiskCache cache(directory);
  cache.store(key, "some ptx text");
  std::string entry = readFile(cache.entryPath(key));
  for (size_t length = 0; length < entry.size(); ++length) {
    writeFile(cache.entryPath(key), entry.substr(0, length));
    EXPECT_FALSE(cache.load(key)) << "truncated to " << length << " bytes";
    EXPECT_FALSE(fs::exists(cache.entryPath(key)));
  }
}

TEST_F(DiskCacheTest, EveryFlippedByteIsAMiss) {
  DiskCache cache(directory);
  cache.store(key, "some ptx text");
  std::string entry = readFile(cache.entryPath(key));
  DiskCacheStats before = DiskCache::stats();
  for (size_t i = 0; i < entry.size(); ++i) {
    std::string damaged = entry;
    damaged[i] ^= 0x20;
    writeFile(cache.entryPath(key), damaged);
    EXPECT_FALSE(cache.load(key)) << "byte " << i << " changed";
  }
  EXPECT_EQ(DiskCache::stats().rejected - before.rejected, entry.size());
}

// Each is refused from its header or its file type, without reading what lies beyond: a
// link to /dev/zero would otherwise be read until memory runs out, and a FIFO block forever.
TEST_F(DiskCacheTest, WhatIsNotARegularEntryFileIsRejectedAndRemovedUnread) {
  DiskCache cache(directory);
  cache.store(key, "some ptx text");
  fs::path path = cache.entryPath(key);
  std::string entry = readFile(path);
  std::string hugeLength = entry;
  hugeLength.replace(44, 8, std::string("\0\0\0\0\0\0\0\x40", 8));
  std::vector<std::pair<std::string, std::function<void()>>> damages = {
      {"symlink to /dev/zero", [&] { fs::create_symlink("/dev/zero", path); }},
      {"fifo", [&] { ASSERT_EQ(mkfifo(path.c_str(), 0600), 0); }},
      {"directory", [&] { fs::create_directory(path); }},
      {"huge declared length", [&] { writeFile(path, hugeLength); }},
      {"longer than declared", [&] { writeFile(path, entry + "tail"); }},
  };
  for (const auto &[name, damage] : damages) {
    fs::remove(path);
    damage();
    DiskCacheStats before = DiskCache::stats();
    EXPECT_FALSE(cache.load(key)) << name;
    EXPECT_EQ(DiskCache::stats().rejected - before.rejected, 1u) << name;
    EXPECT_FALSE(fs::exists(fs::symlink_status(path))) << name;
  }
}

TEST_F(DiskCacheTest, APayloadTheCallerCannotDecodeIsAMissNotAHit) {
  DiskCache cache(directory);
  cache.store(key, "undecodable");
  DiskCacheStats before = DiskCache::stats();
  EXPECT_FALSE(cache.load(key, [](std::string_view) { return false; }));
  DiskCacheStats after = DiskCache::stats();
  EXPECT_EQ(after.hits - before.hits, 0u);
  EXPECT_EQ(after.misses - before.misses, 1u);
  EXPECT_EQ(after.rejected - before.rejected, 1u);
  EXPECT_FALSE(fs::exists(cache.entryPath(key)));
}

TEST_F(DiskCacheTest, AnEntryCopiedUnderAnotherKeyIsRejected) {
  DiskCache cache(directory);
  CacheKey other = CacheKey(key).add("opt", "0");
  cache.store(key, "ptx of key");
  fs::copy_file(cache.entryPath(key), cache.entryPath(other));
  EXPECT_FALSE(cache.load(other));
}

TEST_F(DiskCacheTest, StoreReplacesAnEntryWithoutLeavingTemporaries) {
  DiskCache cache(directory);
  cache.store(key, "first");
  cache.store(key, "second, longer");
  EXPECT_EQ(cache.load(key), "second, longer");
  EXPECT_EQ(filesInDirectory(), 1u);
}

TEST_F(DiskCacheTest, ConcurrentWritersLeaveOneWholeEntry) {
  DiskCache cache(directory);
  std::vector<std::string> payloads;
  for (int i = 0; i < 8; ++i)
    payloads.push_back(std::string(size_t(100000 + i), char('a' + i)));
  std::vector<std::thread> writers;
  for (const std::string &payload : payloads)
    writers.emplace_back([&] {
      for (int round = 0; round < 5; ++round)
        cache.store(key, payload);
    });
  for (std::thread &writer : writers)
    writer.join();
  std::optional<std::string> loaded = cache.load(key);
  ASSERT_TRUE(loaded);
  EXPECT_NE(std::find(payloads.begin(), payloads.end(), *loaded), payloads.end());
  EXPECT_EQ(filesInDirectory(), 1u);
}

TEST_F(DiskCacheTest, UnwritableDirectoryIsCountedNotThrown) {
  // A directory under a regular file cannot be created, even by root.
  fs::create_directories(directory);
  writeFile(directory / "file", "");
  DiskCache cache(directory / "file" / "cache");
  DiskCacheStats before = DiskCache::stats();
  EXPECT_NO_THROW(cache.store(key, "ptx"));
  EXPECT_EQ(DiskCache::stats().storeFailures - before.storeFailures, 1u);
  EXPECT_FALSE(cache.load(key));
}

// Sets an environment variable for one scope, restoring it after.
class ScopedEnv {
public:
  ScopedEnv(const char *name, const char *value) : name_(name) {
    if (const char *old = std::getenv(name))
      old_ = old;
    if (value)
      setenv(name, value, 1);
    else
      unsetenv(name);
  }
  ~ScopedEnv() {
    if (old_)
      setenv(name_, old_->c_str(), 1);
    else
      unsetenv(name_);
  }

private:
  const char *name_;
  std::optional<std::string> old_;
};

TEST(DiskCacheDirectoryTest, KajiCacheDirThenXdgCacheHomeThenHome) {
  ScopedEnv home("HOME", "/home/someone");
  {
    ScopedEnv kaji("KAJI_CACHE_DIR", "/tmp/kaji-a");
    ScopedEnv xdg("XDG_CACHE_HOME", "/tmp/xdg");
    EXPECT_EQ(DiskCache::defaultDirectory(), fs::path("/tmp/kaji-a"));
  }
  {
    ScopedEnv kaji("KAJI_CACHE_DIR", nullptr);
    ScopedEnv xdg("XDG_CACHE_HOME", "/tmp/xdg");
    EXPECT_EQ(DiskCache::defaultDirectory(), fs::path("/tmp/xdg/kaji"));
  }
  ScopedEnv kaji("KAJI_CACHE_DIR", "");
  ScopedEnv xdg("XDG_CACHE_HOME", nullptr);
  EXPECT_EQ(DiskCache::defaultDirectory(), fs::path("/home/someone/.cache/kaji"));
}

} // namespace
} // namespace kaji::driver
