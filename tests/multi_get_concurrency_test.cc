// Concurrent MultiGets on one table read through io_uring (and through the
// pread fallback), and the rings and descriptors such reads hold: bounded
// while the file is open, all released when it closes. Runs under TSan
// (label `threads`).

#include <dirent.h>

#include <cstdio>
#include <memory>
#include <random>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "bloomtable/cache.h"
#include "bloomtable/file.h"
#include "bloomtable/filter_policy.h"
#include "bloomtable/options.h"
#include "bloomtable/table.h"
#include "bloomtable/table_builder.h"
#include "gtest/gtest.h"
#include "tests/temp_dir.h"

namespace bloomtable {
namespace {

constexpr int kNumKeys = 4000;  // even i stored, odd i absent
constexpr int kThreads = 4;

std::string KeyOf(int i) {
  char key[32];
  std::snprintf(key, sizeof(key), "key%012d", i);
  return key;
}

std::string ValueOf(int i) { return "value-" + std::to_string(i * 31); }

// The table's file on disk.
std::string WriteTable(const TempDir& dir, const Options& options) {
  StringWritableFile contents;
  TableBuilder builder(options, &contents);
  for (int i = 0; i < kNumKeys; i += 2) {
    EXPECT_TRUE(builder.Add(KeyOf(i), ValueOf(i)).ok());
  }
  EXPECT_TRUE(builder.Finish().ok());
  const std::string path = dir.File("table");
  auto file = NewWritableFile(path);
  EXPECT_TRUE(file.ok());
  EXPECT_TRUE((*file)->Append(contents.contents()).ok());
  EXPECT_TRUE((*file)->Close().ok());
  return path;
}

// Descriptors this process has open.
int OpenDescriptors() {
  int count = 0;
  DIR* dir = ::opendir("/proc/self/fd");
  if (dir == nullptr) return -1;
  while (::readdir(dir) != nullptr) ++count;
  ::closedir(dir);
  return count;
}

TEST(MultiGetConcurrency, ThreadsShareATableThroughEveryReadPath) {
  TempDir dir;
  Options options;
  options.block_size = 1024;
  options.filter_policy = NewCacheLocalBloomFilterPolicy(10);
  options.filter_layout = FilterLayout::kWholeTable;
  const std::string path = WriteTable(dir, options);
  // A small cache: threads insert, find and evict each other's blocks.
  options.block_cache = NewLRUCache(16 * 1024);
  for (const bool io_uring : {true, false}) {
    SCOPED_TRACE(io_uring ? "io_uring" : "pread");
    RandomAccessFileOptions file_options;
    file_options.use_io_uring = io_uring;
    file_options.io_uring_queue_depth = 8;
    auto file = OpenRandomAccessFileWithOptions(path, file_options);
    ASSERT_TRUE(file.ok()) << file.status();
    auto size = GetFileSize(path);
    ASSERT_TRUE(size.ok());
    auto table = Table::Open(options, *std::move(file), *size);
    ASSERT_TRUE(table.ok()) << table.status();

    std::vector<int> wrong(kThreads, 0);
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
      threads.emplace_back([&, t] {
        std::mt19937 rng(100 + t);
        for (int round = 0; round < 40; ++round) {
          std::vector<int> ids;
          std::vector<std::string> keys;
          const size_t n = 1 + rng() % 64;
          for (size_t i = 0; i < n; ++i) {
            ids.push_back(static_cast<int>(rng() % kNumKeys));
            keys.push_back(KeyOf(ids.back()));
          }
          const std::vector<std::string_view> views(keys.begin(), keys.end());
          const auto results = (*table)->MultiGet(ReadOptions(), views);
          for (size_t i = 0; i < n; ++i) {
            const bool right =
                ids[i] % 2 == 0
                    ? results[i].ok() && *results[i] == ValueOf(ids[i])
                    : absl::IsNotFound(results[i].status());
            if (!right) ++wrong[t];
          }
        }
      });
    }
    for (std::thread& thread : threads) thread.join();
    for (int t = 0; t < kThreads; ++t) EXPECT_EQ(wrong[t], 0) << "thread " << t;
    EXPECT_GT((*table)->GetStats().data_block_reads, 0u);
  }
}

TEST(MultiReadConcurrency, RingsAndDescriptorsAreBoundedAndReleased) {
  TempDir dir;
  const std::string contents(512 * 1024, 'x');
  const std::string path = dir.File("data");
  {
    auto file = NewWritableFile(path);
    ASSERT_TRUE(file.ok());
    ASSERT_TRUE((*file)->Append(contents).ok());
    ASSERT_TRUE((*file)->Close().ok());
  }
  for (const bool direct : {false, true}) {
    SCOPED_TRACE(direct ? "direct" : "buffered");
    const int before = OpenDescriptors();
    ASSERT_GT(before, 0);
    {
      RandomAccessFileOptions options;
      options.use_direct_io = direct;
      options.io_uring_queue_depth = 4;
      auto file = OpenRandomAccessFileWithOptions(path, options);
      ASSERT_TRUE(file.ok()) << file.status();
      std::vector<int> wrong(kThreads, 0);
      std::vector<std::thread> threads;
      for (int t = 0; t < kThreads; ++t) {
        threads.emplace_back([&, t] {
          for (int round = 0; round < 30; ++round) {
            std::vector<std::string> scratch(16, std::string(4096, '\0'));
            std::vector<ReadRequest> requests(16);
            for (size_t i = 0; i < requests.size(); ++i) {
              requests[i].offset = (round * 16 + i) * 1000 % contents.size();
              requests[i].n = 4096;
              requests[i].scratch = scratch[i].data();
            }
            (*file)->MultiRead(requests.data(), requests.size());
            for (const ReadRequest& request : requests) {
              const std::string_view expected =
                  std::string_view(contents).substr(request.offset, 4096);
              if (!request.status.ok() || request.result != expected) {
                ++wrong[t];
              }
            }
          }
        });
      }
      for (std::thread& thread : threads) thread.join();
      for (int t = 0; t < kThreads; ++t) EXPECT_EQ(wrong[t], 0);
      // The file's descriptor and at most two idle rings (one descriptor
      // each), however many threads used rings at once.
      const int during = OpenDescriptors();
      EXPECT_GE(during, before + 1);
      EXPECT_LE(during, before + 1 + 2);
    }
    EXPECT_EQ(OpenDescriptors(), before);
  }
}

}  // namespace
}  // namespace bloomtable
