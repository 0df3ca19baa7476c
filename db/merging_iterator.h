// The merge of a database's sorted sources (its log records and its levels
// of tables) into one sequence of LevelDB internal keys, in
// InternalKeyComparator order.
//
// A merged iterator keeps its sources in a heap ordered by their current
// keys, each source's key cached, so that a step costs one comparison with
// the heap's top while one source holds a long run of the smallest keys,
// whatever the number of sources. A source may defer positioning (a level
// whose next table starts past the sought key, MergeSource): it then shows
// a lower bound of its key and is positioned only when that bound reaches
// the top of the heap, so that a seek reads no block of a source whose keys
// are not needed yet. Keys equal across sources come out in the order the
// sources were given (newest first, in the database).
//
// It stops (becomes !Valid()) as soon as any source reports an error, so
// that a damaged or missing table never lets an older version of a key show
// through in its place. One thread at a time, like every iterator.

#ifndef BLOOMTABLE_DB_MERGING_ITERATOR_H_
#define BLOOMTABLE_DB_MERGING_ITERATOR_H_

#include <memory>
#include <vector>

#include "absl/status/status.h"
#include "bloomtable/iterator.h"
#include "table/internal_key.h"

namespace bloomtable {

// A source of a merged iterator. Its contract beyond Iterator's: an
// iterator with an error is !Valid(); and Seek and SeekToFirst may leave it
// deferred, every other call never does.
class MergeSource : public Iterator {
 public:
  // True when the last Seek or SeekToFirst left the source unpositioned:
  // Valid(), with key() a lower bound of the entry it would be at; value(),
  // Next() and Prev() must not be called before Position().
  virtual bool deferred() const { return false; }
  // Positions a deferred source where the deferred call would have, reading
  // what it must. REQUIRES: deferred().
  virtual void Position() {}
};

// `iterator` as a source that never defers.
std::unique_ptr<MergeSource> AsMergeSource(std::unique_ptr<Iterator> iterator);

// Merges `children`, each sorted by `comparator` (which must outlive it).
std::unique_ptr<Iterator> NewMergingIterator(
    const InternalKeyComparator* comparator,
    std::vector<std::unique_ptr<MergeSource>> children);

// An iterator that is !Valid() with `status`.
std::unique_ptr<Iterator> NewErrorIterator(absl::Status status);

}  // namespace bloomtable

#endif  // BLOOMTABLE_DB_MERGING_ITERATOR_H_
