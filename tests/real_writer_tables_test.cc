// Tables that the real engines wrote, committed in tests/data/leveldb/ and
// tests/data/rocksdb/ (tests/real_writer_tables.h says what each holds;
// tests/data/make_real_writer_tables.cc wrote them): leveldb::TableBuilder
// output with and without Snappy, a compacted leveldb::DB table with every
// version and deletion of its keys, and RocksDB's format_version 0 tables
// with each compression in RocksDB's numbering. Each reads back exactly,
// without linking either engine (so in every build, sanitizers included).

#include "tests/real_writer_tables.h"

#include <string>
#include <string_view>
#include <vector>

#include "absl/strings/str_cat.h"
#include "bloomtable/comparator.h"
#include "bloomtable/file.h"
#include "bloomtable/filter_policy.h"
#include "bloomtable/iterator.h"
#include "bloomtable/options.h"
#include "bloomtable/table.h"
#include "gtest/gtest.h"
#include "table/block.h"
#include "table/format.h"
#include "tests/table_layout.h"
#include "util/coding.h"

namespace bloomtable {
namespace real_writer_tables {
namespace {

std::string ReadFixture(const char* name) {
  const std::string path = absl::StrCat(BLOOMTABLE_TEST_DATA_DIR, "/", name);
  absl::StatusOr<std::string> bytes = ReadFileToString(path);
  EXPECT_TRUE(bytes.ok()) << bytes.status();
  return bytes.ok() ? *bytes : std::string();
}

std::unique_ptr<Table> OpenFixture(const std::string& bytes,
                                   KeyFormat key_format, bool with_bloom) {
  Options options;
  options.key_format = key_format;
  if (with_bloom) options.filter_policy = NewLevelDBBloomFilterPolicy(10);
  absl::StatusOr<std::unique_ptr<Table>> table =
      Table::Open(options, NewMemoryRandomAccessFile(bytes), bytes.size());
  EXPECT_TRUE(table.ok()) << table.status();
  return table.ok() ? std::move(*table) : nullptr;
}

// The trailer's type byte of every data block, the index read in
// `numbering`.
std::vector<unsigned char> DataBlockTypes(const std::string& bytes,
                                          CompressionNumbering numbering) {
  const Footer footer = table_test::ReadFooter(bytes);
  auto file = NewMemoryRandomAccessFile(bytes);
  ReadBlockOptions options;
  options.readable_limit = bytes.size() - Footer::kEncodedLength;
  options.numbering = numbering;
  auto index = ReadBlock(*file, footer.index_handle(), options, nullptr);
  EXPECT_TRUE(index.ok()) << index.status();
  if (!index.ok()) return {};
  auto block = Block::Parse(*std::move(index));
  EXPECT_TRUE(block.ok()) << block.status();
  if (!block.ok()) return {};
  std::vector<unsigned char> types;
  BlockIter it(BytewiseComparator(), block->get());
  for (it.SeekToFirst(); it.Valid(); it.Next()) {
    const BlockHandle handle = table_test::DecodeHandle(it.value());
    types.push_back(
        static_cast<unsigned char>(bytes[handle.offset() + handle.size()]));
  }
  EXPECT_TRUE(it.status().ok()) << it.status();
  return types;
}

// kTableEntries plain (or, with `internal`, SstFileWriter's internal) keys
// in order, each with its value, and Get finding each.
void ExpectEveryEntry(const Table& table, bool internal) {
  auto it = table.NewIterator(ReadOptions());
  int i = 0;
  for (it->SeekToFirst(); it->Valid(); it->Next(), ++i) {
    ASSERT_LT(i, kTableEntries);
    std::string_view key = it->key();
    if (internal) {
      ASSERT_GE(key.size(), 8u);
      // SstFileWriter's records: sequence 0, a value.
      EXPECT_EQ(DecodeFixed64(key.data() + key.size() - 8), uint64_t{1});
      key.remove_suffix(8);
    }
    ASSERT_EQ(key, UserKey(i));
    ASSERT_EQ(it->value(), Value(i));
  }
  ASSERT_TRUE(it->status().ok()) << it->status();
  EXPECT_EQ(i, kTableEntries);
  for (int j = 0; j < kTableEntries; ++j) {
    absl::StatusOr<std::string> got = table.Get(ReadOptions(), UserKey(j));
    ASSERT_TRUE(got.ok()) << got.status();
    EXPECT_EQ(*got, Value(j));
    EXPECT_TRUE(
        absl::IsNotFound(table.Get(ReadOptions(), UserKey(j) + "x").status()));
  }
}

class LevelDBTableBuilderTable : public testing::TestWithParam<LevelDBTable> {};

TEST_P(LevelDBTableBuilderTable, ReadsBackExactlyWithItsFilter) {
  const std::string bytes = ReadFixture(GetParam().path);
  ASSERT_FALSE(bytes.empty());
  const std::vector<unsigned char> types =
      DataBlockTypes(bytes, CompressionNumbering::kLevelDB);
  ASSERT_GT(types.size(), 4u);
  for (unsigned char type : types) {
    // LevelDB keeps a block uncompressed when Snappy saves under 1/8.
    EXPECT_TRUE(type == 0 || (GetParam().snappy && type == 1)) << int{type};
  }
  if (GetParam().snappy) {
    EXPECT_NE(types.front(), 0);
  }
  std::unique_ptr<Table> table =
      OpenFixture(bytes, KeyFormat::kPlain, /*with_bloom=*/true);
  ASSERT_NE(table, nullptr);
  EXPECT_TRUE(table->filter_info().in_use);
  ExpectEveryEntry(*table, /*internal=*/false);
  // The keys + "x" above: LevelDB's filter rules most of them out.
  EXPECT_GT(table->GetStats().filter_negatives, uint64_t{kTableEntries / 2});
}

INSTANTIATE_TEST_SUITE_P(Written, LevelDBTableBuilderTable,
                         testing::ValuesIn(kLevelDBTables),
                         [](const testing::TestParamInfo<LevelDBTable>& info) {
                           return std::string(info.param.snappy ? "snappy"
                                                                : "none");
                         });

// Every record of the database's three rounds, in LevelDB's internal-key
// order; Get gives each key's newest version, NotFound for a deletion.
TEST(LevelDBDatabaseTable, HoldsEveryVersionAndReadsTheNewest) {
  const std::string bytes = ReadFixture(kLevelDBDatabaseTable);
  ASSERT_FALSE(bytes.empty());
  std::unique_ptr<Table> table =
      OpenFixture(bytes, KeyFormat::kLevelDBInternal, /*with_bloom=*/true);
  ASSERT_NE(table, nullptr);
  EXPECT_TRUE(table->filter_info().in_use);
  const std::vector<Record> records = DatabaseRecordsInTableOrder();
  auto it = table->NewIterator(ReadOptions());
  size_t i = 0;
  for (it->SeekToFirst(); it->Valid(); it->Next(), ++i) {
    ASSERT_LT(i, records.size());
    std::string expected_key = records[i].user_key;
    PutFixed64(&expected_key,
               records[i].sequence << 8 | (records[i].deletion ? 0 : 1));
    ASSERT_EQ(it->key(), expected_key) << i;
    ASSERT_EQ(it->value(), records[i].value) << i;
  }
  ASSERT_TRUE(it->status().ok()) << it->status();
  EXPECT_EQ(i, records.size());
  int deleted = 0;
  for (size_t r = 0; r < records.size(); ++r) {
    // The first record of each user key is its newest.
    if (r > 0 && records[r - 1].user_key == records[r].user_key) continue;
    absl::StatusOr<std::string> got =
        table->Get(ReadOptions(), records[r].user_key);
    if (records[r].deletion) {
      EXPECT_TRUE(absl::IsNotFound(got.status())) << records[r].user_key;
      ++deleted;
    } else {
      ASSERT_TRUE(got.ok()) << records[r].user_key << ": " << got.status();
      EXPECT_EQ(*got, records[r].value);
    }
  }
  EXPECT_EQ(deleted, kDatabaseKeys / 5);
}

class RocksDBFormatVersion0Table : public testing::TestWithParam<RocksDBTable> {
};

// LevelDB's magic number, so the metaindex's "rocksdb.properties" is what
// tells the reader to use RocksDB's numbering: type 2 is raw deflate here,
// 3 bzip2, 4 and 5 LZ4, 7 zstd.
TEST_P(RocksDBFormatVersion0Table, ReadsBackExactlyInRocksDBsNumbering) {
  const std::string bytes = ReadFixture(GetParam().path);
  ASSERT_GT(bytes.size(), Footer::kEncodedLength);
  ASSERT_EQ(DecodeFixed64(bytes.data() + bytes.size() - 8), kTableMagicNumber);
  const std::vector<unsigned char> types =
      DataBlockTypes(bytes, CompressionNumbering::kRocksDB);
  ASSERT_GT(types.size(), 4u);
  for (unsigned char type : types) {
    EXPECT_TRUE(type == 0 || type == GetParam().type) << int{type};
  }
  EXPECT_EQ(types.front(), GetParam().type);
  std::unique_ptr<Table> table =
      OpenFixture(bytes, KeyFormat::kLevelDBInternal, /*with_bloom=*/false);
  ASSERT_NE(table, nullptr);
  ExpectEveryEntry(*table, /*internal=*/true);
}

INSTANTIATE_TEST_SUITE_P(Written, RocksDBFormatVersion0Table,
                         testing::ValuesIn(kRocksDBTables),
                         [](const testing::TestParamInfo<RocksDBTable>& info) {
                           std::string name = info.param.path;
                           name = name.substr(name.find('_') + 1);
                           return name.substr(0, name.find('.'));
                         });

}  // namespace
}  // namespace real_writer_tables
}  // namespace bloomtable
