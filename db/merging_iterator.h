// Internal iterators of the database view: a level's tables as one sorted
// sequence (opening each table only when the iteration reaches it), and the
// merge of many sorted sources into one.
//
// Both yield LevelDB internal keys in InternalKeyComparator order. A merged
// iterator stops (becomes !Valid()) as soon as any source reports an error,
// so that a damaged or missing table never lets an older version of a key
// show through in its place. One thread at a time, like every iterator.

#ifndef BLOOMTABLE_DB_MERGING_ITERATOR_H_
#define BLOOMTABLE_DB_MERGING_ITERATOR_H_

#include <memory>
#include <vector>

#include "bloomtable/database.h"
#include "bloomtable/iterator.h"
#include "bloomtable/options.h"
#include "db/table_set.h"
#include "table/internal_key.h"

namespace bloomtable {

// Iterates over `files` (sorted by key, not overlapping: one level above 0,
// or a single level-0 file), opening each through `tables` when reached.
// `tables` and `comparator` must outlive the iterator.
std::unique_ptr<Iterator> NewLevelIterator(
    TableSet* tables, const InternalKeyComparator* comparator,
    std::vector<DatabaseTableFile> files, const ReadOptions& read_options);

// Merges `children`, each sorted by `comparator` (which must outlive it).
std::unique_ptr<Iterator> NewMergingIterator(
    const InternalKeyComparator* comparator,
    std::vector<std::unique_ptr<Iterator>> children);

// An iterator that is !Valid() with `status`.
std::unique_ptr<Iterator> NewErrorIterator(absl::Status status);

}  // namespace bloomtable

#endif  // BLOOMTABLE_DB_MERGING_ITERATOR_H_
