#include "table/internal_key.h"

#include "util/coding.h"
#include "util/string_util.h"

namespace bloomtable {
namespace {

uint64_t ExtractTag(std::string_view internal_key) {
  if (internal_key.size() < kInternalKeyTagSize) return 0;
  return DecodeFixed64(internal_key.data() + internal_key.size() -
                       kInternalKeyTagSize);
}

}  // namespace

void AppendInternalKey(std::string* dst, std::string_view user_key,
                       uint64_t sequence, ValueType type) {
  dst->append(user_key.data(), user_key.size());
  PutFixed64(dst, PackSequenceAndType(sequence, type));
}

bool ParseInternalKey(std::string_view internal_key,
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

int InternalKeyComparator::Compare(std::string_view a,
                                   std::string_view b) const {
  const std::string_view user_a = ExtractUserKey(a);
  const std::string_view user_b = ExtractUserKey(b);
  const int by_user_key = user_bytewise_
                              ? BytewiseCompare(user_a, user_b)
                              : user_comparator_->Compare(user_a, user_b);
  if (by_user_key != 0) return by_user_key;
  const uint64_t a_tag = ExtractTag(a);
  const uint64_t b_tag = ExtractTag(b);
  if (a_tag > b_tag) return -1;  // newer first
  if (a_tag < b_tag) return 1;
  return 0;
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
