// Table::IndexEntries, ForEachEntryInBlock and ApproximateSplitKeys: the
// index's blocks read one by one give every entry with the offset
// ForEachEntry gives it, without reading a block twice; split keys cut the
// table into ranges of whole blocks of about equal bytes; and KeySplitter,
// which they use, places its cuts where the bytes say.

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_format.h"
#include "bloomtable/cache.h"
#include "bloomtable/comparator.h"
#include "bloomtable/table.h"
#include "gtest/gtest.h"
#include "tests/table_in_memory.h"
#include "util/key_splits.h"

namespace bloomtable {
namespace {

using table_test::BuildTableInMemory;
using table_test::OpenTableInMemory;

std::map<std::string, std::string> Entries(int n) {
  std::map<std::string, std::string> entries;
  for (int i = 0; i < n; ++i) {
    entries[absl::StrFormat("key%06d", i)] = std::string(50 + i % 100, 'v');
  }
  return entries;
}

TEST(TableIndexEntries, BlockByBlockReadsWhatForEachEntryReads) {
  Options options;
  options.block_size = 1024;
  options.block_cache = NewLRUCache(8 << 20);
  const std::map<std::string, std::string> entries = Entries(3000);
  const std::string file = BuildTableInMemory(options, entries);
  std::unique_ptr<Table> table = OpenTableInMemory(options, file);
  ASSERT_NE(table, nullptr);
  const std::vector<TableBlockInfo> blocks = table->IndexEntries();
  ASSERT_GT(blocks.size(), 100u);
  struct Seen {
    std::string key, value;
    uint64_t offset;
    bool operator==(const Seen& o) const {
      return key == o.key && value == o.value && offset == o.offset;
    }
  };
  std::vector<Seen> whole;
  ASSERT_TRUE(
      table
          ->ForEachEntry(
              ReadOptions(),
              [&](std::string_view k, std::string_view v, uint64_t offset) {
                whole.push_back({std::string(k), std::string(v), offset});
                return true;
              })
          .ok());
  const uint64_t reads_before = table->GetStats().data_block_reads;
  std::vector<Seen> by_block;
  uint64_t expected_offset = 0;
  for (const TableBlockInfo& block : blocks) {
    EXPECT_EQ(block.offset, expected_offset);
    expected_offset = block.offset + block.size + 5;
    std::string last;
    ASSERT_TRUE(table
                    ->ForEachEntryInBlock(
                        ReadOptions(), block,
                        [&](std::string_view k, std::string_view v) {
                          by_block.push_back(
                              {std::string(k), std::string(v), block.offset});
                          last = std::string(k);
                          return true;
                        })
                    .ok());
    // The separator bounds the block's keys.
    EXPECT_LE(last, block.separator);
  }
  EXPECT_TRUE(by_block == whole);
  EXPECT_EQ(table->GetStats().data_block_reads - reads_before, 0u)
      << "the block cache served every block a second time";
}

TEST(TableIndexEntries, ABlockThatIsNotThereIsDataLoss) {
  Options options;
  options.block_cache = nullptr;
  const std::string file = BuildTableInMemory(options, Entries(500));
  std::unique_ptr<Table> table = OpenTableInMemory(options, file);
  ASSERT_NE(table, nullptr);
  TableBlockInfo wrong = table->IndexEntries()[1];
  wrong.offset += 3;
  const absl::Status status = table->ForEachEntryInBlock(
      ReadOptions(), wrong,
      [](std::string_view, std::string_view) { return true; });
  EXPECT_TRUE(absl::IsDataLoss(status)) << status;
  wrong.offset = file.size() + 100;
  EXPECT_FALSE(table
                   ->ForEachEntryInBlock(
                       ReadOptions(), wrong,
                       [](std::string_view, std::string_view) { return true; })
                   .ok());
}

TEST(TableIndexEntries, SplitKeysCutIntoRangesOfAboutEqualBytes) {
  Options options;
  options.block_size = 1024;
  options.compression = CompressionType::kNone;
  const std::map<std::string, std::string> entries = Entries(4000);
  std::unique_ptr<Table> table =
      OpenTableInMemory(options, BuildTableInMemory(options, entries));
  ASSERT_NE(table, nullptr);
  EXPECT_TRUE(table->ApproximateSplitKeys(1).empty());
  for (size_t parts : {2, 3, 8, 25}) {
    const std::vector<std::string> cuts = table->ApproximateSplitKeys(parts);
    ASSERT_EQ(cuts.size() + 1, parts);
    std::vector<uint64_t> bytes(parts, 0);
    uint64_t total = 0;
    for (const auto& [key, value] : entries) {
      size_t range = 0;
      while (range < cuts.size() && key >= cuts[range]) ++range;
      bytes[range] += key.size() + value.size();
      total += key.size() + value.size();
    }
    // Whole blocks of about 1 KiB per range: each within a block or two of
    // its share.
    for (uint64_t b : bytes) {
      EXPECT_NEAR(static_cast<double>(b), static_cast<double>(total) / parts,
                  2.5 * 1024)
          << parts;
    }
  }
}

TEST(KeySplitter, CutsWhereTheRunningBytesCrossEachShare) {
  KeySplitter splitter;
  // Given out of order: ten points of 10 bytes each, at "a".."j".
  for (char c : std::string("jihgfedcba")) splitter.Add(std::string(1, c), 10);
  EXPECT_EQ(splitter.total_bytes(), 100u);
  EXPECT_EQ(splitter.Cut(2, *BytewiseComparator()),
            std::vector<std::string>({"e"}));
  EXPECT_EQ(splitter.Cut(5, *BytewiseComparator()),
            std::vector<std::string>({"b", "d", "f", "h"}));
  // More parts than points: every key once, none at the last point (the
  // range after it would be empty).
  const std::vector<std::string> many = splitter.Cut(50, *BytewiseComparator());
  EXPECT_EQ(many.size(), 9u);
  EXPECT_EQ(many.back(), "i");
  EXPECT_TRUE(splitter.Cut(1, *BytewiseComparator()).empty());
  EXPECT_TRUE(KeySplitter().Cut(4, *BytewiseComparator()).empty());
}

TEST(KeySplitter, AHeavyPointTakesItsShares) {
  KeySplitter splitter;
  splitter.Add("a", 1);
  splitter.Add("m", 1000);
  splitter.Add("z", 1);
  // Nearly everything lies in ("a", "m"], which no cut can divide: the
  // cuts fall at its ends, and there are fewer than asked.
  EXPECT_EQ(splitter.Cut(4, *BytewiseComparator()),
            std::vector<std::string>({"a", "m"}));
}

}  // namespace
}  // namespace bloomtable
