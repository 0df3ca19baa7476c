// The Grafite range filter: builder, format and reader (range_filter.h).
//
// Version 1 (docs/FILTERS.md, "Range filter"; integers little-endian):
//
//   varint64  n                   keys added (0: nothing else but the last
//   byte) varint32  |first|, first      the smallest key varint32  |last|, last
//   the largest key RadixKeyMap                   radix_key_map.h, after the
//   common prefix uint8     mode                0: codes are G itself, 1:
//   hashed varint64  L                   block length of the hash fixed64 seed
//   seed of q varint64  r                   the codes' universe EliasFano
//   elias_fano.h, the sorted distinct codes uint8     0xC1 format and version

#include "filter/range_filter.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "absl/status/status.h"
#include "util/coding.h"
#include "util/string_util.h"
#include "util/xxhash64.h"

namespace bloomtable {
namespace {

constexpr uint8_t kFormatVersion1 = 0xC1;
constexpr uint8_t kModeIdentity = 0;
constexpr uint8_t kModeHashed = 1;
constexpr double kMinBitsPerKey = 4;
constexpr double kMaxBitsPerKey = 40;
constexpr uint64_t kMaxRangeLength = uint64_t{1} << 32;
// Universes are kept below 2^62 so that start + length of a run of codes
// (both below r) cannot overflow.
constexpr uint64_t kMaxUniverse = uint64_t{1} << 62;
// A range touching more blocks of L integers than this answers "maybe": the
// checks grow with the range and so does the false-positive rate
// (length / 2^(B-2)). Five blocks hold every range of up to 4 L integers.
constexpr uint64_t kMaxQueryBlocks = 5;

// q: the offset of block `block` in [0, universe).
uint64_t BlockOffset(uint64_t block, uint64_t seed, uint64_t universe) {
  char buffer[8];
  EncodeFixed64(buffer, block);
  const uint64_t hash = XXH3Hash64(std::string_view(buffer, 8), seed);
  return static_cast<uint64_t>(
      (static_cast<unsigned __int128>(hash) * universe) >> 64);
}

// h(x) = (q(x / L) + x) mod r.
uint64_t Code(uint64_t x, uint64_t range_length, uint64_t seed,
              uint64_t universe) {
  const uint64_t offset = BlockOffset(x / range_length, seed, universe);
  const uint64_t position = x % universe;
  return offset >= universe - position ? offset - (universe - position)
                                       : offset + position;
}

double ClampBitsPerKey(double bits_per_key) {
  if (std::isnan(bits_per_key)) return RangeFilterOptions().bits_per_key;
  return std::clamp(bits_per_key, kMinBitsPerKey, kMaxBitsPerKey);
}

// The largest universe (at most kMaxUniverse) whose Elias-Fano payload for
// `n` codes fits in `budget_bits`; 1 if none does.
uint64_t LargestUniverse(uint64_t n, uint64_t budget_bits) {
  uint64_t lo = 1;
  uint64_t hi = kMaxUniverse;
  while (lo < hi) {
    const uint64_t mid = lo + (hi - lo + 1) / 2;
    if (EliasFanoBits(n, mid) <= budget_bits) {
      lo = mid;
    } else {
      hi = mid - 1;
    }
  }
  return lo;
}

// Sorts values below 2^bits: least-significant-digit radix sort, 11 bits
// per pass (a counting array that stays in L1), much faster than std::sort
// on the millions of random codes of a large table.
void RadixSort(std::vector<uint64_t>* values, int bits) {
  constexpr int kDigitBits = 11;
  constexpr size_t kBuckets = size_t{1} << kDigitBits;
  std::vector<uint64_t> scratch(values->size());
  for (int shift = 0; shift < bits; shift += kDigitBits) {
    size_t counts[kBuckets] = {};
    for (const uint64_t v : *values) ++counts[(v >> shift) & (kBuckets - 1)];
    size_t sum = 0;
    for (size_t& count : counts) {
      const size_t c = count;
      count = sum;
      sum += c;
    }
    for (const uint64_t v : *values) {
      scratch[counts[(v >> shift) & (kBuckets - 1)]++] = v;
    }
    values->swap(scratch);
  }
}

absl::Status Corrupt(const char* what) {
  return absl::DataLossError(std::string("range filter: ") + what);
}

}  // namespace

RangeFilterBuilder::RangeFilterBuilder(const RangeFilterOptions& options)
    : options_(options) {}

std::string_view RangeFilterBuilder::KeyAt(size_t i) const {
  const size_t end = i + 1 < offsets_.size() ? offsets_[i + 1] : keys_.size();
  return std::string_view(keys_).substr(offsets_[i], end - offsets_[i]);
}

void RangeFilterBuilder::AddKey(std::string_view key) {
  if (!offsets_.empty()) {
    const size_t previous = offsets_.size() - 1;
    const int order = key.compare(KeyAt(previous));
    if (order == 0) return;
    if (order > 0 && largest_ == previous) {
      largest_ = offsets_.size();  // in order: one comparison
    } else {
      if (key < KeyAt(smallest_)) smallest_ = offsets_.size();
      if (key > KeyAt(largest_)) largest_ = offsets_.size();
    }
  }
  offsets_.push_back(keys_.size());
  keys_.append(key);
  map_.Add(key);
}

std::string RangeFilterBuilder::Finish() {
  std::string out;
  const uint64_t n = offsets_.size();
  PutVarint64(&out, n);
  if (n == 0) {
    out.push_back(static_cast<char>(kFormatVersion1));
    return out;
  }
  const std::string_view first = KeyAt(smallest_);
  const std::string_view last = KeyAt(largest_);
  PutLengthPrefixed(&out, first);
  PutLengthPrefixed(&out, last);
  const RadixKeyMap map = map_.Finish(CommonPrefixLength(first, last));
  map.EncodeTo(&out);

  std::vector<uint64_t> values(n);
  for (size_t i = 0; i < n; ++i) values[i] = map.Map(KeyAt(i));
  // G is monotone: keys added in order give sorted values.
  if (!std::is_sorted(values.begin(), values.end())) {
    std::sort(values.begin(), values.end());
  }
  values.erase(std::unique(values.begin(), values.end()), values.end());
  const uint64_t distinct = values.size();

  // The universe: at least n' 2^(B-2) for the n' distinct codes, which
  // makes the false-positive rate n' l / r at most l / 2^(B-2) at every
  // size (the codes then take about B bits each, the header comes on top);
  // larger when the budget allows it: bits_per_key * n less everything else
  // (the rest of the header with r at its longest, the last byte, and the
  // padding of two bit strings to whole words), as when several keys share
  // one integer.
  const uint64_t range_length =
      std::clamp<uint64_t>(options_.max_range_length, 1, kMaxRangeLength);
  const double bits_per_key = ClampBitsPerKey(options_.bits_per_key);
  const uint64_t other_bits =
      8 * (out.size() + 1 + VarintLength(range_length) + 8 +
           VarintLength(kMaxUniverse) + VarintLength(distinct) + 1 + 1) +
      2 * 63;
  const double total_bits = std::floor(bits_per_key * static_cast<double>(n));
  const double code_bits =
      std::max(0.0, total_bits - static_cast<double>(other_bits));
  const double bound_universe =
      std::ceil(static_cast<double>(distinct) * std::exp2(bits_per_key - 2));
  const uint64_t universe =
      std::max(LargestUniverse(distinct, static_cast<uint64_t>(code_bits)),
               bound_universe >= static_cast<double>(kMaxUniverse)
                   ? kMaxUniverse
                   : static_cast<uint64_t>(bound_universe));

  std::string codes_part;
  if (map.max_value() < universe) {
    // Every integer gets its own code: the filter is exact in G.
    out.push_back(static_cast<char>(kModeIdentity));
    PutVarint64(&out, range_length);
    PutFixed64(&out, options_.seed);
    PutVarint64(&out, map.max_value() + 1);
    EncodeEliasFano(values, map.max_value() + 1, &out);
  } else {
    // Codes within a block of L integers must not wrap onto each other.
    const uint64_t r = std::max(universe, range_length);
    for (uint64_t& value : values) {
      value = Code(value, range_length, options_.seed, r);
    }
    RadixSort(&values, 64 - __builtin_clzll(r));
    values.erase(std::unique(values.begin(), values.end()), values.end());
    out.push_back(static_cast<char>(kModeHashed));
    PutVarint64(&out, range_length);
    PutFixed64(&out, options_.seed);
    PutVarint64(&out, r);
    EncodeEliasFano(values, r, &out);
  }
  out.push_back(static_cast<char>(kFormatVersion1));
  return out;
}

absl::StatusOr<std::unique_ptr<RangeFilterReader>> RangeFilterReader::Parse(
    std::string_view contents) {
  if (contents.empty()) return Corrupt("empty");
  if (static_cast<uint8_t>(contents.back()) != kFormatVersion1) {
    return Corrupt("unknown format byte");
  }
  std::unique_ptr<RangeFilterReader> reader(new RangeFilterReader);
  reader->size_ = contents.size();
  std::string_view input = contents.substr(0, contents.size() - 1);
  if (!GetVarint64(&input, &reader->num_keys_)) return Corrupt("bad count");
  if (reader->num_keys_ == 0) {
    if (!input.empty()) return Corrupt("bytes after an empty filter");
    return reader;
  }
  if (!GetLengthPrefixed(&input, &reader->first_) ||
      !GetLengthPrefixed(&input, &reader->last_)) {
    return Corrupt("truncated keys");
  }
  const int order = reader->first_.compare(reader->last_);
  if (order > 0 || (order == 0) != (reader->num_keys_ == 1)) {
    return Corrupt("first and last key out of order");
  }
  if (!reader->map_.DecodeFrom(
          &input, CommonPrefixLength(reader->first_, reader->last_))) {
    return Corrupt("bad key map");
  }
  if (!reader->map_.InRange(reader->first_) ||
      !reader->map_.InRange(reader->last_)) {
    return Corrupt("key map does not hold the first and last key");
  }
  if (input.empty()) return Corrupt("truncated");
  const uint8_t mode = static_cast<uint8_t>(input[0]);
  input.remove_prefix(1);
  if (!GetVarint64(&input, &reader->range_length_) ||
      !GetFixed64(&input, &reader->seed_) ||
      !GetVarint64(&input, &reader->universe_)) {
    return Corrupt("truncated");
  }
  if (mode > kModeHashed || reader->range_length_ == 0 ||
      reader->range_length_ > kMaxRangeLength || reader->universe_ == 0 ||
      reader->universe_ > kMaxUniverse) {
    return Corrupt("bad parameters");
  }
  reader->hashed_ = mode == kModeHashed;
  if (!reader->hashed_ && reader->map_.max_value() != reader->universe_ - 1) {
    return Corrupt("universe does not match the key map");
  }
  if (!reader->codes_.Parse(&input, reader->universe_) ||
      reader->codes_.size() > reader->num_keys_) {
    return Corrupt("bad codes");
  }
  if (!input.empty()) return Corrupt("trailing bytes");
  return reader;
}

bool RangeFilterReader::AnyCodeInArc(uint64_t start, uint64_t length) const {
  if (length >= universe_) return true;
  const uint64_t end = start + length - 1;  // < 2 r <= 2^63
  if (end < universe_) return codes_.AnyInRange(start, end);
  return codes_.AnyInRange(start, universe_ - 1) ||
         codes_.AnyInRange(0, end - universe_);
}

bool RangeFilterReader::AnyCodeInRange(uint64_t a, uint64_t b) const {
  if (!hashed_) return codes_.AnyInRange(a, b);
  const uint64_t first_block = a / range_length_;
  const uint64_t last_block = b / range_length_;
  if (last_block - first_block >= kMaxQueryBlocks) return true;
  for (uint64_t block = first_block; block <= last_block; ++block) {
    const uint64_t block_start = block * range_length_;
    const uint64_t start = std::max(a, block_start);
    const uint64_t end =
        b - block_start < range_length_ ? b : block_start + range_length_ - 1;
    if (AnyCodeInArc(Code(start, range_length_, seed_, universe_),
                     end - start + 1)) {
      return true;
    }
  }
  return false;
}

bool RangeFilterReader::MayContainRange(std::string_view lo,
                                        std::string_view hi) const {
  if (num_keys_ == 0 || lo >= hi) return false;
  if (hi <= first_ || lo > last_) return false;
  // Clipped to [first, last], both bounds have the keys' common prefix.
  uint64_t a;
  uint64_t b;
  if (!map_.LowerBound(lo < first_ ? first_ : lo, &a)) return false;
  if (hi > last_) {
    b = map_.Map(last_);
  } else if (!map_.UpperBound(hi, &b)) {
    return false;
  }
  return a <= b && AnyCodeInRange(a, b);
}

bool RangeFilterReader::MayContainKey(std::string_view key) const {
  std::string successor;
  successor.reserve(key.size() + 1);
  successor.append(key);
  successor.push_back('\0');
  return MayContainRange(key, successor);
}

size_t RangeFilterReader::ApproximateMemoryUsage() const {
  return sizeof(*this) - sizeof(codes_) + codes_.ApproximateMemoryUsage() +
         map_.num_positions() * (2 + sizeof(uint64_t));
}

double RangeFilterReader::stored_bits_per_key() const {
  if (num_keys_ == 0) return 0;
  return 8.0 * static_cast<double>(size_) / static_cast<double>(num_keys_);
}

}  // namespace bloomtable
