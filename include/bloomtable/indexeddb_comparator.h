// The key order of Chromium's IndexedDB backing store, whose LevelDB
// databases name their comparator "idb_cmp1" (Chrome, Edge, Electron apps:
// the `*.indexeddb.leveldb` directories of a profile). docs/FORMAT.md,
// "IndexedDB keys", describes the keys it decodes.
//
// A key it cannot decode (a prefix cut short, an unknown type byte, a
// length past the key's end, an index id Chromium never writes) is not
// ordered by IndexedDB's rules: the comparison falls back to the keys'
// bytes, which is deterministic, and reports the key through
// ReportComparisonError, so that Database::Get and the database's
// iterators fail with DataLoss naming it (Chromium's own comparator
// aborts there). It never shortens keys (FindShortestSeparator and
// FindShortSuccessor leave them as they are): it is for reading.

#ifndef BLOOMTABLE_INCLUDE_BLOOMTABLE_INDEXEDDB_COMPARATOR_H_
#define BLOOMTABLE_INCLUDE_BLOOMTABLE_INDEXEDDB_COMPARATOR_H_

#include "bloomtable/comparator.h"

namespace bloomtable {

// Name: "idb_cmp1". The returned object is static, stateless and never
// destroyed; Database knows it without being given it.
const Comparator* IndexedDBComparator();

}  // namespace bloomtable

#endif  // BLOOMTABLE_INCLUDE_BLOOMTABLE_INDEXEDDB_COMPARATOR_H_
