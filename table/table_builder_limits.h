// The sizes a TableBuilder keeps its blocks within, so that every table it
// writes can be read back:
//
//   - a block (data or index), uncompressed with its restart array, is at
//     most kMaxBlockSize, the largest Block::Parse accepts (restart offsets
//     are fixed32). The builder ends a data block early rather than let an
//     entry take it past that; it refuses (InvalidArgument, nothing written)
//     an entry that cannot fit even in an empty block, and an entry whose
//     index entry could take the index block past it (the table is full).
//   - the per-block filter block's filters end below 4 GiB (their offsets
//     are fixed32): see FilterBlockBuilder.
//
// Not part of the public API. TableBuilderTestPeer lets tests lower the
// limits, so that they are reached with a few kilobytes instead of 4 GiB.

#ifndef BLOOMTABLE_TABLE_TABLE_BUILDER_LIMITS_H_
#define BLOOMTABLE_TABLE_TABLE_BUILDER_LIMITS_H_

#include <cstdint>

#include "bloomtable/table_builder.h"
#include "filter/filter_block.h"
#include "table/block.h"

namespace bloomtable {

struct TableBuilderLimits {
  uint64_t max_block_size = kMaxBlockSize;
  uint64_t max_filter_bytes = kMaxFilterBytes;
};

// The most bytes an entry of a `key_size`-byte key and a `value_size`-byte
// value adds to a block: three varint32 lengths (5 bytes each at most), the
// key and value, and a restart point (4 bytes).
inline uint64_t MaxBlockEntrySize(uint64_t key_size, uint64_t value_size) {
  return 3 * 5 + key_size + value_size + 4;
}

// The most bytes an index entry adds for a data block whose last key has
// `key_size` bytes: its separator is never longer than that key (the
// comparator shortens it), its value a block handle of at most 20 bytes.
inline uint64_t MaxIndexEntrySize(uint64_t key_size) {
  return MaxBlockEntrySize(key_size, BlockHandle::kMaxEncodedLength);
}

class TableBuilderTestPeer {
 public:
  // REQUIRES: nothing added to `builder` yet.
  static void SetLimits(TableBuilder* builder,
                        const TableBuilderLimits& limits);
};

}  // namespace bloomtable

#endif  // BLOOMTABLE_TABLE_TABLE_BUILDER_LIMITS_H_
