#include "table/internal_key.h"

#include "util/coding.h"
#include "util/string_util.h"

namespace bloomtable {
void AppendInternalKey(std::string* dst, std::string_view user_key,
                       uint64_t sequence, ValueType type) {
  dst->append(user_key.data(), user_key.size());
  PutFixed64(dst, PackSequenceAndType(sequence, type));
}

std::string_view InternalKeyComparator::Name() const {
  return "leveldb.InternalKeyComparator";
}

void InternalKeyComparator::FindShortestSeparator(
    std::string* start, std::string_view limit) const {
  const std::string_view user_start = ExtractUserKey(*start);
  const std::string_view user_limit = ExtractUserKey(limit);
  std::string shortened(user_start);
  user_comparator_->FindShortestSeparator(&shortened, user_limit);
  // Only a strictly shorter and strictly greater user key is worth using;
  // the largest tag keeps it before every entry of that user key.
  if (shortened.size() < user_start.size() &&
      user_comparator_->Compare(user_start, shortened) < 0) {
    PutFixed64(&shortened, kMaxValueTag);
    start->swap(shortened);
  }
}

void InternalKeyComparator::FindShortSuccessor(std::string* key) const {
  const std::string_view user_key = ExtractUserKey(*key);
  std::string successor(user_key);
  user_comparator_->FindShortSuccessor(&successor);
  if (successor.size() < user_key.size() &&
      user_comparator_->Compare(user_key, successor) < 0) {
    PutFixed64(&successor, kMaxValueTag);
    key->swap(successor);
  }
}

}  // namespace bloomtable
