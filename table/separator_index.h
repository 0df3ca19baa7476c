// SeparatorIndex holds a sorted list of separator keys, decoded once, and
// finds the first separator >= a key: a partitioned filter's top-level index
// (table/partitioned_filter.h) in a form that a lookup searches without
// decoding a block.
//
// The separators live in one arena. Under the bytewise comparator, every
// separator but the last shares the common prefix C of the first and the
// last-but-one (the last is the short successor of the table's last key,
// such as "1" for 16-digit decimal keys, and would leave C empty), and each
// one's next 8 bytes after C (zero-padded, big-endian) are kept as an
// integer: a search compares C once, then integers, and compares whole keys
// only among separators whose 8 bytes tie with the key's, and with the last
// separator. Under any other comparator a search is a binary search calling
// the comparator.
//
// Thread-safety: built by one thread; immutable after Finish, when Find may
// be called from many threads at once. The comparator must outlive it.

#ifndef BLOOMTABLE_TABLE_SEPARATOR_INDEX_H_
#define BLOOMTABLE_TABLE_SEPARATOR_INDEX_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "bloomtable/comparator.h"

namespace bloomtable {

class SeparatorIndex {
 public:
  explicit SeparatorIndex(const Comparator* comparator);

  SeparatorIndex(const SeparatorIndex&) = delete;
  SeparatorIndex& operator=(const SeparatorIndex&) = delete;

  // Appends a separator. REQUIRES: not Finished; `separator` is after every
  // separator added before it in the comparator's order (the caller checks,
  // since Find relies on it); the arena stays below 4 GiB.
  void Add(std::string_view separator);

  // Builds the search structure and releases spare capacity.
  void Finish();

  size_t size() const { return starts_.size() - 1; }

  std::string_view separator(size_t i) const {
    return std::string_view(arena_.data() + starts_[i],
                            starts_[i + 1] - starts_[i]);
  }

  // The index of the first separator >= `key`, or size() if none.
  // REQUIRES: Finished.
  size_t Find(std::string_view key) const {
    return bytewise_ ? FindBytewise(key) : FindWithComparator(key);
  }

  // Bytes held: the arena and the arrays.
  size_t MemoryUsage() const;

 private:
  size_t FindBytewise(std::string_view key) const;
  // The index of the first separator >= key among the first
  // prefixes_.size(), or prefixes_.size() if none.
  size_t SearchPrefixes(std::string_view key) const;
  size_t FindWithComparator(std::string_view key) const;

  const Comparator* const comparator_;
  const bool bytewise_;
  // Every separator's bytes, one after another; separator i is
  // arena_[starts_[i], starts_[i + 1]).
  std::string arena_;
  std::vector<uint32_t> starts_;
  // Bytewise only: the length of the common prefix of every separator but
  // the last (arena_'s first bytes), and each one's next 8 bytes as an
  // integer.
  size_t common_prefix_length_ = 0;
  // When the common prefix has at most 8 bytes: them as an integer (as
  // BigEndianPrefix64 pads them) and the mask that keeps them in a key's
  // first 8.
  uint64_t common_head_ = 0;
  uint64_t common_mask_ = 0;
  std::vector<uint64_t> prefixes_;
};

}  // namespace bloomtable

#endif  // BLOOMTABLE_TABLE_SEPARATOR_INDEX_H_
