// TableBuilder never writes what no reader can read (table_builder_limits.h):
// no block past the largest Block::Parse accepts, no filter offsets past
// 32 bits. The limits are lowered through TableBuilderTestPeer so that they
// are reached with kilobytes; the real 4 GiB limit is checked on entries
// whose bytes are mapped but never touched.

#include "table/table_builder_limits.h"

#include <sys/mman.h>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_format.h"
#include "bloomtable/file.h"
#include "bloomtable/filter_policy.h"
#include "bloomtable/options.h"
#include "bloomtable/table.h"
#include "bloomtable/table_builder.h"
#include "filter/filter_block.h"
#include "gtest/gtest.h"
#include "tests/table_layout.h"

namespace bloomtable {
namespace {

std::string Key(int i) { return absl::StrFormat("key%06d", i); }

// Builds tables in memory with lowered limits and reads them back.
class TableBuilderLimitsTest : public testing::Test {
 protected:
  TableBuilderLimitsTest() {
    options_.compression = CompressionType::kNone;
    options_.filter_policy = NewLevelDBBloomFilterPolicy(10);
  }

  void Start(const TableBuilderLimits& limits) {
    file_ = std::make_unique<StringWritableFile>();
    builder_ = std::make_unique<TableBuilder>(options_, file_.get());
    TableBuilderTestPeer::SetLimits(builder_.get(), limits);
  }

  // Adds `value` under `key`; records it as expected when accepted.
  absl::Status Add(const std::string& key, const std::string& value) {
    absl::Status status = builder_->Add(key, value);
    if (status.ok()) expected_[key] = value;
    return status;
  }

  // Finishes the table and checks that it opens and holds exactly the
  // accepted entries, each found by Get (through its filter).
  std::string FinishAndCheck() {
    EXPECT_TRUE(builder_->Finish().ok());
    const std::string contents = file_->contents();
    absl::StatusOr<std::unique_ptr<Table>> table = Table::Open(
        options_, NewMemoryRandomAccessFile(contents), contents.size());
    EXPECT_TRUE(table.ok()) << table.status();
    if (!table.ok()) return contents;
    for (const auto& [key, value] : expected_) {
      absl::StatusOr<std::string> got = (*table)->Get(ReadOptions(), key);
      EXPECT_TRUE(got.ok()) << key << ": " << got.status();
      if (got.ok()) {
        EXPECT_EQ(*got, value) << key;
      }
    }
    size_t entries = 0;
    std::unique_ptr<Iterator> it = (*table)->NewIterator(ReadOptions());
    for (it->SeekToFirst(); it->Valid(); it->Next()) ++entries;
    EXPECT_TRUE(it->status().ok()) << it->status();
    EXPECT_EQ(entries, expected_.size());
    return contents;
  }

