// A Comparator orders the keys of a table. Its Name() is not stored in the
// table (LevelDB's format has no place for it): reader and writer must agree.
// Implementations are immutable and thread-safe.

#ifndef BLOOMTABLE_INCLUDE_BLOOMTABLE_COMPARATOR_H_
#define BLOOMTABLE_INCLUDE_BLOOMTABLE_COMPARATOR_H_

#include <string>
#include <string_view>

namespace bloomtable {

class Comparator {
 public:
  virtual ~Comparator();

  // <0, 0 or >0 as a is before, equal to or after b.
  virtual int Compare(std::string_view a, std::string_view b) const = 0;

  virtual std::string_view Name() const = 0;

  // May change `*start` to a shorter key in [*start, limit). Used for index
  // separators. REQUIRES: Compare(*start, limit) < 0.
  virtual void FindShortestSeparator(std::string* start,
                                     std::string_view limit) const = 0;

  // May change `*key` to a shorter key >= *key.
  virtual void FindShortSuccessor(std::string* key) const = 0;
};

// Lexicographic order of unsigned bytes, with LevelDB's separator and
// successor shortening (FORMAT.md, "Index block"). Name:
// "leveldb.BytewiseComparator". The returned object is static and never
// destroyed.
const Comparator* BytewiseComparator();

// The built-in comparator of that name: "leveldb.BytewiseComparator"
// (BytewiseComparator()) or "idb_cmp1" (IndexedDBComparator(), in
// indexeddb_comparator.h); null for any other name.
const Comparator* BuiltinComparator(std::string_view name);

// A comparator that cannot order two keys (a key it cannot decode, a
// callback that failed) still returns a deterministic order, and calls
// this with the key at fault and why. The report goes to the innermost
// ComparisonErrorScope of the calling thread (util/comparison_errors.h):
// Database::Get and the database's iterators open one around their work,
// and fail with DataLoss naming the key. Without a scope, nothing is kept.
void ReportComparisonError(std::string_view key, std::string_view why);

}  // namespace bloomtable

#endif  // BLOOMTABLE_INCLUDE_BLOOMTABLE_COMPARATOR_H_
