// The table iterator: walks the index block and, for each index entry, the
// data block its value (a BlockHandle) points to.
//
// Data blocks come from a DataBlockReader, the one place where a table reads
// a data block (a block cache slots in there), read ahead when the iterator
// moves forward block after block (readahead.h). The iterator holds the
// current data block by shared_ptr, so the block lives as long as it is
// being iterated. It stops at the first error (a damaged data block, a bad
// handle): it becomes !Valid() and status() says why, until the next Seek*.
// One thread at a time; the index block, comparator and reader must outlive
// it.

#ifndef BLOOMTABLE_TABLE_TWO_LEVEL_ITERATOR_H_
#define BLOOMTABLE_TABLE_TWO_LEVEL_ITERATOR_H_

#include <memory>

#include "absl/status/statusor.h"
#include "bloomtable/comparator.h"
#include "bloomtable/iterator.h"
#include "bloomtable/options.h"
#include "table/block.h"
#include "table/format.h"
#include "table/iterate_bounds.h"
#include "table/readahead.h"

namespace bloomtable {

// Reads data blocks for iterators and lookups. Implementations are
// thread-safe.
class DataBlockReader {
 public:
  virtual ~DataBlockReader();
  // The data block at `handle`, from the block cache or the file. An
  // iterator passes its `readahead` (may be null), which is told of every
  // block and reads those it says to.
  virtual absl::StatusOr<std::shared_ptr<const Block>> ReadDataBlock(
      const ReadOptions& read_options, const BlockHandle& handle,
      BlockReadahead* readahead) const = 0;

  // Told when an iterator starts (delta > 0) or stops (delta < 0) holding a
  // data block of that many bytes, for memory accounting.
  virtual void AddPinnedBytes(int64_t delta) const = 0;

  // Places `status`, an error met inside the data block at `*data_block` or,
  // if `data_block` is null, inside the index block, as table/corruption.h
  // words it.
  virtual absl::Status PlaceError(const BlockHandle* data_block,
                                  const absl::Status& status) const = 0;
};

// Honours read_options' bounds and prefix mode with `setup` (see
// IterateBounds): it never yields an entry outside them and reads no data
// block that lies wholly outside them.
std::unique_ptr<Iterator> NewTwoLevelIterator(const Comparator* comparator,
                                              const Block* index_block,
                                              const DataBlockReader* reader,
                                              const ReadOptions& read_options,
                                              const ScanSetup& setup);

}  // namespace bloomtable

#endif  // BLOOMTABLE_TABLE_TWO_LEVEL_ITERATOR_H_
