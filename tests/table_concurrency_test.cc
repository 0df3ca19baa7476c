// One Table shared by many threads: Gets (present and absent keys),
// iterators, ApproximateOffsetOf and GetStats at once, without external
// locking (docs/DESIGN.md, "Reading a table"). Every answer and the counters'
// totals are checked. Run under the tsan preset in CI, which picks the tests
// whose names contain "Concurren"; sized to finish in seconds there.

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "bloomtable/file.h"
#include "bloomtable/filter_policy.h"
#include "bloomtable/options.h"
#include "bloomtable/table.h"
#include "bloomtable/table_builder.h"
#include "gtest/gtest.h"
#include "tests/table_test_policies.h"

namespace bloomtable {
namespace {

constexpr int kEntries = 3000;
constexpr int kThreads = 8;

// Near-miss keys (docs/DESIGN.md): the table holds the even ones.
std::string Key(int i) { return absl::StrFormat("%016d", i); }
std::string ValueFor(int i) {
  return absl::StrCat("value of ", i, std::string(i % 50, 'a' + i % 26));
}

std::string BuildTable(const Options& options) {
  StringWritableFile file;
  TableBuilder builder(options, &file);
  for (int i = 0; i < kEntries; ++i) {
    EXPECT_TRUE(builder.Add(Key(2 * i), ValueFor(2 * i)).ok());
  }
  EXPECT_TRUE(builder.Finish().ok());
  return file.contents();
}

Options TableOptions() {
  Options options;
  options.block_size = 1024;
  options.filter_policy = NewLevelDBBloomFilterPolicy(10);
  return options;
}

std::unique_ptr<Table> OpenTable(const Options& options,
                                 const std::string& contents) {
  auto table = Table::Open(options, NewMemoryRandomAccessFile(contents),
                           contents.size());
  EXPECT_TRUE(table.ok()) << table.status();
  return table.ok() ? std::move(*table) : nullptr;
}

// Collects the first problems the worker threads meet; the main thread
// reports them.
class Problems {
 public:
  void Add(std::string problem) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (problems_.size() < 10) problems_.push_back(std::move(problem));
  }
  std::string Report() {
    std::lock_guard<std::mutex> lock(mutex_);
    std::string report;
    for (const std::string& problem : problems_) report += "\n  " + problem;
    return report;
  }

