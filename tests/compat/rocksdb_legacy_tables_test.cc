// Tables that the real RocksDB writes with LevelDB's magic number
// (BlockBasedTableOptions::format_version = 0, CRC32C checksums), with every
// compression RocksDB offers on Linux, read back exactly. Their metaindex
// names "rocksdb.properties", so their compression types follow RocksDB's
// numbering (table/block_compression.h): 2 raw deflate, 3 bzip2, 4 and 5 LZ4
// after a fixed64 size, 7 and 0x40 zstd after a varint32 size.

#include <rocksdb/env.h>
#include <rocksdb/options.h>
#include <rocksdb/sst_file_writer.h>
#include <rocksdb/table.h>

#include <string>
#include <utility>
#include <vector>

#include "bloomtable/file.h"
#include "bloomtable/iterator.h"
#include "bloomtable/options.h"
#include "bloomtable/table.h"
#include "gtest/gtest.h"
#include "table/format.h"
#include "tests/temp_dir.h"
#include "util/coding.h"

namespace bloomtable {
namespace {

constexpr int kEntries = 2000;

std::string UserKey(int i) { return "user-key-" + std::to_string(100000 + i); }

std::string Value(int i) {
  return "a value that RocksDB compresses, number " + std::to_string(i % 11);
}

// Writes the table with RocksDB's SstFileWriter; returns its bytes.
std::string WriteWithRocksDB(const std::string& path,
                             rocksdb::CompressionType compression) {
  rocksdb::BlockBasedTableOptions table_options;
  table_options.format_version = 0;
  // Any other checksum makes RocksDB raise format_version to 1 silently.
  table_options.checksum = rocksdb::kCRC32c;
  rocksdb::Options options;
  options.table_factory.reset(
      rocksdb::NewBlockBasedTableFactory(table_options));
  options.compression = compression;
  rocksdb::SstFileWriter writer(rocksdb::EnvOptions(), options);
  rocksdb::Status status = writer.Open(path);
  EXPECT_TRUE(status.ok()) << status.ToString();
  for (int i = 0; i < kEntries && status.ok(); ++i) {
    status = writer.Put(UserKey(i), Value(i));
  }
  EXPECT_TRUE(status.ok()) << status.ToString();
  status = writer.Finish();
  EXPECT_TRUE(status.ok()) << status.ToString();
  absl::StatusOr<std::string> bytes = ReadFileToString(path);
  EXPECT_TRUE(bytes.ok()) << bytes.status();
  return bytes.ok() ? *bytes : std::string();
}

struct Case {
  const char* name;
  rocksdb::CompressionType compression;
  unsigned char type;  // RocksDB's number for it, in the block trailers
};

class RocksDBLegacyTableTest : public testing::TestWithParam<Case> {};

TEST_P(RocksDBLegacyTableTest, ReadsBackExactly) {
  const TempDir dir;
  const std::string bytes =
      WriteWithRocksDB(dir.path() + "/table.sst", GetParam().compression);
  ASSERT_GT(bytes.size(), Footer::kEncodedLength);
  ASSERT_EQ(DecodeFixed64(bytes.data() + bytes.size() - 8), kTableMagicNumber)
      << "RocksDB did not write format_version 0";
  Footer footer;
  ASSERT_TRUE(footer
                  .DecodeFrom(std::string_view(bytes).substr(
                      bytes.size() - Footer::kEncodedLength))
                  .ok());
  // The index block is stored with the table's compression.
  const BlockHandle& index = footer.index_handle();
  EXPECT_EQ(static_cast<unsigned char>(bytes[index.offset() + index.size()]),
            GetParam().type);

  Options options;
  options.key_format = KeyFormat::kLevelDBInternal;  // SstFileWriter's keys
  auto table =
      Table::Open(options, NewMemoryRandomAccessFile(bytes), bytes.size());
  ASSERT_TRUE(table.ok()) << table.status();
  auto it = (*table)->NewIterator(ReadOptions());
  int i = 0;
  for (it->SeekToFirst(); it->Valid(); it->Next(), ++i) {
    ASSERT_LT(i, kEntries);
    ASSERT_EQ(it->key().substr(0, it->key().size() - 8), UserKey(i));
    ASSERT_EQ(it->value(), Value(i));
  }
  ASSERT_TRUE(it->status().ok()) << it->status();
  EXPECT_EQ(i, kEntries);
  for (int j = 0; j < kEntries; j += 37) {
    EXPECT_EQ(*(*table)->Get(ReadOptions(), UserKey(j)), Value(j));
  }
}

INSTANTIATE_TEST_SUITE_P(
    EveryCompression, RocksDBLegacyTableTest,
    testing::Values(Case{"snappy", rocksdb::kSnappyCompression, 1},
                    Case{"zlib", rocksdb::kZlibCompression, 2},
                    Case{"bzip2", rocksdb::kBZip2Compression, 3},
                    Case{"lz4", rocksdb::kLZ4Compression, 4},
                    Case{"lz4hc", rocksdb::kLZ4HCCompression, 5},
                    Case{"zstd", rocksdb::kZSTD, 7},
                    Case{"zstd_not_final", rocksdb::kZSTDNotFinalCompression,
                         0x40}),
    [](const testing::TestParamInfo<Case>& info) { return info.param.name; });

}  // namespace
}  // namespace bloomtable
