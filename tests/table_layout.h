// Where the blocks of an intact table file lie, read with the table layer's
// own decoders (table/table_structure.h: footer, metaindex; blocks): for tests
// that damage or inspect one block of a table they built. A block that cannot
// be read adds a test failure. Test-only code.

#ifndef BLOOMTABLE_TESTS_TABLE_LAYOUT_H_
#define BLOOMTABLE_TESTS_TABLE_LAYOUT_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "bloomtable/comparator.h"
#include "bloomtable/file.h"
#include "gtest/gtest.h"
#include "table/block.h"
#include "table/format.h"
#include "table/table_structure.h"

namespace bloomtable {
namespace table_test {

struct TableLayout {
  BlockHandle index;
  BlockHandle metaindex;
  std::vector<BlockHandle> data;  // in file order
  // The "filter.", "fullfilter." or "partitionedfilter." entry (for the
  // last, the top-level index).
  std::optional<BlockHandle> filter;
  uint64_t file_size = 0;
};

inline Footer ReadFooter(const std::string& contents) {
  auto file = NewMemoryRandomAccessFile(contents);
  absl::StatusOr<FooterContents> footer =
      bloomtable::ReadFooter(*file, contents.size(), nullptr);
  EXPECT_TRUE(footer.ok()) << footer.status();
  return footer.ok() ? footer->footer : Footer();
}

// The key/value entries of the block at `handle`, checksum verified.
inline std::vector<std::pair<std::string, std::string>> ReadBlockEntries(
    const std::string& contents, const BlockHandle& handle) {
  auto file = NewMemoryRandomAccessFile(contents);
  ReadBlockOptions options;
  options.readable_limit = contents.size() - Footer::kEncodedLength;
  auto block_contents = ReadBlock(*file, handle, options, nullptr);
  EXPECT_TRUE(block_contents.ok()) << block_contents.status();
  if (!block_contents.ok()) return {};
  auto block = Block::Parse(*std::move(block_contents));
  EXPECT_TRUE(block.ok()) << block.status();
  if (!block.ok()) return {};
  std::vector<std::pair<std::string, std::string>> entries;
  BlockIter it(BytewiseComparator(), block->get());
  for (it.SeekToFirst(); it.Valid(); it.Next()) {
    entries.emplace_back(it.key(), it.value());
  }
  EXPECT_TRUE(it.status().ok()) << it.status();
  return entries;
}

inline BlockHandle DecodeHandle(std::string_view encoded) {
  BlockHandle handle;
  EXPECT_TRUE(handle.DecodeFrom(&encoded).ok());
  return handle;
}

inline TableLayout ReadTableLayout(const std::string& contents) {
  TableLayout layout;
  layout.file_size = contents.size();
  const Footer footer = ReadFooter(contents);
  layout.index = footer.index_handle();
  layout.metaindex = footer.metaindex_handle();
  for (const auto& [key, value] : ReadBlockEntries(contents, layout.index)) {
    layout.data.push_back(DecodeHandle(value));
  }
  auto file = NewMemoryRandomAccessFile(contents);
  ReadBlockOptions options;
  options.readable_limit = contents.size() - Footer::kEncodedLength;
  absl::StatusOr<std::vector<MetaindexEntry>> metaindex =
      ReadMetaindex(*file, footer, options, nullptr);
  EXPECT_TRUE(metaindex.ok()) << metaindex.status();
  if (!metaindex.ok()) return layout;
  for (const MetaindexEntry& entry : *metaindex) {
    std::string_view policy_name;
    FilterLayout filter_layout;
    if (ParseFilterMetaindexKey(entry.key, &policy_name, &filter_layout)) {
      layout.filter = entry.handle;
    }
  }
  return layout;
}

}  // namespace table_test
}  // namespace bloomtable

#endif  // BLOOMTABLE_TESTS_TABLE_LAYOUT_H_
