#include "db/level_ranges.h"

#include "bloomtable/comparator.h"
#include "table/internal_key.h"
#include "util/coding.h"
#include "util/integer_search.h"
#include "util/string_util.h"

namespace bloomtable {
namespace {

std::string_view SmallestUserKey(const DatabaseTableFile& file) {
  return ExtractUserKey(file.smallest);
}
std::string_view LargestUserKey(const DatabaseTableFile& file) {
  return ExtractUserKey(file.largest);
}

}  // namespace

bool FileEndsBefore(const Comparator* user_comparator,
                    const DatabaseTableFile& file, std::string_view user_key,
                    uint64_t tag) {
  const std::string_view largest = LargestUserKey(file);
  const int by_user_key = user_comparator == nullptr
                              ? largest.compare(user_key)
                              : user_comparator->Compare(largest, user_key);
  if (by_user_key != 0) return by_user_key < 0;
  const uint64_t largest_tag =
      file.largest.size() < kInternalKeyTagSize
          ? 0
          : DecodeFixed64(file.largest.data() + file.largest.size() -
                          kInternalKeyTagSize);
  return largest_tag > tag;  // a larger tag (newer) comes first
}

LevelRanges::LevelRanges(const std::vector<DatabaseTableFile>* files)
    : files_(files) {
  if (!files_->empty()) {
    std::string_view shared = SmallestUserKey(files_->front());
    for (const DatabaseTableFile& file : *files_) {
      for (std::string_view key :
           {SmallestUserKey(file), LargestUserKey(file)}) {
        shared = shared.substr(0, CommonPrefixLength(shared, key));
      }
    }
    prefix_ = std::string(shared);
  }
  for (const DatabaseTableFile& file : *files_) {
    smallest_.push_back(
        BigEndianPrefix64(SmallestUserKey(file).substr(prefix_.size())));
    largest_.push_back(
        BigEndianPrefix64(LargestUserKey(file).substr(prefix_.size())));
    if (largest_.size() > 1 &&
        largest_[largest_.size() - 2] > largest_.back()) {
      sorted_ = false;
    }
  }
}

LevelRanges::Target LevelRanges::Digest(std::string_view user_key) const {
  Target target;
  target.user_key = user_key;
  if (StartsWith(user_key, prefix_)) {
    target.value = BigEndianPrefix64(user_key.substr(prefix_.size()));
  } else {
    // Every key of the level starts with the prefix; one that does not
    // sorts wholly before or after all of them.
    target.side = user_key < std::string_view(prefix_) ? -1 : 1;
  }
  return target;
}

int LevelRanges::CompareWithSmallest(size_t i, std::string_view key) const {
  return key.compare(SmallestUserKey((*files_)[i]));
}

bool LevelRanges::MayHold(size_t i, const Target& target) const {
  if (target.side != 0) return false;
  // Where the integers differ they order the keys; where they tie, only
  // the whole keys can tell.
  const uint64_t low = smallest_[i];
  const uint64_t high = largest_[i];
  if (target.value < low || target.value > high) return false;
  if (target.value == low && CompareWithSmallest(i, target.user_key) < 0) {
    return false;
  }
  if (target.value == high &&
      target.user_key.compare(LargestUserKey((*files_)[i])) > 0) {
    return false;
  }
  return true;
}

size_t LevelRanges::FirstEndingAtOrAfter(const Target& target,
                                         uint64_t tag) const {
  const size_t n = largest_.size();
  if (target.side < 0) return 0;
  if (target.side > 0) return n;
  // Files whose integer is below the key's end before it; above, after it.
  size_t i = FirstAtLeast(largest_.data(), n, target.value);
  // A tie: only the whole largest key (and at equal user keys, its tag)
  // tells; if it ends before, the next file may not.
  while (i < n && largest_[i] == target.value &&
         FileEndsBefore(nullptr, (*files_)[i], target.user_key, tag)) {
    ++i;
  }
  return i;
}

size_t LevelRanges::MemoryUsage() const {
  return sizeof(*this) + prefix_.capacity() +
         (smallest_.capacity() + largest_.capacity()) * sizeof(uint64_t);
}

}  // namespace bloomtable
