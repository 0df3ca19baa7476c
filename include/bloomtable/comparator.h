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

}  // namespace bloomtable

#endif  // BLOOMTABLE_INCLUDE_BLOOMTABLE_COMPARATOR_H_
