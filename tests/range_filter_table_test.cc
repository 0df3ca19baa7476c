// The range filter in tables: its metaindex entry and block, bounded scans
// and MayContainRange that skip empty ranges without reading a data block
// (correlated ranges, right after a key, included), point lookups that cost
// exactly what they cost without it, a damaged block that reads as "no
// filter", and the builder's refusal of a non-bytewise comparator.

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_format.h"
#include "bloomtable/file.h"
#include "bloomtable/filter_policy.h"
#include "bloomtable/options.h"
#include "bloomtable/prefix_extractor.h"
#include "bloomtable/table.h"
#include "bloomtable/table_builder.h"
#include "filter/range_filter.h"
#include "fuzz/fix_checksums.h"
#include "gtest/gtest.h"
#include "tests/reverse_comparator.h"
#include "tests/table_in_memory.h"
#include "tests/table_layout.h"
#include "util/coding.h"

namespace bloomtable {
namespace {

using Model = std::map<std::string, std::string>;

using table_test::BuildTableInMemory;
using table_test::OpenTableInMemory;

std::string BigEndian(uint64_t value) {
  std::string key(8, '\0');
  for (int i = 7; i >= 0; --i) {
    key[i] = static_cast<char>(value & 0xff);
    value >>= 8;
  }
  return key;
}

// Random 64-bit keys, stored big-endian so that byte order is number order.
std::vector<uint64_t> SparseNumbers(size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<uint64_t> numbers(n);
  for (uint64_t& number : numbers) number = rng();
  std::sort(numbers.begin(), numbers.end());
  numbers.erase(std::unique(numbers.begin(), numbers.end()), numbers.end());
  return numbers;
}

Model SparseModel(const std::vector<uint64_t>& numbers) {
  Model model;
  for (uint64_t number : numbers) model[BigEndian(number)] = "value";
  return model;
}

Options RangeOptions() {
  Options options;
  options.block_size = 512;
  options.range_filter_bits_per_key = 16;
  options.range_filter_max_range_length = 64;
  return options;
}

std::map<std::string, BlockHandle> Metaindex(const std::string& contents) {
  const auto layout = table_test::ReadTableLayout(contents);
  std::map<std::string, BlockHandle> entries;
  for (const auto& [key, value] :
       table_test::ReadBlockEntries(contents, layout.metaindex)) {
    entries[key] = table_test::DecodeHandle(value);
  }
  return entries;
}

TEST(RangeFilterTable, MetaindexEntryHoldsTheFiltersOwnBytes) {
  const std::vector<uint64_t> numbers = SparseNumbers(500, 1);
  Options options = RangeOptions();
  options.filter_policy = NewCacheLocalBloomFilterPolicy(10);
  options.filter_layout = FilterLayout::kWholeTable;
  const std::string contents =
      BuildTableInMemory(options, SparseModel(numbers));
  const auto metaindex = Metaindex(contents);
  // In key order, beside the point filter.
  ASSERT_EQ(metaindex.size(), 2u);
  EXPECT_EQ(metaindex.begin()->first, "fullfilter.bloomtable.CacheLocalBloom");
  ASSERT_EQ(std::next(metaindex.begin())->first,
            "rangefilter.bloomtable.Grafite");

  RangeFilterOptions range_options;
  range_options.bits_per_key = 16;
  range_options.max_range_length = 64;
  RangeFilterBuilder builder(range_options);
  for (uint64_t number : numbers) builder.AddKey(BigEndian(number));
  const BlockHandle handle = std::next(metaindex.begin())->second;
  EXPECT_EQ(contents.substr(handle.offset(), handle.size()), builder.Finish());
  // Stored raw (type 0), as every filter block.
  EXPECT_EQ(contents[handle.offset() + handle.size()], '\0');

  auto table = OpenTableInMemory(options, contents);
  ASSERT_NE(table, nullptr);
  const ScanFilterInfo& info = table->scan_filter_info();
  EXPECT_TRUE(info.range_in_use);
  EXPECT_EQ(info.range_num_keys, numbers.size());
  EXPECT_EQ(info.range_filter_bytes, handle.size());
  EXPECT_GT(info.range_bits_per_key, 8.0);
  // 16 bits per key for the codes, and a header of at most 80 bytes (the
  // first and last 8-byte key, the key map, about 30 bytes more).
  EXPECT_LE(8.0 * static_cast<double>(info.range_filter_bytes),
            16.0 * static_cast<double>(numbers.size()) + 8.0 * 80);
}

// Over empty ranges of up to 64 consecutive integers (half of them starting
// right after a present key), a bounded scan must read a data block in at
// most 2% of the scans: the filter's bound is 64 / 2^(16-2) = 0.4%, and the
// table adds no read of its own when the filter says "no key".
TEST(RangeFilterTable, EmptyShortRangesReadAlmostNothing) {
  const std::vector<uint64_t> numbers = SparseNumbers(4000, 2);
  const Options options = RangeOptions();
  const std::string contents =
      BuildTableInMemory(options, SparseModel(numbers));
  auto table = OpenTableInMemory(options, contents);
  ASSERT_NE(table, nullptr);

  std::mt19937_64 rng(3);
  const int kScans = 4000;
  int scans = 0;
  for (int i = 0; scans < kScans; ++i) {
    uint64_t lo = rng();
    if (i % 2 == 0) lo = numbers[rng() % numbers.size()] + 1;  // correlated
    const uint64_t length = 1 + rng() % 64;
    if (lo + length < lo) continue;  // wraps around
    auto next = std::lower_bound(numbers.begin(), numbers.end(), lo);
    if (next != numbers.end() && *next < lo + length) continue;  // not empty
    ++scans;
    ReadOptions read_options;
    read_options.iterate_lower_bound = BigEndian(lo);
    read_options.iterate_upper_bound = BigEndian(lo + length);
    auto it = table->NewIterator(read_options);
    if (i % 4 < 2) {
      it->SeekToFirst();
    } else {
      it->SeekToLast();
    }
    ASSERT_FALSE(it->Valid());
    ASSERT_TRUE(it->status().ok());
  }
  const TableStats stats = table->GetStats();
  const uint64_t max_false_positives = kScans / 50;
  EXPECT_EQ(stats.range_filter_checks, static_cast<uint64_t>(kScans));
  EXPECT_GE(stats.range_filter_negatives, kScans - max_false_positives);
  // A false positive reads the block where the range would be, and at most
  // the next one.
  EXPECT_LE(stats.data_block_reads, 2 * max_false_positives)
      << "false positives: " << kScans - stats.range_filter_negatives;
}

TEST(RangeFilterTable, MayContainRangeNeverDeniesAKey) {
  const std::vector<uint64_t> numbers = SparseNumbers(3000, 4);
  const Options options = RangeOptions();
  auto table = OpenTableInMemory(
      options, BuildTableInMemory(options, SparseModel(numbers)));
  ASSERT_NE(table, nullptr);
  std::mt19937_64 rng(5);
  for (uint64_t number : numbers) {
    const uint64_t before = rng() % 100;
    const uint64_t after = 1 + rng() % 100;
    if (number < before || number + after < number) continue;
    ASSERT_TRUE(table->MayContainRange(BigEndian(number - before),
                                       BigEndian(number + after)));
  }
  EXPECT_FALSE(table->MayContainRange(BigEndian(7), BigEndian(7)));
  EXPECT_FALSE(table->MayContainRange(BigEndian(8), BigEndian(7)));
  EXPECT_EQ(table->GetStats().data_block_reads, 0u);
}

// Get costs the same reads with and without a range filter (or a prefix
// filter beside it): they are never asked by point lookups.
TEST(RangeFilterTable, PointLookupsCostTheSameWithScanFilters) {
  Model model;
  for (int i = 0; i < 3000; ++i) {
    model[absl::StrFormat("%016d", 2 * i)] = "value";
  }
  Options plain;
  plain.block_size = 512;
  plain.filter_policy = NewCacheLocalBloomFilterPolicy(10);
  plain.filter_layout = FilterLayout::kWholeTable;
  Options with_range = plain;
  with_range.range_filter_bits_per_key = 16;

  auto reference = OpenTableInMemory(plain, BuildTableInMemory(plain, model));
  auto table =
      OpenTableInMemory(with_range, BuildTableInMemory(with_range, model));
  ASSERT_NE(reference, nullptr);
  ASSERT_NE(table, nullptr);
  for (int i = 0; i < 6000; ++i) {
    const std::string key = absl::StrFormat("%016d", i);
    EXPECT_EQ(reference->Get(ReadOptions(), key).status().code(),
              table->Get(ReadOptions(), key).status().code());
  }
  const TableStats a = reference->GetStats();
  const TableStats b = table->GetStats();
  EXPECT_EQ(a.data_block_reads, b.data_block_reads);
  EXPECT_EQ(a.filter_checks, b.filter_checks);
  EXPECT_EQ(a.filter_negatives, b.filter_negatives);
  EXPECT_EQ(b.range_filter_checks, 0u);
}

TEST(RangeFilterTable, DamagedBlockMeansNoFilterNeverEmpty) {
  const std::vector<uint64_t> numbers = SparseNumbers(300, 6);
  const Options options = RangeOptions();
  const Model model = SparseModel(numbers);
  const std::string contents = BuildTableInMemory(options, model);
  const BlockHandle handle =
      Metaindex(contents).at("rangefilter.bloomtable.Grafite");
  struct Damage {
    const char* what;
    bool fix_checksum;
    std::string (*apply)(std::string, const BlockHandle&);
  };
  const Damage damages[] = {
      {"a flipped byte (checksum)", false,
       [](std::string bytes, const BlockHandle& h) {
         bytes[h.offset() + h.size() / 2] ^= 0x10;
         return bytes;
       }},
      {"a zeroed block (structure)", true,
       [](std::string bytes, const BlockHandle& h) {
         std::fill_n(bytes.begin() + h.offset(), h.size(), '\0');
         return bytes;
       }},
      {"all 0xff (structure)", true,
       [](std::string bytes, const BlockHandle& h) {
         std::fill_n(bytes.begin() + h.offset(), h.size(), '\xff');
         return bytes;
       }},
  };
  for (const Damage& damage : damages) {
    SCOPED_TRACE(damage.what);
    std::string damaged = damage.apply(contents, handle);
    if (damage.fix_checksum) fuzz_internal::FixBlockChecksum(&damaged, handle);
    auto table = OpenTableInMemory(options, damaged);
    ASSERT_NE(table, nullptr);
    EXPECT_FALSE(table->scan_filter_info().range_in_use);
    EXPECT_FALSE(table->scan_filter_info().range_unused_reason.empty());
    for (uint64_t number : numbers) {
      ASSERT_TRUE(
          table->MayContainRange(BigEndian(number), BigEndian(number + 1)));
      ReadOptions read_options;
      read_options.iterate_lower_bound = BigEndian(number);
      read_options.iterate_upper_bound = BigEndian(number + 1);
      auto it = table->NewIterator(read_options);
      it->SeekToFirst();
      ASSERT_TRUE(it->Valid());
      EXPECT_EQ(it->key(), BigEndian(number));
      it->Next();
      EXPECT_FALSE(it->Valid());
    }
    EXPECT_EQ(table->GetStats().range_filter_checks, 0u);
  }
}

TEST(RangeFilterTable, BuilderRefusesAnotherComparator) {
  const ReverseComparator reverse;
  Options options = RangeOptions();
  options.comparator = &reverse;
  StringWritableFile file;
  TableBuilder builder(options, &file);
  EXPECT_TRUE(absl::IsInvalidArgument(builder.Add("b", "1")));
  EXPECT_TRUE(absl::IsInvalidArgument(builder.Finish()));
  EXPECT_TRUE(file.contents().empty());
}

}  // namespace
}  // namespace bloomtable
