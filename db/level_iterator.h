// A level of a database's tables as one sorted sequence of internal keys:
// the tables of one level above 0 (sorted by key, not overlapping), or a
// single level-0 table, each opened through a TableSet only when the walk
// reaches it.
//
// As a source of a merged iterator (MergeSource) it defers: a Seek that
// lands before the first key of a table (as the MANIFEST records it) opens
// nothing and reads nothing, and shows that key until the merge positions
// it. SeekToFirst does not defer (a scan from the start reads every
// level's first table anyway, and then trusts no recorded key for order). It
// never opens a table whose keys all lie at or past
// ReadOptions::iterate_upper_bound, nor (walking backward) one whose keys
// all lie below iterate_lower_bound (user keys). A table whose first key
// turns out to lie below the MANIFEST's record is DataLoss: the merge may
// have passed that key already.
//
// One thread at a time; `tables` and `comparator` must outlive it.

#ifndef BLOOMTABLE_DB_LEVEL_ITERATOR_H_
#define BLOOMTABLE_DB_LEVEL_ITERATOR_H_

#include <memory>
#include <vector>

#include "bloomtable/database.h"
#include "bloomtable/options.h"
#include "db/merging_iterator.h"
#include "db/table_set.h"
#include "table/internal_key.h"

namespace bloomtable {

std::unique_ptr<MergeSource> NewLevelIterator(
    TableSet* tables, const InternalKeyComparator* comparator,
    std::vector<DatabaseTableFile> files, const ReadOptions& read_options);

}  // namespace bloomtable

#endif  // BLOOMTABLE_DB_LEVEL_ITERATOR_H_
