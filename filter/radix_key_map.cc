// The range filter's order-preserving key map (radix_key_map.h).

#include "filter/radix_key_map.h"

#include <algorithm>
#include <cassert>

#include "util/coding.h"

namespace bloomtable {

void RadixKeyMap::Builder::Add(std::string_view key) {
  if (key.size() > min_.size()) {
    min_.resize(key.size(), 0xff);
    max_.resize(key.size(), 0x00);
  }
  for (size_t p = 0; p < key.size(); ++p) {
    const uint8_t byte = static_cast<uint8_t>(key[p]);
    min_[p] = std::min(min_[p], byte);
    max_[p] = std::max(max_[p], byte);
  }
  min_length_ = std::min(min_length_, key.size());
}

RadixKeyMap RadixKeyMap::Builder::Finish(size_t prefix_length) const {
  assert(min_length_ != SIZE_MAX && prefix_length <= min_length_);
  RadixKeyMap map;
  map.prefix_length_ = prefix_length;
  map.min_length_ = min_length_;
  const size_t max_length = min_.size();
  unsigned __int128 product = 1;
  for (size_t p = prefix_length;
       p < max_length && map.positions_.size() < kMaxPositions; ++p) {
    // A key without a byte at p counts as a zero there.
    const uint8_t low = p >= min_length_ ? 0 : min_[p];
    const unsigned radix = max_[p] - low + 1u;
    if (product * radix > (static_cast<unsigned __int128>(1) << 64)) break;
    product *= radix;
    map.positions_.push_back({low, max_[p]});
  }
  map.exhaustive_ = prefix_length + map.positions_.size() >= max_length;
  const bool fits = map.ComputeSuffixProducts();
  assert(fits);
  (void)fits;
  return map;
}

bool RadixKeyMap::ComputeSuffixProducts() {
  suffix_max_.assign(positions_.size() + 1, 0);
  unsigned __int128 product = 1;
  for (size_t i = positions_.size(); i-- > 0;) {
    product *= positions_[i].max - positions_[i].min + 1u;
    if (product > (static_cast<unsigned __int128>(1) << 64)) return false;
    suffix_max_[i] = static_cast<uint64_t>(product - 1);
  }
  return true;
}

void RadixKeyMap::EncodeTo(std::string* dst) const {
  PutVarint32(dst, static_cast<uint32_t>(min_length_));
  dst->push_back(exhaustive_ ? 1 : 0);
  PutVarint32(dst, static_cast<uint32_t>(positions_.size()));
  for (const Position& position : positions_) {
    dst->push_back(static_cast<char>(position.min));
    dst->push_back(static_cast<char>(position.max));
  }
}

bool RadixKeyMap::DecodeFrom(std::string_view* input, size_t prefix_length) {
  uint32_t min_length;
  uint32_t count;
  if (!GetVarint32(input, &min_length) || input->empty()) return false;
  const uint8_t flags = static_cast<uint8_t>((*input)[0]);
  input->remove_prefix(1);
  if (flags > 1 || !GetVarint32(input, &count) || count > kMaxPositions ||
      input->size() < 2 * static_cast<size_t>(count)) {
    return false;
  }
  positions_.clear();
  for (uint32_t i = 0; i < count; ++i) {
    const Position position{static_cast<uint8_t>((*input)[2 * i]),
                            static_cast<uint8_t>((*input)[2 * i + 1])};
    if (position.min > position.max) return false;
    positions_.push_back(position);
  }
  input->remove_prefix(2 * static_cast<size_t>(count));
  prefix_length_ = prefix_length;
  min_length_ = min_length;
  exhaustive_ = flags == 1;
  return ComputeSuffixProducts();
}

RadixKeyMap::Mapped RadixKeyMap::MapBound(std::string_view s) const {
  assert(s.size() >= prefix_length_);
  Mapped result{0, Clamp::kNone, false, true};
  uint64_t value = 0;
  for (size_t i = 0; i < positions_.size(); ++i) {
    const size_t p = prefix_length_ + i;
    const uint8_t byte = p < s.size() ? static_cast<uint8_t>(s[p]) : 0;
    const Position& position = positions_[i];
    if (byte < position.min || byte > position.max) {
      // This digit and all later ones at their smallest (largest) value.
      // value * (suffix_max_[i] + 1) does not overflow: it is at most the
      // largest G.
      result.clamp = byte < position.min ? Clamp::kBelow : Clamp::kAbove;
      result.value = value * suffix_max_[i] + value +
                     (result.clamp == Clamp::kAbove ? suffix_max_[i] : 0);
      return result;
    }
    value = value * (position.max - position.min + 1u) + (byte - position.min);
  }
  result.value = value;
  const size_t mapped_end = prefix_length_ + positions_.size();
  result.beyond = s.size() > mapped_end;
  for (size_t p = mapped_end; p < s.size(); ++p) {
    if (s[p] != 0) {
      result.beyond_zero = false;
      break;
    }
  }
  return result;
}

uint64_t RadixKeyMap::Map(std::string_view key) const {
  return MapBound(key).value;
}

bool RadixKeyMap::InRange(std::string_view key) const {
  if (key.size() < prefix_length_ || key.size() < min_length_) return false;
  const Mapped mapped = MapBound(key);
  return mapped.clamp == Clamp::kNone && !(exhaustive_ && mapped.beyond);
}

bool RadixKeyMap::LowerBound(std::string_view lo, uint64_t* a) const {
  const Mapped m = MapBound(lo);
  // Every key mapping to m.value is below lo when lo's first out-of-range
  // digit is too large, or when (exhaustive map) lo runs past the mapped
  // positions that no key has: such a key is a proper prefix of lo.
  const bool all_below = m.clamp == Clamp::kAbove ||
                         (m.clamp == Clamp::kNone && exhaustive_ && m.beyond);
  if (!all_below) {
    *a = m.value;
    return true;
  }
  if (m.value == max_value()) return false;
  *a = m.value + 1;
  return true;
}

bool RadixKeyMap::UpperBound(std::string_view hi, uint64_t* b) const {
  const Mapped m = MapBound(hi);
  // Every key mapping to m.value is >= hi when hi's first out-of-range digit
  // is too small. With no digit out of range, an exhaustive map and nothing
  // but zeros past the mapped positions, a key k < hi with the same value
  // is hi less some trailing zero bytes: impossible if hi does not end in
  // a zero byte, or if it is too short to lose one.
  bool all_at_or_above = m.clamp == Clamp::kBelow;
  if (m.clamp == Clamp::kNone && exhaustive_ && m.beyond_zero) {
    all_at_or_above =
        hi.empty() || hi.back() != 0 || hi.size() - 1 < min_length_;
  }
  if (!all_at_or_above) {
    *b = m.value;
    return true;
  }
  if (m.value == 0) return false;
  *b = m.value - 1;
  return true;
}

}  // namespace bloomtable
