// What LevelDB 1.23 (Debian's) does with bloomtable's zstd tables: it cannot
// read them (zstd arrived in upstream LevelDB after 1.23) and calls the
// index block corrupt, whereas bloomtable reads them back.

#include <memory>
#include <string>
#include <vector>

#include "bloomtable/options.h"
#include "gtest/gtest.h"
#include "tests/compat/leveldb_files.h"

namespace bloomtable {
namespace {

std::vector<compat_test::KeyValue> Entries() {
  std::vector<compat_test::KeyValue> entries;
  for (int i = 0; i < 2000; ++i) {
    entries.emplace_back("key" + std::to_string(100000 + i),
                         "a value that compresses " + std::to_string(i % 9));
  }
  return entries;
}

TEST(ZstdCompat, LevelDB123CannotReadZstdTables) {
  Options options;
  options.compression = CompressionType::kZstd;
  std::string contents = compat_test::BuildWithBloomtable(options, Entries());
  const uint64_t size = contents.size();

  auto ours = Table::Open(Options(), NewMemoryRandomAccessFile(contents), size);
  ASSERT_TRUE(ours.ok()) << ours.status();
  EXPECT_EQ(*(*ours)->Get(ReadOptions(), "key100007"),
            "a value that compresses 7");

  compat_test::LevelDBStringSource source(std::move(contents));
  leveldb::Table* raw_table = nullptr;
  const leveldb::Status status =
      leveldb::Table::Open(leveldb::Options(), &source, size, &raw_table);
  std::unique_ptr<leveldb::Table> table(raw_table);
  EXPECT_TRUE(status.IsCorruption()) << status.ToString();
}

}  // namespace
}  // namespace bloomtable