 private:
  std::mutex mutex_;
  std::vector<std::string> problems_;
};

// Runs `work(thread_index)` on `threads` threads released together.
template <typename Work>
void RunTogether(int threads, Work work) {
  std::atomic<int> ready{0};
  std::vector<std::thread> running;
  for (int t = 0; t < threads; ++t) {
    running.emplace_back([&, t] {
      ready.fetch_add(1);
      while (ready.load() < threads) std::this_thread::yield();
      work(t);
    });
  }
  for (std::thread& thread : running) thread.join();
}

bool StatsNotBelow(const TableStats& now, const TableStats& before) {
  return now.filter_checks >= before.filter_checks &&
         now.filter_negatives >= before.filter_negatives &&
         now.data_block_reads >= before.data_block_reads &&
         now.bytes_read >= before.bytes_read &&
         now.checksum_failures >= before.checksum_failures;
}

TEST(TableConcurrency, ManyThreadsGetIterateAndReadStatsAtOnce) {
  const Options options = TableOptions();
  const std::string contents = BuildTable(options);
  std::unique_ptr<Table> table = OpenTable(options, contents);
  ASSERT_NE(table, nullptr);
  constexpr int kRounds = 1500;
  Problems problems;

  RunTogether(kThreads, [&](int thread_index) {
    uint64_t state = 0x9e3779b97f4a7c15ull * (thread_index + 1);
    auto next_random = [&state] {
      state ^= state << 13;
      state ^= state >> 7;
      state ^= state << 17;
      return state;
    };
    TableStats last_seen = table->GetStats();
    std::string value;
    for (int round = 0; round < kRounds; ++round) {
      const int i = static_cast<int>(next_random() % kEntries);
      absl::Status status = table->Get(ReadOptions(), Key(2 * i), &value);
      if (!status.ok() || value != ValueFor(2 * i)) {
        problems.Add(
            absl::StrCat("Get(", Key(2 * i), "): ", status.ToString()));
      }
      absl::StatusOr<std::string> absent =
          table->Get(ReadOptions(), Key(2 * i + 1));
      if (!absl::IsNotFound(absent.status())) {
        problems.Add(
            absl::StrCat("Get(", Key(2 * i + 1),
                         ") of an absent key: ", absent.status().ToString()));
      }

      if (round % 16 == 0) {
        // A short walk forward from a random key, then one step back.
        std::unique_ptr<Iterator> it = table->NewIterator(ReadOptions());
        it->Seek(Key(2 * i + 1));
        for (int j = i + 1; j < std::min(i + 20, kEntries); ++j) {
          if (!it->Valid() || it->key() != Key(2 * j) ||
              it->value() != ValueFor(2 * j)) {
            problems.Add(absl::StrCat("iterator after Seek(", Key(2 * i + 1),
                                      ") is wrong at ", Key(2 * j)));
            break;
          }
          it->Next();
        }
        if (i + 20 < kEntries) {
          // Now at entry i + 20; one step back is entry i + 19.
          if (it->Valid()) it->Prev();
          if (!it->Valid() || it->key() != Key(2 * (i + 19))) {
            problems.Add("Prev after Next lands wrong");
          }
        }
        if (!it->status().ok()) problems.Add(it->status().ToString());
      }

      if (round % 64 == 0) {
        const TableStats now = table->GetStats();
        if (!StatsNotBelow(now, last_seen)) {
          problems.Add("a counter went backwards");
        }
        last_seen = now;
        const uint64_t low = table->ApproximateOffsetOf(Key(2 * i));
        const uint64_t high = table->ApproximateOffsetOf(Key(2 * i + 400));
        if (low > high || high > contents.size()) {
          problems.Add("ApproximateOffsetOf is not monotonic");
        }
      }
    }

    if (thread_index == 0) {
      // One thread walks the whole table forward, another backward.
      std::unique_ptr<Iterator> it = table->NewIterator(ReadOptions());
      int count = 0;
      for (it->SeekToFirst(); it->Valid(); it->Next(), ++count) {
        if (it->key() != Key(2 * count)) {
          problems.Add(absl::StrCat("full scan wrong at entry ", count));
          break;
        }
      }
      if (count != kEntries || !it->status().ok()) {
        problems.Add(absl::StrCat("full scan saw ", count, " entries"));
      }
    } else if (thread_index == 1) {
      std::unique_ptr<Iterator> it = table->NewIterator(ReadOptions());
      int count = 0;
      for (it->SeekToLast(); it->Valid(); it->Prev(), ++count) {
        if (it->key() != Key(2 * (kEntries - 1 - count))) {
          problems.Add(absl::StrCat("backward scan wrong at entry ", count));
          break;
        }
      }
      if (count != kEntries || !it->status().ok()) {
        problems.Add(absl::StrCat("backward scan saw ", count, " entries"));
      }
    }
  });

  EXPECT_EQ(problems.Report(), "");
  const TableStats stats = table->GetStats();
  EXPECT_EQ(stats.checksum_failures, 0u);
  // Every present-key lookup asks the filter (absent keys past the last
  // one may be answered by the index alone).
  EXPECT_GE(stats.filter_checks, uint64_t{kThreads} * kRounds);
  EXPECT_GT(stats.filter_negatives, 0u);
}

TEST(TableConcurrency, CountersAddUpAcrossThreads) {
  // The same lookups on two copies of a table, one from many threads at
  // once and one from a single thread, must count exactly the same: the
  // filter's answers are deterministic, and no update may be lost.
  const Options options = TableOptions();
  const std::string contents = BuildTable(options);
  std::unique_ptr<Table> shared = OpenTable(options, contents);
  std::unique_ptr<Table> alone = OpenTable(options, contents);
  ASSERT_NE(shared, nullptr);
  ASSERT_NE(alone, nullptr);
  constexpr int kLookupsPerThread = 1000;

  // Thread t looks up keys t, t + kThreads, ...: even keys are present,
  // odd ones absent; none past the last key, so every lookup reaches the
  // filter.
  auto lookups = [&](const Table& table, int thread_index, Problems* problems) {
    std::string value;
    for (int n = 0; n < kLookupsPerThread; ++n) {
      const int key = (thread_index + n * kThreads) % (2 * kEntries - 1);
      absl::Status status = table.Get(ReadOptions(), Key(key), &value);
      const bool present = key % 2 == 0;
      if (present ? !status.ok() : !absl::IsNotFound(status)) {
        problems->Add(absl::StrCat("Get(", Key(key), "): ", status.ToString()));
      }
    }
  };
  Problems problems;
  RunTogether(kThreads, [&](int t) { lookups(*shared, t, &problems); });
  for (int t = 0; t < kThreads; ++t) lookups(*alone, t, &problems);
  EXPECT_EQ(problems.Report(), "");

  const TableStats together = shared->GetStats();
  const TableStats single = alone->GetStats();
  const uint64_t total = uint64_t{kThreads} * kLookupsPerThread;
  EXPECT_EQ(together.filter_checks, total);
  EXPECT_EQ(together.filter_checks, single.filter_checks);
  EXPECT_EQ(together.filter_negatives, single.filter_negatives);
  EXPECT_EQ(together.data_block_reads, single.data_block_reads);
  EXPECT_EQ(together.bytes_read, single.bytes_read);
  EXPECT_EQ(together.checksum_failures, 0u);
  // Each lookup read one block or was answered by the filter alone.
  EXPECT_EQ(together.filter_negatives + together.data_block_reads, total);
  EXPECT_GT(together.filter_negatives, total / 4);
}

// Both filter layouts, with a test policy that rejects nearly every absent
// key: every key present and absent from 4 threads, then full walks.
std::unique_ptr<Table> BuildAndOpenWithLayout(FilterLayout layout) {
  constexpr int kKeys = 2000;
  Options options;
  options.block_size = 512;
  options.filter_policy = testing_policies::NewHashListPolicy();
  options.filter_layout = layout;
  StringWritableFile file;
  TableBuilder builder(options, &file);
  for (int i = 0; i < kKeys; i += 2) {
    EXPECT_TRUE(
        builder.Add(absl::StrCat("key", 100000 + i), absl::StrCat("value", i))
            .ok());
  }
  EXPECT_TRUE(builder.Finish().ok());
  return OpenTable(options, file.contents());
}

TEST(TableConcurrency, ManyThreadsGetAndIterateOneTableInEitherFilterLayout) {
  constexpr int kKeys = 2000;
  constexpr int kLayoutThreads = 4;
  for (FilterLayout layout :
       {FilterLayout::kPerBlock, FilterLayout::kWholeTable}) {
    std::unique_ptr<Table> table = BuildAndOpenWithLayout(layout);
    ASSERT_NE(table, nullptr);
    std::atomic<int> errors{0};
    RunTogether(kLayoutThreads, [&](int t) {
      std::string value;
      // Every key, present (even) and absent (odd), from a different
      // starting point in each thread.
      for (int n = 0; n < kKeys; ++n) {
        const int i = (n + t * 397) % kKeys;
        absl::Status status =
            table->Get(ReadOptions(), absl::StrCat("key", 100000 + i), &value);
        const bool ok = (i % 2 == 0)
                            ? status.ok() && value == absl::StrCat("value", i)
                            : absl::IsNotFound(status);
        if (!ok) errors.fetch_add(1);
      }
      // A full forward and backward walk.
      auto it = table->NewIterator(ReadOptions());
      int count = 0;
      for (it->SeekToFirst(); it->Valid(); it->Next()) ++count;
      for (it->SeekToLast(); it->Valid(); it->Prev()) ++count;
      if (count != kKeys || !it->status().ok()) errors.fetch_add(1);
    });
    EXPECT_EQ(errors.load(), 0);
    const TableStats stats = table->GetStats();
    EXPECT_EQ(stats.filter_checks, uint64_t{kLayoutThreads} * kKeys);
    EXPECT_EQ(stats.checksum_failures, 0u);
  }
}

}  // namespace
}  // namespace bloomtable
