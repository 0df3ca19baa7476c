// For the fuzz targets and tests/table_allocation_test.cc: rewrites the
// CRCs of a table's blocks so that they match, letting mutated bytes get past
// the checksum checks and reach the block, index, metaindex and filter
// parsers. (A mutation almost never keeps a CRC32C right by chance; without
// this the fuzzer only explores what lies before the checks.)
//
// The blocks found are those the footer names (index and metaindex) and
// those their entries name (data and filter blocks), as far as they decode.
// Handles that do not fit the file are skipped; overlapping blocks are
// fixed in that order, so the last one wins.

#ifndef BLOOMTABLE_FUZZ_FIX_CHECKSUMS_H_
#define BLOOMTABLE_FUZZ_FIX_CHECKSUMS_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "bloomtable/comparator.h"
#include "bloomtable/file.h"
#include "table/block.h"
#include "table/format.h"
#include "util/coding.h"
#include "util/crc32c.h"

namespace bloomtable {
namespace fuzz_internal {

// Sets the trailer CRC of the block at `handle`, if the block and its
// trailer lie before the footer.
inline void FixBlockChecksum(std::string* table, const BlockHandle& handle) {
  if (table->size() < Footer::kEncodedLength) return;
  if (!handle.FitsWithin(table->size() - Footer::kEncodedLength)) return;
  const size_t n = static_cast<size_t>(handle.size());
  char* block = table->data() + handle.offset();
  EncodeFixed32(block + n + 1, crc32c::Mask(crc32c::Value(block, n + 1)));
}

// The handles stored as values of the block at `handle` (read with the
// checksum just fixed), at most `limit` of them.
inline std::vector<BlockHandle> HandlesIn(const std::string& table,
                                          const BlockHandle& handle,
                                          size_t limit) {
  std::vector<BlockHandle> handles;
  const auto file = NewMemoryRandomAccessFile(table);
  ReadBlockOptions options;
  options.verify_checksum = false;
  options.readable_limit = table.size() - Footer::kEncodedLength;
  absl::StatusOr<BlockContents> contents =
      ReadBlock(*file, handle, options, nullptr);
  if (!contents.ok()) return handles;
  absl::StatusOr<std::shared_ptr<const Block>> block =
      Block::Parse(*std::move(contents));
  if (!block.ok()) return handles;
  BlockIter it(BytewiseComparator(), block->get());
  for (it.SeekToFirst(); it.Valid() && handles.size() < limit; it.Next()) {
    std::string_view value = it.value();
    BlockHandle entry;
    if (entry.DecodeFrom(&value).ok()) handles.push_back(entry);
  }
  return handles;
}

// `table` with every block checksum it can find made right.
inline std::string WithChecksumsFixed(std::string table) {
  if (table.size() < Footer::kEncodedLength) return table;
  Footer footer;
  if (!footer
           .DecodeFrom(std::string_view(table).substr(table.size() -
                                                      Footer::kEncodedLength))
           .ok()) {
    return table;
  }
  // Enough for any table within the fuzzers' 16 KiB inputs.
  constexpr size_t kMaxHandles = 4096;
  for (const BlockHandle& top :
       {footer.index_handle(), footer.metaindex_handle()}) {
    FixBlockChecksum(&table, top);
    for (const BlockHandle& handle : HandlesIn(table, top, kMaxHandles)) {
      FixBlockChecksum(&table, handle);
    }
  }
  return table;
}

}  // namespace fuzz_internal
}  // namespace bloomtable

#endif  // BLOOMTABLE_FUZZ_FIX_CHECKSUMS_H_
