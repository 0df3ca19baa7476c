// Hostile files cost bounded work (docs/DESIGN.md, "Hostile input"): what Open
// reads and allocates is bounded by the file, not by counts or lengths the
// file claims. (Allocation sizes are also checked by the fuzz targets, run
// with -malloc_limit_mb; the Snappy length bound has its tests in
// format_test.cc.)

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "bloomtable/file.h"
#include "bloomtable/filter_policy.h"
#include "bloomtable/options.h"
#include "bloomtable/table.h"
#include "bloomtable/table_builder.h"
#include "gtest/gtest.h"
#include "table/block_builder.h"
#include "table/format.h"
#include "util/coding.h"
#include "util/crc32c.h"

namespace bloomtable {
namespace {

// Appends `contents` as an uncompressed block with a valid trailer and
// returns its handle.
BlockHandle AppendBlock(std::string* file, std::string_view contents) {
  const BlockHandle handle(file->size(), contents.size());
  file->append(contents.data(), contents.size());
  file->push_back(static_cast<char>(kNoCompressionType));
  PutFixed32(file, crc32c::Mask(crc32c::Value(file->data() + handle.offset(),
                                              contents.size() + 1)));
  return handle;
}

// A metaindex that names the same (unusable) filter block `copies` times:
// a damaged metaindex, checksum and all. Open reads that filter block once,
// not once per entry, and opens the table without a filter.
TEST(TableResourceLimits, RepeatedFilterEntriesAreReadOnce) {
  constexpr int kCopies = 500;
  // One data block with one key, then a filter block whose base_lg of 0
  // makes it unusable (every policy would have to try the next entry).
  std::string file;
  BlockBuilder data(16);
  data.Add("key", "value");
  const BlockHandle data_handle = AppendBlock(&file, data.Finish());
  const BlockHandle filter_handle =
      AppendBlock(&file, std::string("\x00\x00\x00\x00\x00", 5));

  BlockBuilder metaindex(16);
  std::string encoded_filter_handle;
  filter_handle.EncodeTo(&encoded_filter_handle);
  for (int i = 0; i < kCopies; ++i) {
    metaindex.Add("filter.leveldb.BuiltinBloomFilter2", encoded_filter_handle);
  }
  const BlockHandle metaindex_handle = AppendBlock(&file, metaindex.Finish());
  BlockBuilder index(1);
  std::string encoded_data_handle;
  data_handle.EncodeTo(&encoded_data_handle);
  index.Add("key", encoded_data_handle);
  const BlockHandle index_handle = AppendBlock(&file, index.Finish());
  Footer(metaindex_handle, index_handle).EncodeTo(&file);

  Options options;
  options.filter_policy = NewLevelDBBloomFilterPolicy(10);
  auto counters = std::make_shared<FileReadCounters>();
  auto table = Table::Open(
      options,
      NewCountingRandomAccessFile(NewMemoryRandomAccessFile(file), counters),
      file.size());
  ASSERT_TRUE(table.ok()) << table.status();
  EXPECT_FALSE((*table)->filter_info().in_use);
  // The footer, the index, the metaindex and the filter block, once each.
  EXPECT_EQ(counters->reads.load(), 4u);
  EXPECT_EQ(*(*table)->Get(ReadOptions(), "key"), "value");
}

}  // namespace
}  // namespace bloomtable
