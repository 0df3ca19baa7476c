// Table::Get into a PinnedValue: the same answers as the copying Get for
// every key, values that outlive the table, file and cache they came from,
// and a small cache that many pinned values outgrow.

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "bloomtable/cache.h"
#include "bloomtable/file.h"
#include "bloomtable/filter_policy.h"
#include "bloomtable/pinned_value.h"
#include "bloomtable/table.h"
#include "bloomtable/table_builder.h"
#include "gtest/gtest.h"
#include "tests/table_in_memory.h"
#include "tests/temp_dir.h"

namespace bloomtable {
namespace {

using table_test::BuildTableInMemory;
using table_test::OpenTableInMemory;

// Keys key00000.. with values of varied lengths (some empty), about 40
// data blocks of 4 KiB.
std::map<std::string, std::string> Entries(int n) {
  std::map<std::string, std::string> entries;
  for (int i = 0; i < n; ++i) {
    entries[absl::StrFormat("key%05d", i)] =
        std::string(static_cast<size_t>(i % 7 == 0 ? 0 : 20 + i % 300),
                    static_cast<char>('a' + i % 26));
  }
  return entries;
}

// Every present key, and absent keys between, before and after them: the
// pinned Get answers as the copying Get, and a found value is pinned.
void ExpectSameAnswers(const Table& table, const ReadOptions& read_options,
                       const std::map<std::string, std::string>& entries) {
  std::vector<std::string> keys = {"", "a", "zzz"};
  for (const auto& [key, value] : entries) {
    keys.push_back(key);
    keys.push_back(key + "!");
  }
  PinnedValue pinned;  // reused across keys, as the allocation test does
  for (const std::string& key : keys) {
    const absl::StatusOr<std::string> copied = table.Get(read_options, key);
    const absl::Status status = table.Get(read_options, key, &pinned);
    ASSERT_EQ(status, copied.status()) << key;
    if (copied.ok()) {
      ASSERT_EQ(pinned.view(), *copied) << key;
      ASSERT_TRUE(pinned.pinned()) << key;
    } else {
      ASSERT_TRUE(pinned.empty()) << key;
      ASSERT_FALSE(pinned.pinned()) << key;
    }
  }
}

Options TableOptions() {
  Options options;
  options.filter_policy = NewLevelDBBloomFilterPolicy(10);
  return options;
}

TEST(TablePinnedGet, AnswersAsCopyingGetWithAndWithoutCache) {
  const auto entries = Entries(3000);
  for (const CompressionType compression :
       {CompressionType::kNone, CompressionType::kSnappy}) {
    Options options = TableOptions();
    options.compression = compression;
    const std::string contents = BuildTableInMemory(options, entries);
    for (const bool cached : {false, true}) {
      SCOPED_TRACE(absl::StrCat("compression ", static_cast<int>(compression),
                                " cache ", cached));
      Options read_options_table = options;
      if (cached) read_options_table.block_cache = NewLRUCache(1 << 20);
      auto table = OpenTableInMemory(read_options_table, contents);
      ASSERT_NE(table, nullptr);
      ReadOptions read_options;
      ExpectSameAnswers(*table, read_options, entries);
      // A second pass takes the blocks from the cache.
      ExpectSameAnswers(*table, read_options, entries);
      read_options.fill_cache = false;
      ExpectSameAnswers(*table, read_options, entries);
    }
  }
}

TEST(TablePinnedGet, DamagedBlockFailsAsCopyingGetAndLeavesValueEmpty) {
  Options options = TableOptions();
  options.compression = CompressionType::kNone;
  const auto entries = Entries(3000);
  std::string contents = BuildTableInMemory(options, entries);
  auto intact = OpenTableInMemory(options, contents);
  ASSERT_NE(intact, nullptr);
  const std::vector<TableBlockInfo> blocks = intact->IndexEntries();
  ASSERT_GT(blocks.size(), 3u);
  contents[blocks[2].offset + 10] ^= 0x40;  // inside the third data block
  auto damaged = OpenTableInMemory(options, contents);
  ASSERT_NE(damaged, nullptr);

  PinnedValue pinned;
  int failures = 0;
  for (const auto& [key, value] : entries) {
    // Hold a value from before, to see that a failed Get lets go of it.
    ASSERT_TRUE(intact->Get(ReadOptions(), key, &pinned).ok());
    const absl::StatusOr<std::string> copied = damaged->Get(ReadOptions(), key);
    const absl::Status status = damaged->Get(ReadOptions(), key, &pinned);
    ASSERT_EQ(status, copied.status()) << key;
    if (copied.ok()) {
      EXPECT_EQ(pinned.view(), *copied);
    } else {
      EXPECT_EQ(status.code(), absl::StatusCode::kDataLoss) << status;
      EXPECT_TRUE(pinned.empty());
      EXPECT_FALSE(pinned.pinned());
      ++failures;
    }
  }
  EXPECT_GT(failures, 0);
}

// The lifetime contract: a pinned value (of Get or MultiGet) stays valid
// after the table, the block cache and the file (here a memory-mapped one,
// unmapped when the table closes) are destroyed. ASan reports any read of freed
// memory.
TEST(TablePinnedGet, ValuesOutliveTableCacheAndMapping) {
  const TempDir temp_dir;
  const std::string path = temp_dir.File("pinned.ldb");
  Options options = TableOptions();
  const auto entries = Entries(2000);
  {
    auto file = NewWritableFile(path);
    ASSERT_TRUE(file.ok()) << file.status();
    TableBuilder builder(options, file->get());
    for (const auto& [key, value] : entries) {
      ASSERT_TRUE(builder.Add(key, value).ok());
    }
    ASSERT_TRUE(builder.Finish().ok());
    ASSERT_TRUE((*file)->Close().ok());
  }
  for (const bool cached : {false, true}) {
    SCOPED_TRACE(absl::StrCat("cache ", cached));
    std::map<std::string, PinnedValue> pinned;
    std::vector<PinnedValue> batch;
    {
      Options read_options_table = options;
      if (cached) read_options_table.block_cache = NewLRUCache(1 << 20);
      auto file = OpenMmapRandomAccessFile(path);
      ASSERT_TRUE(file.ok()) << file.status();
      const uint64_t size = *GetFileSize(path);
      auto table = Table::Open(read_options_table, *std::move(file), size);
      ASSERT_TRUE(table.ok()) << table.status();
      for (const auto& [key, value] : entries) {
        ASSERT_TRUE((*table)->Get(ReadOptions(), key, &pinned[key]).ok());
      }
      // The same through MultiGet, every key in one batch.
      std::vector<std::string_view> keys;
      for (const auto& [key, value] : entries) keys.push_back(key);
      for (const absl::Status& status :
           (*table)->MultiGet(ReadOptions(), keys, &batch)) {
        ASSERT_TRUE(status.ok()) << status;
      }
    }  // table, file mapping and cache destroyed here
    size_t i = 0;
    for (const auto& [key, value] : entries) {
      EXPECT_EQ(pinned[key].view(), value) << key;
      EXPECT_TRUE(pinned[key].pinned());
      EXPECT_EQ(batch[i].view(), value) << key;
      EXPECT_TRUE(batch[i++].pinned());
    }
  }
}

// A cache of a few blocks and every value of the table pinned at once: the
// cache keeps evicting (pinned blocks are ordinary entries to it), its usage
// stays within capacity, and every pinned value stays right.
TEST(TablePinnedGet, SmallCacheWithManyPinnedValues) {
  Options options = TableOptions();
  const auto entries = Entries(3000);
  const std::string contents = BuildTableInMemory(options, entries);
  const size_t capacity = 3 * options.block_size;
  std::shared_ptr<Cache> cache = NewLRUCache(capacity, 0);
  options.block_cache = cache;
  auto table = OpenTableInMemory(options, contents);
  ASSERT_NE(table, nullptr);
  ASSERT_GT(table->IndexEntries().size(), 20u);

  std::vector<PinnedValue> pinned(entries.size());
  for (int pass = 0; pass < 2; ++pass) {
    size_t i = 0;
    for (const auto& [key, value] : entries) {
      ASSERT_TRUE(table->Get(ReadOptions(), key, &pinned[i++]).ok()) << key;
      ASSERT_LE(cache->usage(), capacity);
    }
    i = 0;
    for (const auto& [key, value] : entries) {
      ASSERT_EQ(pinned[i++].view(), value) << key;
    }
  }
  EXPECT_GT(cache->GetStats().evictions, table->IndexEntries().size());
  EXPECT_GT(table->GetStats().block_cache_hits, 0u);
}

// A key that lies in the block the PinnedValue pins (its previous value):
// the block is released only after the lookup. Without a cache the
// PinnedValue is the block's only holder, so releasing it first would free
// the key (ASan reports that).
TEST(TablePinnedGet, KeyMayLieInThePinnedValue) {
  std::map<std::string, std::string> chain;
  for (int i = 0; i < 500; ++i) {
    chain[absl::StrFormat("link%04d", i)] = absl::StrFormat("link%04d", i + 1);
  }
  Options options = TableOptions();
  options.block_size = 256;
  const std::string contents = BuildTableInMemory(options, chain);
  auto table = OpenTableInMemory(options, contents);
  ASSERT_NE(table, nullptr);
  PinnedValue pinned;
  ASSERT_TRUE(table->Get(ReadOptions(), "link0000", &pinned).ok());
  int steps = 1;
  while (table->Get(ReadOptions(), pinned.view(), &pinned).ok()) ++steps;
  EXPECT_EQ(steps, 500);
  EXPECT_TRUE(pinned.empty());
}

TEST(PinnedValue, MoveHandsOverPinAndCopy) {
  auto owner = std::make_shared<const std::string>("block bytes");
  PinnedValue a;
  a.PinTo(owner, std::string_view(*owner).substr(6));
  EXPECT_EQ(owner.use_count(), 2);
  PinnedValue b = std::move(a);
  EXPECT_EQ(b.view(), "bytes");
  EXPECT_TRUE(b.pinned());
  EXPECT_TRUE(a.empty());  // NOLINT(bugprone-use-after-move): moved-from state
  EXPECT_FALSE(a.pinned());
  EXPECT_EQ(owner.use_count(), 2);
  b.Reset();
  EXPECT_EQ(owner.use_count(), 1);
  EXPECT_TRUE(b.empty());

  // A short copied value (in std::string's inline buffer) survives a move.
  PinnedValue c;
  c.PinTo(owner, *owner);
  c.CopyFrom("short");
  EXPECT_FALSE(c.pinned());
  EXPECT_EQ(owner.use_count(), 1);
  PinnedValue d;
  d = std::move(c);
  EXPECT_EQ(d.view(), "short");
  EXPECT_FALSE(d.pinned());
  EXPECT_TRUE(c.empty());  // NOLINT(bugprone-use-after-move)
}

}  // namespace
}  // namespace bloomtable
