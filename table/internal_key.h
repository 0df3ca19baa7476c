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
#include "util/coding.h"
#include "util/string_util.h"

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

// The user-key part. A key shorter than the tag (malformed) is returned
// whole, so that callers never read out of bounds.
inline std::string_view ExtractUserKey(std::string_view internal_key) {
  if (internal_key.size() < kInternalKeyTagSize) return internal_key;
  return internal_key.substr(0, internal_key.size() - kInternalKeyTagSize);
}

// The tag; 0 for a key shorter than the tag (malformed).
inline uint64_t ExtractTag(std::string_view internal_key) {
  if (internal_key.size() < kInternalKeyTagSize) return 0;
  return DecodeFixed64(internal_key.data() + internal_key.size() -
                       kInternalKeyTagSize);
}

// False if `internal_key` is shorter than the tag or its type is neither
// kDeletion nor kValue. Inline: iterators parse every entry.
inline bool ParseInternalKey(std::string_view internal_key,
                             ParsedInternalKey* result) {
  if (internal_key.size() < kInternalKeyTagSize) return false;
  const uint64_t tag = ExtractTag(internal_key);
  const auto type = static_cast<unsigned char>(tag & 0xff);
  if (type > static_cast<unsigned char>(ValueType::kValue)) return false;
  result->user_key = ExtractUserKey(internal_key);
  result->sequence = tag >> 8;
  result->type = static_cast<ValueType>(type);
  return true;
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

  int Compare(std::string_view a, std::string_view b) const override {
    return CompareKeys(a, b);
  }
  // Compare without the virtual call, for callers that hold this class
  // (merging iterators compare on every entry).
  int CompareKeys(std::string_view a, std::string_view b) const {
    const std::string_view user_a = ExtractUserKey(a);
    const std::string_view user_b = ExtractUserKey(b);
    const int by_user_key = user_bytewise_
                                ? BytewiseCompare(user_a, user_b)
                                : user_comparator_->Compare(user_a, user_b);
    if (by_user_key != 0) return by_user_key;
    const uint64_t a_tag = ExtractTag(a);
    const uint64_t b_tag = ExtractTag(b);
    if (a_tag > b_tag) return -1;  // newer first
    return a_tag < b_tag ? 1 : 0;
  }
  // Whether user keys compare as bytes (the bytewise comparator).
  bool user_bytewise() const { return user_bytewise_; }
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
