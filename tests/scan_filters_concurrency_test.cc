// Scan filters from many threads: bounded scans, prefix-mode seeks and
// MayContainRange on one Table at once give every thread the answers one
// thread gets, and the counters add up (run under ThreadSanitizer in CI).

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_format.h"
#include "bloomtable/filter_policy.h"
#include "bloomtable/options.h"
#include "bloomtable/prefix_extractor.h"
#include "bloomtable/table.h"
#include "gtest/gtest.h"
#include "tests/table_in_memory.h"

namespace bloomtable {
namespace {

constexpr int kThreads = 4;
constexpr int kUsers = 300;

TEST(ScanFiltersConcurrency, ThreadsScanOneTableAndCountEveryQuery) {
  std::map<std::string, std::string> model;
  for (int id = 0; id < 2 * kUsers; id += 2) {
    for (const char* field : {"a", "b"}) {
      model[absl::StrFormat("user:%d:%s", id, field)] = "value";
    }
  }
  Options options;
  options.block_size = 256;
  options.filter_policy = NewCacheLocalBloomFilterPolicy(10);
  options.prefix_extractor = NewDelimitedPrefixExtractor(':', 2);
  options.range_filter_bits_per_key = 16;
  auto table = table_test::OpenTableInMemory(
      options, table_test::BuildTableInMemory(options, model));
  ASSERT_NE(table, nullptr);

  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int id = t % 2; id < 2 * kUsers; ++id) {
        const std::string prefix = absl::StrFormat("user:%d:", id);
        const size_t expected = id % 2 == 0 ? 2 : 0;
        ReadOptions bounded;
        bounded.iterate_lower_bound = prefix;
        bounded.iterate_upper_bound = absl::StrFormat("user:%d;", id);
        auto it = table->NewIterator(bounded);
        size_t found = 0;
        for (it->SeekToFirst(); it->Valid(); it->Next()) ++found;
        ReadOptions prefix_mode;
        prefix_mode.prefix_same_as_start = true;
        auto seek = table->NewIterator(prefix_mode);
        size_t seen = 0;
        for (seek->Seek(prefix); seek->Valid(); seek->Next()) ++seen;
        if (found != expected || seen != expected ||
            (expected > 0 && !table->MayContainRange(prefix, prefix + "zz"))) {
          wrong.fetch_add(1);
        }
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(wrong.load(), 0);
  // Every scan asked a filter: two per id per thread, plus MayContainRange
  // for the present ids (prefix, then range filter on "maybe").
  const TableStats stats = table->GetStats();
  EXPECT_GE(stats.prefix_filter_checks + stats.range_filter_checks,
            uint64_t{2} * kThreads * (2 * kUsers - 1));
  EXPECT_GT(stats.prefix_filter_negatives, 0u);
}

}  // namespace
}  // namespace bloomtable
