// The Ribbon filter policy, its builder and its reader (ribbon.h).

#include "filter/ribbon.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <vector>

#include "bloomtable/filter_policy.h"
#include "filter/ribbon_solver.h"
#include "util/coding.h"
#include "util/xxhash64.h"

namespace bloomtable {
namespace {

// The smallest cache-local Bloom bits per key whose expected false-positive
// rate is at most 2^-r, for r = 1..32 (0.25 steps, computed with the
// Poisson model of docs/FILTERS.md; 64 where 512-bit lines cannot reach it).
constexpr double kBloomBitsPerKeyForColumns[kRibbonMaxColumns] = {
    1.5,   3.0,   4.5,   6.0,   7.5,  9.0,  10.5,  12.25, 14.0,  15.75, 17.5,
    19.5,  21.5,  23.5,  25.75, 28.0, 30.5, 33.25, 36.0,  38.75, 42.0,  45.25,
    48.75, 52.25, 56.25, 60.25, 64.0, 64.0, 64.0,  64.0,  64.0,  64.0};

double ClampRibbonBitsPerKey(double bits_per_key) {
  if (!(bits_per_key >= kRibbonMinBitsPerKey)) return kRibbonMinBitsPerKey;
  return std::min(bits_per_key, kRibbonMaxBitsPerKey);
}

inline uint64_t KeyHash(std::string_view key, uint8_t seed) {
  return XXH3Hash64(key, kRibbonHashSeedBase + seed);
}

inline uint64_t StartOf(uint64_t hash, uint64_t num_starts) {
  return static_cast<uint64_t>(
      (static_cast<unsigned __int128>(hash) * num_starts) >> 64);
}

// The shape for `num_slots` slots, or false if the budget does not give
// every block at least one column.
bool ChooseShape(size_t num_keys, uint64_t num_slots,
                 const RibbonBuildOptions& options, RibbonShape* shape) {
  const uint64_t num_blocks = num_slots / kRibbonBlockSlots;
  if (num_blocks > std::numeric_limits<uint32_t>::max()) return false;
  shape->num_blocks = static_cast<uint32_t>(num_blocks);
  if (options.columns > 0) {
    shape->lower_columns = std::min(options.columns, kRibbonMaxColumns);
    shape->upper_start = shape->num_blocks;
    return true;
  }
  // The budget in 64-bit words (one column of one block), rounded down.
  const double budget_words = std::floor(
      static_cast<double>(num_keys) *
      ClampRibbonBitsPerKey(options.bits_per_key) / kRibbonBlockSlots);
  const uint64_t max_words = num_blocks * kRibbonMaxColumns;
  const uint64_t words = budget_words >= static_cast<double>(max_words)
                             ? max_words
                             : static_cast<uint64_t>(budget_words);
  const uint64_t lower = words / num_blocks;
  if (lower == 0) return false;
  shape->lower_columns = static_cast<int>(lower);
  shape->upper_start =
      static_cast<uint32_t>(num_blocks - (words - lower * num_blocks));
  return true;
}

// One attempt with `seed`: the keys' equations in about increasing start
// order, solved. Returns false if the system has no solution. The vectors
// are scratch space sized by the caller, reused across attempts.
bool TrySeed(const std::string_view* keys, size_t n, const RibbonShape& shape,
             std::vector<uint64_t>* hashes_buffer,
             std::vector<uint64_t>* by_block_buffer,
             std::vector<size_t>* block_ends_buffer, RibbonSolver* solver) {
  const uint64_t num_starts = RibbonNumStarts(shape.num_blocks);
  std::vector<uint64_t>& hashes = *hashes_buffer;
  std::vector<uint64_t>& by_block = *by_block_buffer;
  std::vector<size_t>& block_ends = *block_ends_buffer;
  auto block_of = [num_starts](uint64_t hash) {
    return StartOf(hash, num_starts) / kRibbonBlockSlots;
  };
  // Counting sort by start block (stable): adding equations in start order
  // keeps the elimination within a few cache lines of the solver's arrays.
  // block_ends[b + 1] counts block b's keys, then becomes where they go.
  std::fill(block_ends.begin(), block_ends.end(), 0);
  for (size_t i = 0; i < n; ++i) {
    hashes[i] = KeyHash(keys[i], shape.seed);
    ++block_ends[block_of(hashes[i]) + 1];
  }
  for (size_t b = 1; b < block_ends.size(); ++b) {
    block_ends[b] += block_ends[b - 1];
  }
  for (size_t i = 0; i < n; ++i) {
    by_block[block_ends[block_of(hashes[i])]++] = hashes[i];
  }
  solver->Reset(shape.NumSlots());
  return solver->AddAll(by_block.data(), n, num_starts);
}

// The query of a well-formed Ribbon filter (docs/FILTERS.md). `head` and
// `tail` are the two regions of the solution words.
BLOOMTABLE_RIBBON_POPCNT_CLONES
bool RibbonQuery(const RibbonShape& shape, uint64_t num_starts,
                 const char* head, const char* tail, uint64_t hash) {
  const RibbonRow row = RibbonRowOf(hash, num_starts);
  const uint64_t block = row.start / kRibbonBlockSlots;
  const int offset = static_cast<int>(row.start % kRibbonBlockSlots);
  // The row's 128 bits start `offset` bits into `block` and so cover up to
  // three blocks' words. Shift the row instead of the words: bit t of
  // (shifted0, shifted1, shifted2) is slot 64 * block + t. The two-step
  // shifts give 0 when offset is 0 instead of an undefined 64-bit shift;
  // then the third block is not needed, and may not exist (block + 2 ==
  // num_blocks): its words are replaced by the second block's, times 0.
  const uint64_t shifted0 = row.coeff_lo << offset;
  const uint64_t shifted1 =
      (row.coeff_hi << offset) | ((row.coeff_lo >> 1) >> (63 - offset));
  const uint64_t shifted2 = (row.coeff_hi >> 1) >> (63 - offset);
  // Each column of an absent key mismatches with probability 1/2, so the
  // two head columns reject three absent keys in four, reading only the
  // head region: test those first, with a branch the predictor mostly gets
  // right, then the tail columns. Later blocks hold at least as many
  // columns as `block`.
  const uint64_t expected = row.fingerprint;
  const bool has_third_block = block + 2 < shape.num_blocks;
  auto parity = [&](const char* words0, const char* words1,
                    const char* words2) -> uint64_t {
    return static_cast<uint64_t>(
        __builtin_parityll((DecodeFixed64(words0) & shifted0) ^
                           (DecodeFixed64(words1) & shifted1) ^
                           (DecodeFixed64(words2) & shifted2)));
  };
  int head_columns = kRibbonHeadColumns;
  const char* head0;
  const char* head1;
  const char* head2;
  if (shape.lower_columns >= kRibbonHeadColumns) {
    // Every block has both head columns: no per-block arithmetic.
    head0 = head + 8 * kRibbonHeadColumns * block;
    head1 = head0 + 8 * kRibbonHeadColumns;
    head2 = has_third_block ? head1 + 8 * kRibbonHeadColumns : head1;
  } else {
    head_columns = shape.HeadColumnsOf(block);
    head0 = head + 8 * shape.FirstHeadWordOf(block);
    head1 = head0 + 8 * head_columns;
    head2 =
        has_third_block ? head1 + 8 * shape.HeadColumnsOf(block + 1) : head1;
  }
  uint64_t result = 0;
  for (int column = 0; column < head_columns; ++column) {
    result |= parity(head0 + 8 * column, head1 + 8 * column, head2 + 8 * column)
              << column;
  }
  const uint64_t head_mask = (uint64_t{1} << head_columns) - 1;
  if (((result ^ expected) & head_mask) != 0) return false;

  const int tail_columns = shape.ColumnsOf(block) - head_columns;
  if (tail_columns == 0) return true;
  const char* tail0 = tail + 8 * shape.FirstTailWordOf(block);
  const char* tail1 = tail0 + 8 * tail_columns;
  const char* tail2 =
      has_third_block ? tail1 + 8 * shape.TailColumnsOf(block + 1) : tail1;
  // Two accumulators keep the dependency chains short.
  uint64_t result_odd = 0;
  int column = 0;
  for (; column + 1 < tail_columns; column += 2) {
    result |= parity(tail0 + 8 * column, tail1 + 8 * column, tail2 + 8 * column)
              << (kRibbonHeadColumns + column);
    result_odd |= parity(tail0 + 8 * column + 8, tail1 + 8 * column + 8,
                         tail2 + 8 * column + 8)
                  << (kRibbonHeadColumns + column + 1);
  }
  if (column < tail_columns) {
    result |= parity(tail0 + 8 * column, tail1 + 8 * column, tail2 + 8 * column)
              << (kRibbonHeadColumns + column);
  }
  const uint64_t mask = (uint64_t{1} << (head_columns + tail_columns)) - 1;
  return (((result | result_odd) ^ expected) & mask) == 0;
}

class RibbonPolicy final : public FilterPolicy {
 public:
  explicit RibbonPolicy(const RibbonBuildOptions& options)
      : options_(options) {}