  Options options_;
  std::unique_ptr<StringWritableFile> file_;
  std::unique_ptr<TableBuilder> builder_;
  std::map<std::string, std::string> expected_;
};

TEST_F(TableBuilderLimitsTest, DataBlocksEndBeforeTheLargestABlockMayBe) {
  // block_size would let the whole table be one block.
  options_.block_size = 1 << 20;
  TableBuilderLimits limits;
  limits.max_block_size = 300;
  Start(limits);
  for (int i = 0; i < 200; ++i) ASSERT_TRUE(Add(Key(i), "value").ok());
  const std::string contents = FinishAndCheck();
  const table_test::TableLayout layout = table_test::ReadTableLayout(contents);
  EXPECT_GT(layout.data.size(), 5u);
  // Uncompressed: the stored size is the block's whole size.
  for (const BlockHandle& block : layout.data) {
    EXPECT_LE(block.size(), limits.max_block_size);
  }
}

TEST_F(TableBuilderLimitsTest,
       AnEntryNoBlockCanHoldIsRefusedAndChangesNothing) {
  TableBuilderLimits limits;
  limits.max_block_size = 300;
  Start(limits);
  ASSERT_TRUE(Add("a", "first").ok());
  const uint64_t size_before = builder_->FileSize();
  const absl::Status refused = Add("b", std::string(300, 'x'));
  EXPECT_TRUE(absl::IsInvalidArgument(refused)) << refused;
  EXPECT_EQ(builder_->FileSize(), size_before);
  EXPECT_EQ(builder_->NumEntries(), 1u);
  // Not sticky: the builder goes on.
  EXPECT_TRUE(builder_->status().ok());
  ASSERT_TRUE(Add("b", std::string(200, 'y')).ok());
  ASSERT_TRUE(Add("c", "last").ok());
  FinishAndCheck();
}

TEST_F(TableBuilderLimitsTest, AFullIndexRefusesMoreKeysAndTheTableReadsBack) {
  options_.block_size = 1;  // one entry per data block: an index entry each
  TableBuilderLimits limits;
  limits.max_block_size = 400;
  Start(limits);
  int accepted = 0;
  absl::Status status;
  while ((status = Add(Key(accepted), "v")).ok()) {
    ++accepted;
    ASSERT_LT(accepted, 1000) << "the index never filled";
  }
  EXPECT_TRUE(absl::IsInvalidArgument(status)) << status;
  EXPECT_GT(accepted, 5);
  EXPECT_EQ(builder_->NumEntries(), static_cast<uint64_t>(accepted));
  const std::string contents = FinishAndCheck();
  const table_test::TableLayout layout = table_test::ReadTableLayout(contents);
  EXPECT_LE(layout.index.size(), limits.max_block_size);
  EXPECT_EQ(layout.data.size(), static_cast<size_t>(accepted));
}

TEST_F(TableBuilderLimitsTest, APerBlockFilterPastItsLimitStopsThere) {
  options_.block_size = 256;
  TableBuilderLimits limits;
  limits.max_filter_bytes = 600;  // room for a few 2 KiB windows' filters
  Start(limits);
  for (int i = 0; i < 2000; ++i) ASSERT_TRUE(Add(Key(i), "value").ok());
  // Every key is still found (FinishAndCheck uses Get, through the filter).
  const std::string contents = FinishAndCheck();
  const table_test::TableLayout layout = table_test::ReadTableLayout(contents);
  ASSERT_TRUE(layout.filter.has_value());
  const std::string filter_block =
      contents.substr(layout.filter->offset(), layout.filter->size());
  FilterBlockReader reader(options_.filter_policy.get(), filter_block);
  ASSERT_TRUE(reader.usable());
  EXPECT_GT(reader.num_filters(), 0u);
  // Fewer filters than 2 KiB windows of data: the rest have none.
  EXPECT_LT(reader.num_filters(), layout.data.back().offset() / kFilterBase);
  // The offset array starts where the filters end: within the limit.
  EXPECT_LE(filter_block.size() - 5 - 4 * reader.num_filters(),
            limits.max_filter_bytes);
}

TEST(FilterBlockBuilder, FiltersPastTheLimitAreLeftOutNeverWrapped) {
  const std::shared_ptr<const FilterPolicy> bloom =
      NewLevelDBBloomFilterPolicy(10);
  FilterBlockBuilder builder(bloom.get(), /*max_filter_bytes=*/100);
  std::vector<std::vector<std::string>> keys_per_block;
  builder.StartBlock(0);
  for (int block = 0; block < 50; ++block) {
    keys_per_block.emplace_back();
    for (int k = 0; k < 10; ++k) {
      keys_per_block.back().push_back(Key(block * 10 + k));
      builder.AddKey(keys_per_block.back().back());
    }
    builder.StartBlock((block + 1) * kFilterBase);
  }
  const std::string contents(builder.Finish());
  FilterBlockReader reader(bloom.get(), contents);
  ASSERT_TRUE(reader.usable());
  EXPECT_GT(reader.num_filters(), 0u);
  EXPECT_LT(reader.num_filters(), 50u);
  for (int block = 0; block < 50; ++block) {
    for (const std::string& key : keys_per_block[block]) {
      EXPECT_TRUE(reader.KeyMayMatch(block * kFilterBase, key))
          << "block " << block << " " << key;
    }
  }
}

TEST(TableBuilderLimits, DefaultsAreWhatReadersAccept) {
  EXPECT_EQ(TableBuilderLimits().max_block_size, uint64_t{0xffffffff});
  EXPECT_EQ(TableBuilderLimits().max_block_size, kMaxBlockSize);
  EXPECT_EQ(TableBuilderLimits().max_filter_bytes, uint64_t{0xffffffff});
}

TEST(TableBuilderLimits, AValueOfFourGiBIsRefusedBeforeAnythingIsWritten) {
  // 4 GiB + 1 of address space, never touched: the builder must refuse the
  // entry from its size alone (it would copy 4 GiB otherwise).
  const size_t size = (size_t{1} << 32) + 1;
  void* mapped = ::mmap(nullptr, size, PROT_READ,
                        MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  ASSERT_NE(mapped, MAP_FAILED);
  const std::string_view huge(static_cast<const char*>(mapped), size);
  StringWritableFile file;
  Options options;
  TableBuilder builder(options, &file);
  ASSERT_TRUE(builder.Add("a", "first").ok());
  EXPECT_TRUE(absl::IsInvalidArgument(builder.Add("b", huge)));
  EXPECT_TRUE(absl::IsInvalidArgument(builder.Add(huge, "v")));
  // Just under the limit for the key and value together, still too large.
  EXPECT_TRUE(absl::IsInvalidArgument(
      builder.Add(huge.substr(0, size / 2), huge.substr(0, size / 2))));
  EXPECT_EQ(builder.NumEntries(), 1u);
  ASSERT_TRUE(builder.Add("c", "last").ok());
  ASSERT_TRUE(builder.Finish().ok());
  ::munmap(mapped, size);
}

}  // namespace
}  // namespace bloomtable
