// A block far larger than the reader's Options::block_size is read: how much
// a block may decompress to depends on its own stored bytes, not on an
// option of the reader. LevelDB writes a 100 MiB value as one 100 MiB data
// block, which Snappy stores in about 5 MiB.

#include <cstddef>
#include <memory>
#include <string>

#include "bloomtable/file.h"
#include "bloomtable/iterator.h"
#include "bloomtable/options.h"
#include "bloomtable/table.h"
#include "gtest/gtest.h"
#include "tests/compat/leveldb_files.h"

namespace bloomtable {
namespace {

constexpr size_t kValueSize = size_t{100} << 20;

// Byte i of the value: a short period, so that Snappy compresses it well
// and a shifted or truncated copy would not match.
char ValueByte(size_t i) { return static_cast<char>('a' + i % 23); }

TEST(LargeBlockCompat, LevelDBTableWithA100MiBValueReads) {
  compat_test::LevelDBStringSink sink;
  {
    leveldb::Options options;  // Snappy, block_size 4096
    leveldb::TableBuilder builder(options, &sink);
    builder.Add("before", "small");
    {
      std::string value(kValueSize, '\0');
      for (size_t i = 0; i < value.size(); ++i) value[i] = ValueByte(i);
      builder.Add("big", value);
    }  // the builder holds its own copy
    builder.Add("zafter", "small");
    ASSERT_TRUE(builder.Finish().ok());
  }
  // One block holds the 100 MiB value: the file is far smaller than it.
  ASSERT_LT(sink.contents().size(), kValueSize / 4);

  Options options;  // block_size 4096: irrelevant to what a block may hold
  auto table = Table::Open(options, NewMemoryRandomAccessFile(sink.contents()),
                           sink.contents().size());
  ASSERT_TRUE(table.ok()) << table.status();
  auto it = (*table)->NewIterator(ReadOptions());
  it->Seek("big");
  ASSERT_TRUE(it->Valid()) << it->status();
  EXPECT_EQ(it->key(), "big");
  const std::string_view value = it->value();
  ASSERT_EQ(value.size(), kValueSize);
  size_t mismatches = 0;
  for (size_t i = 0; i < value.size(); ++i) {
    mismatches += value[i] != ValueByte(i);
  }
  EXPECT_EQ(mismatches, 0u);
  it->Next();
  ASSERT_TRUE(it->Valid()) << it->status();
  EXPECT_EQ(it->key(), "zafter");
  EXPECT_EQ(*(*table)->Get(ReadOptions(), "before"), "small");
}

}  // namespace
}  // namespace bloomtable
