// How the library reads a table's structure and words its damage
// (table/table_structure.h, table/corruption.h): every reader goes footer,
// metaindex, filter, index, data, and reports the first failure as
// "FILE: corrupt at offset N: KIND block (size S): what", with N attached.

#include "table/table_structure.h"

#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "bloomtable/file.h"
#include "bloomtable/filter_policy.h"
#include "bloomtable/iterator.h"
#include "bloomtable/options.h"
#include "bloomtable/table.h"
#include "bloomtable/table_builder.h"
#include "gtest/gtest.h"
#include "table/corruption.h"
#include "tests/table_layout.h"

namespace bloomtable {
namespace {

TEST(Corruption, CarriesItsOffsetAndReason) {
  const absl::Status status = CorruptionAt("t.ldb", 42, "index block: bad");
  EXPECT_TRUE(absl::IsDataLoss(status));
  EXPECT_EQ(status.message(), "t.ldb: corrupt at offset 42: index block: bad");
  EXPECT_EQ(CorruptionOffset(status), 42u);
  EXPECT_EQ(CorruptionReason(status), "index block: bad");
  EXPECT_EQ(CorruptionAt("", 7, "what").message(), "corrupt at offset 7: what");
  EXPECT_EQ(CorruptionOffset(absl::DataLossError("unplaced")), std::nullopt);
  EXPECT_EQ(CorruptionReason(absl::DataLossError("unplaced")), "unplaced");
}

TEST(Corruption, BlockErrorPlacesDamageAndKeepsOtherCodes) {
  const BlockHandle handle(10, 20);
  const absl::Status damage = BlockError(
      "t.ldb", "index", handle,
      absl::DataLossError("block at offset 10 (size 20): checksum mismatch"));
  EXPECT_EQ(damage.message(),
            "t.ldb: corrupt at offset 10: index block (size 20): checksum "
            "mismatch");
  EXPECT_EQ(CorruptionOffset(damage), 10u);
  // A parser's error, without ReadBlock's position: placed all the same.
  EXPECT_EQ(BlockError("t.ldb", "data", handle,
                       absl::DataLossError("bad block: entry past the end"))
                .message(),
            "t.ldb: corrupt at offset 10: data block (size 20): bad block: "
            "entry past the end");
  // ReadBlock's own word about a block it cannot read, not damage.
  const absl::Status unsupported = BlockError(
      "t.ldb", "data", handle,
      absl::UnimplementedError("block at offset 10 (size 20): not here"));
  EXPECT_TRUE(absl::IsUnimplemented(unsupported));
  EXPECT_EQ(unsupported.message(),
            "t.ldb: data block at offset 10 (size 20): not here");
  EXPECT_EQ(CorruptionOffset(unsupported), std::nullopt);
  // The file's own errors pass through.
  const absl::Status io = absl::UnavailableError("t.ldb: read: I/O error");
  EXPECT_EQ(BlockError("t.ldb", "data", handle, io), io);
}

class TableStructureTest : public testing::Test {
 protected:
  TableStructureTest() {
    options_.filter_policy = NewLevelDBBloomFilterPolicy(10);
    options_.compression = CompressionType::kNone;
    options_.block_size = 256;
    StringWritableFile file;
    TableBuilder builder(options_, &file);
    for (int i = 0; i < 100; ++i) {
      EXPECT_TRUE(builder.Add(Key(i), "value").ok());
    }
    EXPECT_TRUE(builder.Finish().ok());
    contents_ = file.contents();
    layout_ = table_test::ReadTableLayout(contents_);
  }

  static std::string Key(int i) { return absl::StrFormat("key%03d", i); }

  // The table with a bit flipped inside each block at `handles`.
  std::string Damaged(std::initializer_list<BlockHandle> handles) const {
    std::string damaged = contents_;
    for (const BlockHandle& handle : handles) {
      damaged[handle.offset() + 1] ^= 0x08;
    }
    return damaged;
  }

  absl::StatusOr<std::unique_ptr<Table>> Open(const std::string& bytes) const {
    return Table::Open(options_, NewMemoryRandomAccessFile(bytes, "t.ldb"),
                       bytes.size());
  }

  static std::string Mismatch(std::string_view kind, const BlockHandle& h) {
    return absl::StrFormat(
        "t.ldb: corrupt at offset %d: %s block (size %d): checksum mismatch",
        h.offset(), std::string(kind), h.size());
  }

