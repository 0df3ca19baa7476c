// RadixKeyMap: the order-preserving map from byte-string keys to 64-bit
// integers under which the range filter (range_filter.h) works
// (docs/FILTERS.md, "Range filter").
//
// All keys of a table share the common prefix C of its first and last key.
// Past C, position i (byte C.size() + i, 0 for a key that is shorter) takes
// values in [min_i, max_i] over the keys: a digit of radix
// R_i = max_i - min_i + 1. The first D positions, as many as keep the product
// of the radices <= 2^64, form a mixed-radix number:
//
//   G(k) = sum over i < D of (k_i - min_i) * R_{i+1} * ... * R_{D-1}
//
// so 8-byte big-endian keys map to themselves (less an offset) and
// 16-digit decimal keys to their decimal value (less an offset): ranges of
// consecutive integers stay ranges of the same length. G is extended to every
// string s with the prefix C, monotone (s <= t implies G(s) <= G(t)): at the
// first position whose byte is below min_i, that digit and all later ones
// take their smallest value; above max_i, their largest.
//
// The map is "exhaustive" when no key has a byte past the D positions; then
// keys that differ only after C map to different integers unless one is the
// other plus trailing zero bytes.
//
// Thread-safety: immutable after Finish or Decode.

#ifndef BLOOMTABLE_FILTER_RADIX_KEY_MAP_H_
#define BLOOMTABLE_FILTER_RADIX_KEY_MAP_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace bloomtable {

class RadixKeyMap {
 public:
  // At most this many positions are mapped: enough for any radices whose
  // product fits in 64 bits, with up to ~190 constant (radix-1) positions
  // between them; keys longer than that are told apart by their first bytes.
  static constexpr size_t kMaxPositions = 256;

  // Collects each byte position's smallest and largest value over the keys,
  // then builds the map for the common prefix length. Keys in any order.
  class Builder {
   public:
    void Add(std::string_view key);
    // REQUIRES: at least one key added; every key has `prefix_length` bytes
    // in common with every other (the common prefix of the smallest and the
    // largest key).
    RadixKeyMap Finish(size_t prefix_length) const;

   private:
    std::vector<uint8_t> min_;  // over the keys that have a byte there
    std::vector<uint8_t> max_;
    size_t min_length_ = SIZE_MAX;
  };

  RadixKeyMap() = default;

  // Appends the map (not the prefix length):
  //   varint32 min key length, uint8 flags (bit 0: exhaustive),
  //   varint32 D, then D times [uint8 min_i][uint8 max_i].
  void EncodeTo(std::string* dst) const;
  // Parses what EncodeTo wrote from the front of *input, advancing it. False
  // if truncated, D > kMaxPositions, some min_i > max_i, or the radices'
  // product exceeds 2^64.
  bool DecodeFrom(std::string_view* input, size_t prefix_length);

  // G(key), for a key with all D positions in range (every added key).
  // REQUIRES: key.size() >= prefix_length; key has the common prefix.
  uint64_t Map(std::string_view key) const;

  // Whether `key` is one the map could have been built from: every mapped
  // position in range, no byte past them if exhaustive, and at least
  // min_length bytes. Used to check a parsed filter's first and last key.
  bool InRange(std::string_view key) const;

  // A value a such that every added key k >= lo has G(k) >= a. False if no
  // added key can be >= lo.
  // REQUIRES: lo has the common prefix.
  bool LowerBound(std::string_view lo, uint64_t* a) const;
  // A value b such that every added key k < hi has G(k) <= b. False if no
  // added key can be < hi.
  // REQUIRES: hi has the common prefix.
  bool UpperBound(std::string_view hi, uint64_t* b) const;

  // G of the largest string with the prefix: the number of integers - 1.
  uint64_t max_value() const {
    return suffix_max_.empty() ? 0 : suffix_max_[0];
  }
  size_t num_positions() const { return positions_.size(); }
  bool exhaustive() const { return exhaustive_; }
  size_t min_length() const { return min_length_; }

 private:
  enum class Clamp { kNone, kBelow, kAbove };
  struct Position {
    uint8_t min;
    uint8_t max;
  };
  struct Mapped {
    uint64_t value;
    Clamp clamp;       // the first position out of range, if any
    bool beyond;       // the string has bytes past the D positions
    bool beyond_zero;  // ... and they are all zero
  };

  Mapped MapBound(std::string_view s) const;
  // Fills suffix_max_ from positions_; false if the product exceeds 2^64.
  bool ComputeSuffixProducts();

  size_t prefix_length_ = 0;
  size_t min_length_ = 0;
  bool exhaustive_ = true;
  std::vector<Position> positions_;
  // suffix_max_[i] = R_i * ... * R_{D-1} - 1 (so suffix_max_[D] = 0).
  std::vector<uint64_t> suffix_max_;
};

}  // namespace bloomtable

#endif  // BLOOMTABLE_FILTER_RADIX_KEY_MAP_H_
