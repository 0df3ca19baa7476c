// LevelRanges: the user-key ranges of one level's tables as integers, for a
// database whose keys are ordered bytewise. A point lookup asks, for every
// level-0 table and for one table per deeper level, whether the table's
// recorded range holds the key; with each boundary a string of its own on
// the heap, that is a cache miss per comparison. Here every boundary is
// reduced, once, to the 8 bytes after the prefix that all the level's
// boundaries share, as a big-endian integer, and the integers lie side by
// side: a lookup compares integers, and whole keys only where an integer
// ties with the key's (a boundary that agrees with the key in those bytes).
//
// Thread-safety: immutable after construction. It refers to the files it was
// built from, which must outlive it and not change.

#ifndef BLOOMTABLE_DB_LEVEL_RANGES_H_
#define BLOOMTABLE_DB_LEVEL_RANGES_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "bloomtable/database.h"

namespace bloomtable {

class LevelRanges {
 public:
  // A key as the level's integers see it.
  struct Target {
    std::string_view user_key;
    // -1: before every key of the level (it sorts before the shared
    // prefix), +1: after every one, 0: it starts with the shared prefix.
    int side = 0;
    uint64_t value = 0;  // the 8 bytes after the prefix (side 0)
  };

  // `files`: one level's tables, as the view orders them.
  explicit LevelRanges(const std::vector<DatabaseTableFile>* files);

  Target Digest(std::string_view user_key) const;

  // Whether file `i`'s user-key range [smallest, largest] holds the key.
  bool MayHold(size_t i, const Target& target) const;

  // Whether the files' largest keys increase, as in every level above 0:
  // FirstEndingAtOrAfter needs it.
  bool sorted() const { return sorted_; }

  // The first file whose largest key is at or after (user key, tag) in
  // internal-key order (FileEndsBefore is false), or the number of files if
  // none. REQUIRES: sorted().
  size_t FirstEndingAtOrAfter(const Target& target, uint64_t tag) const;

  size_t MemoryUsage() const;

 private:
  // Compares the key with file `i`'s smallest user key.
  int CompareWithSmallest(size_t i, std::string_view user_key) const;

  const std::vector<DatabaseTableFile>* const files_;
  std::string prefix_;
  std::vector<uint64_t> smallest_;  // per file, as Target::value reads it
  std::vector<uint64_t> largest_;
  bool sorted_ = true;
};

// Whether `file`'s largest key is before (user_key, tag) in internal-key
// order, user keys ordered by `user_comparator` (null: bytewise, compared
// inline), without making that internal key.
bool FileEndsBefore(const Comparator* user_comparator,
                    const DatabaseTableFile& file, std::string_view user_key,
                    uint64_t tag);

}  // namespace bloomtable

#endif  // BLOOMTABLE_DB_LEVEL_RANGES_H_
