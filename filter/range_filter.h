// The range filter "bloomtable.Grafite": answers "may a key lie in
// [lo, hi)?" with no false negative, for byte-string keys under the bytewise
// comparator. A table stores it as a meta block of its own, under the
// metaindex key "rangefilter." + RangeFilterBuilder::kName.
//
// Design (Costa, Ferragina, Vinciguerra, "Grafite: taming adversarial
// queries with optimal range filters", SIGMOD 2024), described with the byte
// layout in docs/FILTERS.md:
//   1. keys map to integers by an order-preserving map (radix_key_map.h);
//   2. integer x goes to the reduced universe [0, r) by the locality-
//      preserving hash h(x) = (q(x / L) + x) mod r, q a random hash of the
//      block number x / L (L = max_range_length): within a block of L
//      consecutive integers the codes stay consecutive, between blocks they
//      are independent;
//   3. the sorted distinct codes are stored with Elias-Fano (elias_fano.h).
// A range of at most L integers touches two blocks, so it is checked as at
// most two runs of codes; a key outside it collides with probability at
// most (range length) / r, and r >= n' 2^(B-2) for the n' distinct codes,
// which gives a false-positive rate of at most L / 2^(B-2) at B bits per key
// and every table size, whatever the keys and the queries (ranges
// that start right after a key included), as long as the queries do not
// depend on the hash.
//
// Thread-safety: a builder is not thread-safe; a reader is immutable after
// Parse and may be queried from any number of threads.

#ifndef BLOOMTABLE_FILTER_RANGE_FILTER_H_
#define BLOOMTABLE_FILTER_RANGE_FILTER_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "filter/elias_fano.h"
#include "filter/radix_key_map.h"

namespace bloomtable {

struct RangeFilterOptions {
  // B: the codes' universe is at least n' 2^(B-2) for n' distinct
  // integers, so the false-positive bound L / 2^(B-2) holds at every size;
  // the codes take about B bits per key, and the header (the first and last
  // key, the key map, ~30 bytes) comes on top, which small tables feel
  // (about 69 bits per key in all at 10 8-byte keys, 21 at 100, 16.5 at
  // 1,000). Clamped to [4, 40] (NaN: the default).
  double bits_per_key = 16;
  // L: ranges of up to this many consecutive integers (after the key map)
  // have the false-positive bound L / 2^(B-2) (for fewer than 2^(64-B)
  // distinct integers, where the universe reaches its cap of 2^62).
  // Clamped to [1, 2^32].
  uint64_t max_range_length = 64;
  // The seed of q, the hash of block numbers (stored in the filter).
  uint64_t seed = 0x4772616669746531;  // "Grafite1"
};

// Pattern: (AddKey)* Finish. Keys are user keys in strictly increasing
// bytewise order; a key equal to the previous one is ignored (several
// versions of one user key). Keys out of order still give a correct filter.
// Keeps a copy of every key until Finish.
class RangeFilterBuilder {
 public:
  explicit RangeFilterBuilder(const RangeFilterOptions& options);
  RangeFilterBuilder(const RangeFilterBuilder&) = delete;
  RangeFilterBuilder& operator=(const RangeFilterBuilder&) = delete;

  void AddKey(std::string_view key);
  // The block contents (without the block trailer). REQUIRES: called once.
  std::string Finish();

  uint64_t num_keys() const { return offsets_.size(); }

  static constexpr std::string_view kName = "bloomtable.Grafite";

 private:
  std::string_view KeyAt(size_t i) const;

  const RangeFilterOptions options_;
  std::string keys_;             // all keys, back to back
  std::vector<size_t> offsets_;  // where each key starts in keys_
  size_t smallest_ = 0;          // indexes of the smallest and largest key
  size_t largest_ = 0;
  RadixKeyMap::Builder map_;
};

// Reads a filter written by RangeFilterBuilder. Borrows `contents`, which
// must outlive the reader.
class RangeFilterReader {
 public:
  // DataLoss on bytes that are not a version-1 range filter (truncated,
  // inconsistent sizes, keys the map cannot hold); a reader that parsed
  // never reads outside `contents`. Damage that keeps the structure intact
  // is for the block checksum to catch.
  static absl::StatusOr<std::unique_ptr<RangeFilterReader>> Parse(
      std::string_view contents);

  RangeFilterReader(const RangeFilterReader&) = delete;
  RangeFilterReader& operator=(const RangeFilterReader&) = delete;

  // False only if no added key k has lo <= k < hi (bytewise); false when
  // lo >= hi. Never a false negative.
  bool MayContainRange(std::string_view lo, std::string_view hi) const;
  // The point form: the range [key, key + "\0").
  bool MayContainKey(std::string_view key) const;

  size_t ApproximateMemoryUsage() const;
  uint64_t num_keys() const { return num_keys_; }
  double stored_bits_per_key() const;

  // For tests and reports.
  bool hashed() const { return hashed_; }
  uint64_t reduced_universe() const { return universe_; }
  uint64_t max_range_length() const { return range_length_; }
  const RadixKeyMap& key_map() const { return map_; }

 private:
  RangeFilterReader() = default;
  bool AnyCodeInRange(uint64_t a, uint64_t b) const;
  bool AnyCodeInArc(uint64_t start, uint64_t length) const;

  size_t size_ = 0;
  uint64_t num_keys_ = 0;
  std::string_view first_;
  std::string_view last_;
  RadixKeyMap map_;
  bool hashed_ = false;
  uint64_t range_length_ = 1;
  uint64_t seed_ = 0;
  uint64_t universe_ = 1;  // r
  EliasFanoReader codes_;
};

}  // namespace bloomtable

#endif  // BLOOMTABLE_FILTER_RANGE_FILTER_H_