  Options options_;
  std::string contents_;
  table_test::TableLayout layout_;
};

TEST_F(TableStructureTest, OpenReadsTheMetaindexBeforeTheIndex) {
  const absl::StatusOr<std::unique_ptr<Table>> both =
      Open(Damaged({layout_.index, layout_.metaindex}));
  ASSERT_FALSE(both.ok());
  EXPECT_EQ(both.status().message(), Mismatch("metaindex", layout_.metaindex));
  EXPECT_EQ(CorruptionOffset(both.status()), layout_.metaindex.offset());

  const absl::StatusOr<std::unique_ptr<Table>> index =
      Open(Damaged({layout_.index}));
  ASSERT_FALSE(index.ok());
  EXPECT_EQ(index.status().message(), Mismatch("index", layout_.index));
}

TEST_F(TableStructureTest, ADamagedFilterIsWordedAlikeAndNotUsed) {
  ASSERT_TRUE(layout_.filter.has_value());
  const absl::StatusOr<std::unique_ptr<Table>> table =
      Open(Damaged({*layout_.filter}));
  ASSERT_TRUE(table.ok()) << table.status();
  EXPECT_FALSE((*table)->filter_info().in_use);
  // Without the file name: the table's own.
  EXPECT_EQ((*table)->filter_info().unused_reason,
            Mismatch("filter", *layout_.filter).substr(7));
}

TEST_F(TableStructureTest, DataBlockDamageIsPlacedByGetAndIterators) {
  ASSERT_GT(layout_.data.size(), 2u);
  const BlockHandle& second = layout_.data[1];
  const absl::StatusOr<std::unique_ptr<Table>> table = Open(Damaged({second}));
  ASSERT_TRUE(table.ok()) << table.status();
  // A key of the second block: the first key after the first block's last.
  std::unique_ptr<Iterator> it = (*table)->NewIterator(ReadOptions());
  it->SeekToFirst();
  size_t read = 0;
  for (; it->Valid(); it->Next()) ++read;
  EXPECT_EQ(it->status().message(), Mismatch("data", second));
  EXPECT_EQ(CorruptionOffset(it->status()), second.offset());
  const std::string key_in_second = Key(static_cast<int>(read));
  EXPECT_EQ((*table)->Get(ReadOptions(), key_in_second).status().message(),
            Mismatch("data", second));
}

TEST_F(TableStructureTest, ReadMetaindexNamesTheFilter) {
  auto file = NewMemoryRandomAccessFile(contents_, "t.ldb");
  const absl::StatusOr<FooterContents> footer =
      ReadFooter(*file, contents_.size(), nullptr);
  ASSERT_TRUE(footer.ok()) << footer.status();
  EXPECT_TRUE(footer->padding_is_zero);
  ReadBlockOptions options;
  options.readable_limit = contents_.size() - Footer::kEncodedLength;
  const absl::StatusOr<std::vector<MetaindexEntry>> metaindex =
      ReadMetaindex(*file, footer->footer, options, nullptr);
  ASSERT_TRUE(metaindex.ok()) << metaindex.status();
  ASSERT_EQ(metaindex->size(), 1u);
  std::string_view policy;
  FilterLayout layout;
  ASSERT_TRUE(ParseFilterMetaindexKey((*metaindex)[0].key, &policy, &layout));
  EXPECT_EQ(policy, "leveldb.BuiltinBloomFilter2");
  EXPECT_EQ(layout, FilterLayout::kPerBlock);
  EXPECT_FALSE(ParseFilterMetaindexKey("rocksdb.properties", &policy, &layout));
}

TEST_F(TableStructureTest, FooterDamageIsPlacedAtTheFooter) {
  std::string damaged = contents_;
  damaged[damaged.size() - 1] ^= 0x01;  // the magic number
  const absl::StatusOr<std::unique_ptr<Table>> table = Open(damaged);
  ASSERT_FALSE(table.ok());
  EXPECT_EQ(CorruptionOffset(table.status()),
            contents_.size() - Footer::kEncodedLength);
  EXPECT_EQ(CorruptionReason(table.status()).substr(0, 30),
            "not a table: bad magic number ");
}

}  // namespace
}  // namespace bloomtable
