#include "table/separator_index.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "util/coding.h"
#include "util/integer_search.h"
#include "util/string_util.h"

namespace bloomtable {

SeparatorIndex::SeparatorIndex(const Comparator* comparator)
    : comparator_(comparator),
      bytewise_(comparator == BytewiseComparator()),
      starts_{0} {}

void SeparatorIndex::Add(std::string_view separator) {
  arena_.append(separator.data(), separator.size());
  starts_.push_back(static_cast<uint32_t>(arena_.size()));
}

void SeparatorIndex::Finish() {
  arena_.shrink_to_fit();
  starts_.shrink_to_fit();
  if (!bytewise_ || size() < 2) return;
  // The separators before the last one lie between the first and the
  // last-but-one, so they share their common prefix.
  const size_t searched = size() - 1;
  const std::string_view first = separator(0);
  const std::string_view last = separator(searched - 1);
  const size_t common = CommonPrefixLength(first, last);
  common_prefix_length_ = common;
  if (common <= 8) {
    common_head_ = BigEndianPrefix64(first.substr(0, common));
    common_mask_ = common == 0 ? 0 : ~uint64_t{0} << (64 - 8 * common);
  }
  prefixes_.reserve(searched);
  for (size_t i = 0; i < searched; ++i) {
    prefixes_.push_back(BigEndianPrefix64(separator(i).substr(common)));
  }
}

size_t SeparatorIndex::FindBytewise(std::string_view key) const {
  const size_t n = size();
  if (n == 0) return 0;
  const size_t searched = prefixes_.size();  // n - 1, or 0 if n == 1
  const size_t lo = SearchPrefixes(key);
  if (lo < searched) return lo;
  // After every separator but the last.
  return separator(n - 1).compare(key) >= 0 ? n - 1 : n;
}

size_t SeparatorIndex::SearchPrefixes(std::string_view key) const {
  const size_t n = prefixes_.size();
  if (n == 0) return 0;
  // Against the common prefix: before it, the key is before every separator
  // searched; after it, after every one.
  const size_t common = common_prefix_length_;
  if (common <= 8 && key.size() >= 8) {
    // The key's first `common` bytes, as an integer.
    const uint64_t head = DecodeBigEndian64(key.data()) & common_mask_;
    if (head < common_head_) return 0;
    if (head > common_head_) return n;
  } else {
    const size_t compared = std::min(common, key.size());
    const int order =
        compared == 0 ? 0 : std::memcmp(key.data(), arena_.data(), compared);
    if (order < 0) return 0;
    if (order > 0) return n;
    if (key.size() < common) return 0;  // a proper prefix of every separator
  }

  // The first separator whose integer is >= the key's: every one before it
  // is < key.
  const uint64_t target = BigEndianPrefix64(key.substr(common));
  const uint64_t* const prefixes = prefixes_.data();
  size_t lo = FirstAtLeast(prefixes, n, target);
  if (lo == n || prefixes[lo] != target) return lo;  // separator lo > key

  // Ties: separators whose integer equals the key's, then those > key.
  size_t hi = static_cast<size_t>(
      std::upper_bound(prefixes + lo, prefixes + n, target) - prefixes);
  while (lo < hi) {
    const size_t mid = lo + (hi - lo) / 2;
    if (separator(mid).compare(key) < 0) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

size_t SeparatorIndex::FindWithComparator(std::string_view key) const {
  size_t lo = 0;
  size_t hi = size();
  while (lo < hi) {
    const size_t mid = lo + (hi - lo) / 2;
    if (comparator_->Compare(separator(mid), key) < 0) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

size_t SeparatorIndex::MemoryUsage() const {
  return arena_.capacity() + starts_.capacity() * sizeof(uint32_t) +
         prefixes_.capacity() * sizeof(uint64_t);
}

}  // namespace bloomtable
