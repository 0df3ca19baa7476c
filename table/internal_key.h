// LevelDB internal keys (FORMAT.md, "Keys inside a LevelDB database"): a
// user key followed by a fixed64 tag (sequence << 8) | type.
//
//   [user key bytes][fixed64 tag: sequence (56 bits) << 8 | type (8 bits)]
//
// Internal keys order by user key ascending (the user comparator), then by
// tag descending, so the newest version of a key comes first. Everything
// here is stateless or immutable: safe from any thread.

#ifndef BLOOMTABLE_TABLE_INTERNAL_KEY_H_
#define BLOOMTABLE_TABLE_INTERNAL_KEY_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "bloomtable/comparator.h"

namespace bloomtable {

// The tag's low byte.
enum class ValueType : unsigned char {
  kDeletion = 0,
  kValue = 1,
};

inline constexpr size_t kInternalKeyTagSize = 8;
// Sequence numbers have 56 bits.
inline constexpr uint64_t kMaxSequenceNumber = (uint64_t{1} << 56) - 1;
// The largest tag of a value: sorts before every entry of the same user key,
// so seeking to (user key, kMaxValueTag) finds the newest version. LevelDB
// also appends it to shortened index separators.
inline constexpr uint64_t kMaxValueTag =
    (kMaxSequenceNumber << 8) | static_cast<uint64_t>(ValueType::kValue);

inline uint64_t PackSequenceAndType(uint64_t sequence, ValueType type) {
  return (sequence << 8) | static_cast<uint64_t>(type);
}

// Appends user_key and the tag of (sequence, type) to *dst.
// REQUIRES: sequence <= kMaxSequenceNumber.
void AppendInternalKey(std::string* dst, std::string_view user_key,
                       uint64_t sequence, ValueType type);

struct ParsedInternalKey {
  std::string_view user_key;
  uint64_t sequence = 0;
  ValueType type = ValueType::kValue;
};

// False if `internal_key` is shorter than the tag or its type is neither
// kDeletion nor kValue.
bool ParseInternalKey(std::string_view internal_key, ParsedInternalKey* result);

// The user-key part. A key shorter than the tag (malformed) is returned
// whole, so that callers never read out of bounds.
inline std::string_view ExtractUserKey(std::string_view internal_key) {
  if (internal_key.size() < kInternalKeyTagSize) return internal_key;
  return internal_key.substr(0, internal_key.size() - kInternalKeyTagSize);
}

// Orders internal keys: user key by `user_comparator`, then tag descending.
// A malformed key (shorter than the tag) compares as a user key with tag 0,
// a total order that never reads out of bounds. Separators and successors
// follow LevelDB's (shortened user key + kMaxValueTag) so that index blocks
// match a LevelDB database's byte for byte. Name:
// "leveldb.InternalKeyComparator".
class InternalKeyComparator final : public Comparator {
 public:
  // `user_comparator` must outlive this comparator.
  explicit InternalKeyComparator(const Comparator* user_comparator)
      : user_comparator_(user_comparator),
        user_bytewise_(user_comparator == BytewiseComparator()) {}

  int Compare(std::string_view a, std::string_view b) const override;
  std::string_view Name() const override;
  void FindShortestSeparator(std::string* start,
                             std::string_view limit) const override;
  void FindShortSuccessor(std::string* key) const override;

  const Comparator* user_comparator() const { return user_comparator_; }

 private:
  const Comparator* const user_comparator_;
  // Compares user keys inline rather than through the virtual call.
  const bool user_bytewise_;
};

}  // namespace bloomtable

#endif  // BLOOMTABLE_TABLE_INTERNAL_KEY_H_