  std::string_view Name() const override { return "bloomtable.Ribbon"; }

  void CreateFilter(const std::string_view* keys, size_t n,
                    std::string* dst) const override {
    AppendRibbonFilter(keys, n, options_, dst);
  }

  bool KeyMayMatch(std::string_view key,
                   std::string_view filter) const override {
    return RibbonView(filter).KeyMayMatch(key);
  }

  std::unique_ptr<FilterReader> NewReader(
      std::string_view filter) const override;

  bool SupportsPerBlock() const override { return false; }

 private:
  const RibbonBuildOptions options_;
};

class RibbonReader final : public FilterReader {
 public:
  explicit RibbonReader(std::string_view filter) : view_(filter) {}

  bool KeyMayMatch(std::string_view key) const override {
    return view_.KeyMayMatch(key);
  }
  void Prefetch(std::string_view key) const override { view_.Prefetch(key); }

 private:
  const RibbonView view_;
};

std::unique_ptr<FilterReader> RibbonPolicy::NewReader(
    std::string_view filter) const {
  return std::make_unique<RibbonReader>(filter);
}

}  // namespace

uint64_t RibbonNumSlots(size_t num_keys) {
  constexpr uint64_t kMinSlots = 2 * kRibbonBlockSlots;
  if (num_keys < kMinSlots) return kMinSlots;
  const uint64_t n = num_keys;
  // log2(n) in sixteenths, linear between powers of two.
  const int floor_log2 = 63 - __builtin_clzll(n);
  const uint64_t log2_x16 =
      16 * static_cast<uint64_t>(floor_log2) + (n >> (floor_log2 - 4)) - 16;
  // Overhead in units of 1/16000: 0.3% per doubling of n, 4.1% at 10^6 keys,
  // at least 2%. Fitted to the smallest overhead at which 128-bit rows are
  // solvable for more than 85% of seeds (docs/FILTERS.md).
  const uint64_t overhead_x16000 =
      std::max<uint64_t>(320, 3 * log2_x16 > 300 ? 3 * log2_x16 - 300 : 0);
  const unsigned __int128 extra =
      (static_cast<unsigned __int128>(n) * overhead_x16000 + 15999) / 16000;
  const unsigned __int128 slots = n + extra;
  const unsigned __int128 blocks =
      (slots + kRibbonBlockSlots - 1) / kRibbonBlockSlots;
  return static_cast<uint64_t>(blocks) * kRibbonBlockSlots;
}

double RibbonFallbackBloomBitsPerKey(int columns) {
  columns = std::clamp(columns, 1, kRibbonMaxColumns);
  return kBloomBitsPerKeyForColumns[columns - 1];
}

namespace {

double BloomBitsPerKeyFor(const RibbonBuildOptions& options) {
  return options.columns > 0 ? RibbonFallbackBloomBitsPerKey(options.columns)
                             : ClampRibbonBitsPerKey(options.bits_per_key);
}

uint64_t NumSlotsFor(size_t n, const RibbonBuildOptions& options) {
  if (options.num_slots_override == 0) return RibbonNumSlots(n);
  return std::max<uint64_t>(
      2 * kRibbonBlockSlots,
      (options.num_slots_override + kRibbonBlockSlots - 1) / kRibbonBlockSlots *
          kRibbonBlockSlots);
}

}  // namespace

double RibbonExpectedFalsePositiveRate(size_t num_keys,
                                       const RibbonBuildOptions& options) {
  RibbonShape shape;
  if (num_keys < kRibbonMinKeys ||
      !ChooseShape(num_keys, NumSlotsFor(num_keys, options), options, &shape)) {
    return CacheLocalBloomExpectedFalsePositiveRate(
        BloomBitsPerKeyFor(options));
  }
  // Starts are uniform over [0, num_starts); those from the upper blocks'
  // first slot on see one column more.
  const uint64_t num_starts = RibbonNumStarts(shape.num_blocks);
  const uint64_t first_upper = uint64_t{shape.upper_start} * kRibbonBlockSlots;
  const double upper_fraction =
      first_upper >= num_starts
          ? 0.0
          : static_cast<double>(num_starts - first_upper) / num_starts;
  return (1 - upper_fraction) * std::ldexp(1.0, -shape.lower_columns) +
         upper_fraction * std::ldexp(1.0, -shape.lower_columns - 1);
}

void AppendRibbonFilter(const std::string_view* keys, size_t n,
                        const RibbonBuildOptions& options, std::string* dst,
                        RibbonBuildInfo* info) {
  RibbonBuildInfo unused;
  if (info == nullptr) info = &unused;
  *info = RibbonBuildInfo();

  const uint64_t num_slots = NumSlotsFor(n, options);
  RibbonShape shape;
  if (n >= kRibbonMinKeys && ChooseShape(n, num_slots, options, &shape)) {
    std::vector<uint64_t> hashes(n);
    std::vector<uint64_t> by_block(n);
    std::vector<size_t> block_ends(size_t{shape.num_blocks} + 1);
    RibbonSolver solver;
    // The seed is a byte: at most 256 attempts.
    const int max_attempts = std::min(options.max_attempts, 256);
    for (int attempt = 0; attempt < max_attempts; ++attempt) {
      shape.seed = static_cast<uint8_t>(attempt);
      info->attempts = attempt + 1;
      if (!TrySeed(keys, n, shape, &hashes, &by_block, &block_ends, &solver)) {
        continue;
      }
      const size_t offset = dst->size();
      dst->resize(offset + 8 * shape.NumWords());
      solver.WriteSolution(shape, &(*dst)[offset]);
      PutFixed32(dst, shape.num_blocks);
      PutFixed32(dst, shape.upper_start);
      dst->push_back(static_cast<char>(shape.lower_columns));
      dst->push_back(static_cast<char>(shape.seed));
      dst->push_back(static_cast<char>(kRibbonFormatV1));
      info->shape = shape;
      return;
    }
  }
  // Too few keys, too small a budget, or no seed worked.
  info->is_bloom = true;
  AppendCacheLocalBloomFilter(keys, n, BloomBitsPerKeyFor(options), dst);
}

RibbonView::RibbonView(std::string_view filter) : bloom_(filter) {
  if (bloom_.well_formed()) {
    kind_ = Kind::kBloom;
    return;
  }
  if (filter.size() < kRibbonTrailerBytes ||
      static_cast<uint8_t>(filter.back()) != kRibbonFormatV1) {
    return;
  }
  const char* trailer = filter.data() + filter.size() - kRibbonTrailerBytes;
  RibbonShape shape;
  shape.num_blocks = DecodeFixed32(trailer);
  shape.upper_start = DecodeFixed32(trailer + 4);
  shape.lower_columns = static_cast<unsigned char>(trailer[8]);
  shape.seed = static_cast<unsigned char>(trailer[9]);
  if (shape.num_blocks < kRibbonMinBlocks ||
      shape.upper_start > shape.num_blocks ||
      shape.MaxColumns() > kRibbonMaxColumns) {
    return;
  }
  // Exactly the words the trailer announces (no overflow: at most 2^32
  // blocks of 32 words).
  const size_t words_bytes = filter.size() - kRibbonTrailerBytes;
  if (words_bytes % 8 != 0 || words_bytes / 8 != shape.NumWords()) return;
  kind_ = Kind::kRibbon;
  shape_ = shape;
  num_starts_ = RibbonNumStarts(shape.num_blocks);
  words_ = filter.data();
  tail_ = words_ + 8 * shape.NumHeadWords();
}

void RibbonView::Prefetch(std::string_view key) const {
  if (kind_ == Kind::kBloom) {
    bloom_.Prefetch(key);
    return;
  }
  if (kind_ != Kind::kRibbon) return;
  PrefetchHash(KeyHash(key, shape_.seed));
}

uint64_t RibbonView::Hash(std::string_view key, uint8_t seed) {
  return KeyHash(key, seed);
}

void RibbonView::PrefetchHash(uint64_t hash) const {
  // The head words of the row's first block and of the next one, which
  // follow it: the query's first reads (RibbonQuery).
  const RibbonRow row = RibbonRowOf(hash, num_starts_);
  const uint64_t block = row.start / kRibbonBlockSlots;
  const char* head0 = shape_.lower_columns >= kRibbonHeadColumns
                          ? words_ + 8 * kRibbonHeadColumns * block
                          : words_ + 8 * shape_.FirstHeadWordOf(block);
  __builtin_prefetch(head0);
  __builtin_prefetch(head0 + 8 * kRibbonHeadColumns);
}

bool RibbonView::KeyMayMatch(std::string_view key) const {
  switch (kind_) {
    case Kind::kRibbon:
      return RibbonQuery(shape_, num_starts_, words_, tail_,
                         KeyHash(key, shape_.seed));
    case Kind::kBloom:
      return bloom_.KeyMayMatch(key);
    case Kind::kMalformed:
      break;
  }
  return true;
}

bool RibbonView::HashMayMatch(uint64_t hash) const {
  return RibbonQuery(shape_, num_starts_, words_, tail_, hash);
}

std::shared_ptr<const FilterPolicy> NewRibbonFilterPolicy(double bits_per_key) {
  RibbonBuildOptions options;
  options.bits_per_key = ClampRibbonBitsPerKey(bits_per_key);
  return std::make_shared<RibbonPolicy>(options);
}

std::shared_ptr<const FilterPolicy> NewRibbonFilterPolicyForRate(
    double fp_rate) {
  RibbonBuildOptions options;
  // ceil(log2(1 / rate)) by comparison with exact powers of two, so that
  // no libm rounding can change the result.
  int columns = 1;
  while (columns < kRibbonMaxColumns &&
         !(std::ldexp(1.0, -columns) <= fp_rate)) {
    ++columns;
  }
  options.columns = columns;
  return std::make_shared<RibbonPolicy>(options);
}

}  // namespace bloomtable
