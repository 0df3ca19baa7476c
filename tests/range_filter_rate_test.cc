// The range filter's false-positive bound, measured through the public API
// (TableBuilder, Table::MayContainRange) at every table size: README and
// Options::range_filter_bits_per_key promise at most L / 2^(B-2) for empty
// ranges of up to L consecutive key values at B bits per key, for tables of
// 10 keys as for 10^5.
//
// Keys are random 8-byte big-endian integers (the key map reads them as
// their value). Each size is averaged over as many tables as make 200,000
// keys, with two kinds of empty ranges of exactly L = 64 values: 200,000
// placed at random, and the one right after each key (but the last) of
// every table, each asked once. At B = 16 the bound is 64 / 2^14 = 0.39%:
// each count's expectation is then at most 781, whose standard deviation
// (a binomial count) is about 28, 3.6% of it. The test allows the measured
// rate 15% above the bound (more than 4 standard deviations): a filter
// whose universe falls short of n' 2^(B-2) by more (small tables once got
// a rate up to 4 times the bound) fails.

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "bloomtable/file.h"
#include "bloomtable/options.h"
#include "bloomtable/table.h"
#include "bloomtable/table_builder.h"
#include "gtest/gtest.h"

namespace bloomtable {
namespace {

constexpr double kBitsPerKey = 16;
constexpr uint64_t kRangeLength = 64;
constexpr double kBound = 64.0 / 16384;  // L / 2^(B-2)
constexpr double kTolerance = 0.15;      // relative, see the file comment
constexpr int kQueriesPerKind = 200000;
constexpr size_t kKeysPerSize = 200000;

std::string BigEndian(uint64_t value) {
  char bytes[8];
  for (int i = 0; i < 8; ++i) {
    bytes[i] = static_cast<char>(value >> (8 * (7 - i)));
  }
  return std::string(bytes, 8);
}

// `n` distinct sorted random values below 2^63 (so that value + L never
// overflows).
std::vector<uint64_t> RandomKeys(size_t n, std::mt19937_64* rng) {
  std::vector<uint64_t> keys;
  while (keys.size() < n) {
    keys.clear();
    for (size_t i = 0; i < n; ++i) keys.push_back((*rng)() >> 1);
    std::sort(keys.begin(), keys.end());
    keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  }
  return keys;
}

std::unique_ptr<Table> BuildTable(const std::vector<uint64_t>& keys,
                                  std::string* contents) {
  Options options;
  options.compression = CompressionType::kNone;
  options.range_filter_bits_per_key = kBitsPerKey;
  options.range_filter_max_range_length = kRangeLength;
  StringWritableFile file;
  TableBuilder builder(options, &file);
  for (const uint64_t key : keys) {
    EXPECT_TRUE(builder.Add(BigEndian(key), "").ok());
  }
  EXPECT_TRUE(builder.Finish().ok());
  *contents = file.contents();
  auto table = Table::Open(Options(), NewMemoryRandomAccessFile(*contents),
                           contents->size());
  EXPECT_TRUE(table.ok()) << table.status();
  return table.ok() ? *std::move(table) : nullptr;
}

// Whether no key lies in [start, start + L).
bool Empty(const std::vector<uint64_t>& keys, uint64_t start) {
  auto it = std::lower_bound(keys.begin(), keys.end(), start);
  return it == keys.end() || *it >= start + kRangeLength;
}

struct Rate {
  uint64_t queries = 0;
  uint64_t positives = 0;
  double value() const {
    return static_cast<double>(positives) / static_cast<double>(queries);
  }
};

class RangeFilterRateTest : public testing::TestWithParam<size_t> {};

TEST_P(RangeFilterRateTest, StaysWithinTheDocumentedBound) {
  const size_t num_keys = GetParam();
  const size_t tables = (kKeysPerSize + num_keys - 1) / num_keys;
  const int queries_per_table =
      static_cast<int>((kQueriesPerKind + tables - 1) / tables);
  std::mt19937_64 rng(num_keys * 7919);
  Rate random;
  Rate after_a_key;
  double stored_bits = 0;
  for (size_t t = 0; t < tables; ++t) {
    const std::vector<uint64_t> keys = RandomKeys(num_keys, &rng);
    std::string contents;
    const std::unique_ptr<Table> table = BuildTable(keys, &contents);
    ASSERT_NE(table, nullptr);
    ASSERT_TRUE(table->scan_filter_info().range_in_use);
    stored_bits += table->scan_filter_info().range_bits_per_key;
    // Ranges inside [first key, last key]: the filter knows both ends, and
    // ranges beyond them are "no" at once.
    const uint64_t span = keys.back() - keys.front() - kRangeLength;
    for (int q = 0; q < queries_per_table; ++q) {
      const uint64_t start = keys.front() + 1 + rng() % span;
      if (Empty(keys, start)) {
        ++random.queries;
        random.positives += table->MayContainRange(
            BigEndian(start), BigEndian(start + kRangeLength));
      }
    }
    for (size_t i = 0; i + 1 < keys.size(); ++i) {
      const uint64_t start = keys[i] + 1;
      if (Empty(keys, start)) {
        ++after_a_key.queries;
        after_a_key.positives += table->MayContainRange(
            BigEndian(start), BigEndian(start + kRangeLength));
      }
    }
  }
  std::printf(
      "%zu keys x %zu tables: random %.3f%% of %llu, right after a key "
      "%.3f%% of %llu (bound %.3f%%); %.1f stored bits per key\n",
      num_keys, tables, 100 * random.value(),
      static_cast<unsigned long long>(random.queries),
      100 * after_a_key.value(),
      static_cast<unsigned long long>(after_a_key.queries), 100 * kBound,
      stored_bits / static_cast<double>(tables));
  EXPECT_GT(random.queries, kQueriesPerKind * 9 / 10);
  EXPECT_GT(after_a_key.queries, kKeysPerSize * 8 / 10);
  EXPECT_LE(random.value(), kBound * (1 + kTolerance));
  EXPECT_LE(after_a_key.value(), kBound * (1 + kTolerance));
}

INSTANTIATE_TEST_SUITE_P(TableSizes, RangeFilterRateTest,
                         testing::Values(10, 100, 1000, 10000, 100000));

}  // namespace
}  // namespace bloomtable
