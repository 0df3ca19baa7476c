// bloomtable.Ribbon: sizing, no false negatives on random and structured key
// sets, the false-positive rate against 2^-r, retries with new seeds and the
// cache-local Bloom fallback, golden bytes, and malformed filters.

#include "filter/ribbon.h"

#include <xxhash.h>

#include <cmath>
#include <memory>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "bloomtable/filter_policy.h"
#include "filter/cache_local_bloom.h"
#include "filter/ribbon_solver.h"
#include "gtest/gtest.h"
#include "tests/filter_key_sets.h"
#include "util/coding.h"
#include "util/xxhash64.h"

namespace bloomtable {
namespace {

using filter_test::BinaryCounterKeys;
using filter_test::BuildFilter;
using filter_test::CountMayMatch;
using filter_test::DecimalKeys;
using filter_test::ExactBuffer;
using filter_test::Fingerprint;
using filter_test::Hex;
using filter_test::RandomKeys;
using filter_test::Repeated;
using filter_test::SharedPrefixKeys;
using filter_test::ShortAndEmptyKeys;
using filter_test::Views;

std::string Build(const std::vector<std::string>& keys,
                  const RibbonBuildOptions& options,
                  RibbonBuildInfo* info = nullptr) {
  const std::vector<std::string_view> views = Views(keys);
  std::string filter;
  AppendRibbonFilter(views.data(), views.size(), options, &filter, info);
  return filter;
}

RibbonBuildOptions BitsPerKey(double bits_per_key) {
  RibbonBuildOptions options;
  options.bits_per_key = bits_per_key;
  return options;
}

RibbonBuildOptions Columns(int columns) {
  RibbonBuildOptions options;
  options.columns = columns;
  return options;
}

// Every key of `keys` must match `filter`, through the reader and through
// the policy.
void ExpectAllMatch(const std::string& filter,
                    const std::vector<std::string>& keys,
                    const std::string& what) {
  const auto policy = NewRibbonFilterPolicy(7);
  const ExactBuffer exact(filter);
  const std::unique_ptr<FilterReader> reader = policy->NewReader(exact.view());
  size_t misses = 0;
  for (const std::string& key : keys) {
    misses += !reader->KeyMayMatch(key);
    misses += !policy->KeyMayMatch(key, exact.view());
  }
  EXPECT_EQ(misses, 0u) << what << ", " << keys.size() << " keys";
}

void ExpectNoFalseNegatives(const RibbonBuildOptions& options,
                            const std::vector<std::string>& keys,
                            const std::string& what) {
  ExpectAllMatch(Build(keys, options), keys, what);
}

TEST(Ribbon, NameAndWholeTableOnly) {
  const auto policy = NewRibbonFilterPolicy(7);
  EXPECT_EQ(policy->Name(), "bloomtable.Ribbon");
  EXPECT_FALSE(policy->SupportsPerBlock());
  EXPECT_EQ(NewRibbonFilterPolicyForRate(0.01)->Name(), "bloomtable.Ribbon");
}

TEST(Ribbon, NumSlotsGrowsWithTheLogarithmOfTheKeyCount) {
  // Golden values: the size is part of what a build writes.
  EXPECT_EQ(RibbonNumSlots(0), 128u);
  EXPECT_EQ(RibbonNumSlots(256), 320u);
  EXPECT_EQ(RibbonNumSlots(1000), 1024u);
  EXPECT_EQ(RibbonNumSlots(10000), 10240u);
  EXPECT_EQ(RibbonNumSlots(100000), 103104u);
  EXPECT_EQ(RibbonNumSlots(1000000), 1040896u);
  uint64_t previous = 0;
  for (size_t n = 256; n < 20000000; n = n * 5 / 4) {
    const uint64_t slots = RibbonNumSlots(n);
    EXPECT_EQ(slots % 64, 0u);
    EXPECT_GE(slots, previous) << n;
    EXPECT_GE(slots, n + n / 50) << n;  // at least 2% more
    // At most 2%, or 0.3% per doubling of n minus 1.875% (4.1% at a
    // million keys), plus one block.
    const double overhead =
        std::max(0.02, 0.003 * std::log2(static_cast<double>(n)) - 0.01875);
    EXPECT_LE(slots, n * (1 + overhead) + 65) << n;
    previous = slots;
  }
}

TEST(Ribbon, ForRateChoosesTheSmallestSufficientColumns) {
  const std::vector<std::string> keys = RandomKeys(1000, 16, 1);
  const std::vector<std::pair<double, int>> cases = {
      {0.5, 1},       {0.3, 2},    {0.1, 4},     {0.01, 7},
      {0.0078125, 7}, {0.001, 10}, {0.0001, 14}, {1e-12, 32},
      {2.0, 1},       {0.0, 32},   {-1.0, 32},   {std::nan(""), 32}};
  for (const auto& [rate, columns] : cases) {
    const std::string filter =
        BuildFilter(*NewRibbonFilterPolicyForRate(rate), keys);
    const RibbonView view(filter);
    ASSERT_TRUE(view.is_ribbon()) << rate;
    EXPECT_EQ(view.shape().lower_columns, columns) << rate;
    EXPECT_EQ(view.shape().upper_start, view.shape().num_blocks) << rate;
  }
}

TEST(Ribbon, BitsPerKeyIsABudgetSpentOnFractionalColumns) {
  const std::vector<std::string> keys = RandomKeys(10000, 16, 2);
  for (double bits : {1.5, 3.3, 7.0, 9.5, 10.0, 16.0, 31.9}) {
    const std::string filter = BuildFilter(*NewRibbonFilterPolicy(bits), keys);
    const RibbonView view(filter);
    ASSERT_TRUE(view.is_ribbon()) << bits;
    // Within one 64-bit word of the budget, plus the trailer.
    EXPECT_LE(filter.size(), keys.size() * bits / 8 + kRibbonTrailerBytes);
    EXPECT_GE(filter.size(), keys.size() * bits / 8 + kRibbonTrailerBytes - 8);
    const RibbonShape& shape = view.shape();
    EXPECT_EQ(shape.lower_columns,
              static_cast<int>(keys.size() * bits / 64 / shape.num_blocks));
  }
  // Out of range budgets are clamped to [1, 32].
  EXPECT_EQ(BuildFilter(*NewRibbonFilterPolicy(0), keys),
            BuildFilter(*NewRibbonFilterPolicy(1), keys));
  EXPECT_EQ(BuildFilter(*NewRibbonFilterPolicy(std::nan("")), keys),
            BuildFilter(*NewRibbonFilterPolicy(1), keys));
  EXPECT_EQ(BuildFilter(*NewRibbonFilterPolicy(100), keys),
            BuildFilter(*NewRibbonFilterPolicy(32), keys));
}

TEST(Ribbon, FewKeysAreStoredAsACacheLocalBloomFilter) {
  for (size_t n :
       {size_t{0}, size_t{1}, size_t{2}, size_t{100}, kRibbonMinKeys - 1}) {
    const std::vector<std::string> keys = RandomKeys(n, 16, n);
    RibbonBuildInfo info;
    const std::string filter = Build(keys, BitsPerKey(10), &info);
    EXPECT_TRUE(info.is_bloom) << n;
    EXPECT_EQ(info.attempts, 0) << n;
    EXPECT_TRUE(HasCacheLocalBloomFormat(filter)) << n;
    // The same bytes as the cache-local Bloom policy at the same budget.
    EXPECT_EQ(filter, BuildFilter(*NewCacheLocalBloomFilterPolicy(10), keys));
    EXPECT_TRUE(RibbonView(filter).is_bloom()) << n;
    ExpectAllMatch(filter, keys, "bloom, " + std::to_string(n));
  }
  // The empty filter matches nothing.
  const std::string empty = Build({}, BitsPerKey(10));
  EXPECT_EQ(
      CountMayMatch(*NewRibbonFilterPolicy(10), empty, RandomKeys(100, 16, 3)),
      0u);
  // A budget below one column per block is a Bloom filter too.
  RibbonBuildInfo info;
  Build(RandomKeys(1000, 16, 4), BitsPerKey(1), &info);
  EXPECT_TRUE(info.is_bloom);
  // In rate mode, the Bloom filter gets the bits for that rate.
  EXPECT_EQ(Build(RandomKeys(100, 16, 5), Columns(7)),
            BuildFilter(*NewCacheLocalBloomFilterPolicy(10.5),
                        RandomKeys(100, 16, 5)));
}

TEST(Ribbon, NoFalseNegativesOnRandomKeysOfEverySize) {
  for (size_t n : {size_t{256}, size_t{257}, size_t{1000}, size_t{10000}}) {
    for (double bits : {2.0, 7.0, 9.5, 20.0, 32.0}) {
      ExpectNoFalseNegatives(BitsPerKey(bits), RandomKeys(n, 16, n),
                             "bits " + std::to_string(bits));
    }
    for (int columns : {1, 7, 13, 32}) {
      ExpectNoFalseNegatives(Columns(columns), RandomKeys(n, 16, n + 1),
                             "columns " + std::to_string(columns));
    }
  }
}

TEST(Ribbon, NoFalseNegativesOnAMillionKeys) {
  const std::vector<std::string> keys = RandomKeys(1000000, 16, 6);
  RibbonBuildInfo info;
  const std::string filter = Build(keys, BitsPerKey(7), &info);
  EXPECT_FALSE(info.is_bloom);
  ExpectAllMatch(filter, keys, "a million keys");
}

TEST(Ribbon, NoFalseNegativesOnStructuredKeys) {
  for (double bits : {3.0, 7.0, 16.0}) {
    const RibbonBuildOptions options = BitsPerKey(bits);
    ExpectNoFalseNegatives(options, DecimalKeys(10000, 0, 1), "decimal");
    ExpectNoFalseNegatives(options, SharedPrefixKeys(2000), "prefixes");
    ExpectNoFalseNegatives(options, BinaryCounterKeys(10000), "binary");
    ExpectNoFalseNegatives(options, ShortAndEmptyKeys(), "short and empty");
  }
}

TEST(Ribbon, DuplicateKeysAreHandled) {
  // Repeated keys give repeated equations, which are redundant.
  for (int copies : {2, 3, 10}) {
    const std::vector<std::string> keys =
        Repeated(RandomKeys(1000, 16, 7), copies);
    RibbonBuildInfo info;
    const std::string filter = Build(keys, BitsPerKey(8), &info);
    EXPECT_FALSE(info.is_bloom) << copies;
    ExpectAllMatch(filter, keys, "copies " + std::to_string(copies));
  }
  // 10,000 copies of one key: one equation, and a filter sized for 10,000.
  const std::vector<std::string> same = Repeated({"same"}, 10000);
  RibbonBuildInfo info;
  const std::string filter = Build(same, BitsPerKey(8), &info);
  EXPECT_FALSE(info.is_bloom);
  EXPECT_EQ(info.attempts, 1);
  ExpectAllMatch(filter, same, "one key");
  EXPECT_LE(CountMayMatch(*NewRibbonFilterPolicy(8), filter,
                          RandomKeys(10000, 16, 8)),
            100u);
}

TEST(Ribbon, SolverTreatsRepeatedEquationsAsRedundantAndDetectsContradictions) {
  RibbonSolver solver;
  solver.Reset(256);
  const RibbonRow row = RibbonRowOf(0x0123456789abcdef, RibbonNumStarts(4));
  EXPECT_TRUE(solver.Add(row));
  EXPECT_TRUE(solver.Add(row));
  RibbonRow contradiction = row;
  contradiction.fingerprint ^= 1;
  EXPECT_FALSE(solver.Add(contradiction));
}

// A standard Ribbon filter with r columns matches an absent key with
// probability 2^-r exactly (its fingerprint is independent of the solution),
// so the count over N probes is binomial. 10 filters of 10,000 random keys,
// 200,000 probes: at r = 7 (0.78%) the standard deviation is 0.020%, at
// r = 10 (0.098%) 0.007%; the bounds are 5 of them on each side.
TEST(Ribbon, FalsePositiveRateOnRandomKeysIsTwoToTheMinusColumns) {
  for (int columns : {7, 10}) {
    const auto policy = NewRibbonFilterPolicyForRate(std::ldexp(1.0, -columns));
    size_t matches = 0;
    size_t probes = 0;
    for (uint64_t f = 0; f < 10; ++f) {
      const std::string filter =
          BuildFilter(*policy, RandomKeys(10000, 16, 100 + f));
      ASSERT_TRUE(RibbonView(filter).is_ribbon());
      const std::vector<std::string> absent = RandomKeys(20000, 16, 200 + f);
      matches += CountMayMatch(*policy, filter, absent);
      probes += absent.size();
    }
    const double expected = std::ldexp(1.0, -columns);
    const double sigma = std::sqrt(expected * (1 - expected) / probes);
    const double rate = static_cast<double>(matches) / probes;
    EXPECT_NEAR(rate, expected, 5 * sigma) << columns;
  }
}

// The near-miss keys of docs/DESIGN.md (even i in the filter, odd i probed) are
// no different: 100,000 keys, 100,000 probes at 7 columns, sigma 0.028%.
TEST(Ribbon, FalsePositiveRateOnNearMissKeysIsTwoToTheMinusColumns) {
  const auto policy = NewRibbonFilterPolicyForRate(0.01);
  const std::string filter = BuildFilter(*policy, DecimalKeys(100000, 0, 2));
  const double rate = static_cast<double>(CountMayMatch(
                          *policy, filter, DecimalKeys(100000, 1, 2))) /
                      100000;
  EXPECT_NEAR(rate, 1.0 / 128, 5 * 0.00028);
}

// At 7 bits per key the budget mode mixes 6 and 7 columns: about 1%, and
// the space per key is 7 bits where the same rate costs a Bloom filter 10.
TEST(Ribbon, SevenBitsPerKeyGiveAboutOnePercent) {
  const auto policy = NewRibbonFilterPolicy(7);
  const std::string filter = BuildFilter(*policy, RandomKeys(100000, 16, 9));
  const RibbonView view(filter);
  ASSERT_TRUE(view.is_ribbon());
  EXPECT_EQ(view.shape().lower_columns, 6);
  EXPECT_LE(filter.size() * 8.0 / 100000, 7.001);
  const double rate = static_cast<double>(CountMayMatch(
                          *policy, filter, RandomKeys(200000, 16, 10))) /
                      200000;
  // Expected about 0.99% (a third of the starts see 6 columns); sigma 0.022%.
  EXPECT_GE(rate, 0.0090);
  EXPECT_LE(rate, 0.0110);
}

TEST(Ribbon, AFailedSeedIsRetriedWithTheNextOne) {
  // With 1.1% more slots than keys (20,224 for 20,000) about half the seeds
  // fail. Look for key sets whose first seed fails (deterministic: fixed key
  // seeds).
  int retried = 0;
  for (uint64_t set = 0; set < 20 && retried < 2; ++set) {
    const std::vector<std::string> keys = RandomKeys(20000, 16, 300 + set);
    RibbonBuildOptions options = Columns(5);
    options.num_slots_override = 20224;
    RibbonBuildInfo info;
    const std::string filter = Build(keys, options, &info);
    if (info.is_bloom || info.attempts == 1) continue;
    ++retried;
    const RibbonView view(filter);
    ASSERT_TRUE(view.is_ribbon());
    EXPECT_EQ(view.shape().seed, info.attempts - 1);
    ExpectAllMatch(filter, keys, "retried");
  }
  EXPECT_EQ(retried, 2);
}

TEST(Ribbon, HashedQueryAnswersAsTheKeyQuery) {
  // Filters of seed 0 and of a later seed (a set whose first seed fails,
  // as above): HashMayMatch(Hash(key, seed())) is KeyMayMatch(key), for
  // the keys built in and for others.
  int seeds_seen[2] = {0, 0};
  for (uint64_t set = 0; set < 20; ++set) {
    const std::vector<std::string> keys = RandomKeys(20000, 16, 300 + set);
    RibbonBuildOptions options = Columns(5);
    options.num_slots_override = 20224;
    RibbonBuildInfo info;
    const std::string filter = Build(keys, options, &info);
    if (info.is_bloom) continue;
    const RibbonView view(filter);
    ASSERT_TRUE(view.is_ribbon());
    ++seeds_seen[view.seed() == 0 ? 0 : 1];
    const std::vector<std::string> others = RandomKeys(2000, 16, 900 + set);
    for (const std::vector<std::string>* some : {&keys, &others}) {
      for (const std::string& key : *some) {
        ASSERT_EQ(view.HashMayMatch(RibbonView::Hash(key, view.seed())),
                  view.KeyMayMatch(key))
            << key;
      }
    }
  }
  EXPECT_GT(seeds_seen[0], 0);
  EXPECT_GT(seeds_seen[1], 0);
}

TEST(Ribbon, UnsolvableKeySetsFallBackToACacheLocalBloomFilter) {
  const std::vector<std::string> keys = RandomKeys(2000, 16, 11);
  RibbonBuildOptions options = BitsPerKey(8);
  options.num_slots_override = 1024;  // fewer slots than keys
  RibbonBuildInfo info;
  const std::string filter = Build(keys, options, &info);
  EXPECT_TRUE(info.is_bloom);
  EXPECT_EQ(info.attempts, kRibbonMaxAttempts);
  EXPECT_EQ(filter, BuildFilter(*NewCacheLocalBloomFilterPolicy(8), keys));
  ExpectAllMatch(filter, keys, "fallback");
  // The reader recognises the fallback and uses it as a Bloom filter.
  EXPECT_TRUE(RibbonView(filter).is_bloom());
  EXPECT_LT(CountMayMatch(*NewRibbonFilterPolicy(8), filter,
                          RandomKeys(10000, 16, 12)),
            500u);

  options.num_slots_override = 0;
  options.max_attempts = 0;
  EXPECT_EQ(Build(keys, options),
            BuildFilter(*NewCacheLocalBloomFilterPolicy(8), keys));
}

// The high 64 bits of the 128-bit product a * b, from 32-bit halves (the
// library uses a 128-bit multiplication).
uint64_t ModelHighProduct(uint64_t a, uint64_t b) {
  const uint64_t a_lo = a & 0xffffffff, a_hi = a >> 32;
  const uint64_t b_lo = b & 0xffffffff, b_hi = b >> 32;
  const uint64_t lo_lo = a_lo * b_lo;
  const uint64_t hi_lo = a_hi * b_lo;
  const uint64_t lo_hi = a_lo * b_hi;
  const uint64_t carry =
      ((lo_lo >> 32) + (hi_lo & 0xffffffff) + (lo_hi & 0xffffffff)) >> 32;
  return a_hi * b_hi + (hi_lo >> 32) + (lo_hi >> 32) + carry;
}

// A key's equation as docs/FILTERS.md states it ("A key's equation"),
// derived here on its own rather than with the library's RibbonRowOf: the
// hash straight from libxxhash, the start from ModelHighProduct, and the 128
// coefficients as separate bits for the slots start .. start + 127.
struct ModelRow {
  uint64_t start = 0;
  std::vector<int> coefficients;
  uint32_t fingerprint = 0;
};

ModelRow ModelRowOf(std::string_view key, int seed, uint64_t num_starts) {
  const uint64_t h = XXH3_64bits_withSeed(key.data(), key.size(),
                                          0x526962626f6e3100ULL + seed);
  ModelRow row;
  row.start = ModelHighProduct(h, num_starts);
  uint64_t x = h;
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  x ^= x >> 33;
  const uint64_t low = x | 1;
  const uint64_t y = x * 0x9e3779b97f4a7c15ULL;
  const uint64_t high = y ^ (y >> 32);
  for (int t = 0; t < 64; ++t) row.coefficients.push_back((low >> t) & 1);
  for (int t = 0; t < 64; ++t) row.coefficients.push_back((high >> t) & 1);
  row.fingerprint = static_cast<uint32_t>(h & 0xffffffff);
  return row;
}

// docs/FILTERS.md's query written as plainly as possible, bit by bit, with
// the word positions found by walking the blocks.
bool ModelMayMatch(std::string_view key, std::string_view filter) {
  const char* trailer = filter.data() + filter.size() - kRibbonTrailerBytes;
  const uint64_t num_blocks = DecodeFixed32(trailer);
  const uint64_t upper_start = DecodeFixed32(trailer + 4);
  const int lower = static_cast<unsigned char>(trailer[8]);
  const int seed = static_cast<unsigned char>(trailer[9]);
  auto columns_of = [&](uint64_t b) { return lower + (b >= upper_start); };
  // Word index of (block, column): head region first, then tail region.
  std::vector<std::vector<uint64_t>> word_of(num_blocks);
  uint64_t next = 0;
  for (uint64_t b = 0; b < num_blocks; ++b) {
    for (int j = 0; j < std::min(columns_of(b), 2); ++j) {
      word_of[b].push_back(next++);
    }
  }
  for (uint64_t b = 0; b < num_blocks; ++b) {
    for (int j = 2; j < columns_of(b); ++j) word_of[b].push_back(next++);
  }
  EXPECT_EQ(8 * next + kRibbonTrailerBytes, filter.size());
  auto bit = [&](uint64_t slot, int column) {
    const uint64_t word =
        DecodeFixed64(filter.data() + 8 * word_of[slot / 64][column]);
    return (word >> (slot % 64)) & 1;
  };
  const ModelRow row = ModelRowOf(key, seed, 64 * num_blocks - 127);
  for (int j = 0; j < columns_of(row.start / 64); ++j) {
    uint64_t parity = 0;
    for (int t = 0; t < 128; ++t) {
      parity ^= row.coefficients[t] & bit(row.start + t, j);
    }
    if (parity != ((row.fingerprint >> j) & 1)) return false;
  }
  return true;
}

TEST(Ribbon, ReaderAgreesWithAPlainModelOfTheFormat) {
  for (double bits : {1.5, 2.5, 7.0, 13.3}) {
    const std::vector<std::string> keys = RandomKeys(3000, 16, 19);
    const auto policy = NewRibbonFilterPolicy(bits);
    const std::string filter = BuildFilter(*policy, keys);
    ASSERT_TRUE(RibbonView(filter).is_ribbon()) << bits;
    const std::unique_ptr<FilterReader> reader = policy->NewReader(filter);
    std::vector<std::string> probes = RandomKeys(3000, 16, 20);
    probes.insert(probes.end(), keys.begin(), keys.begin() + 300);
    for (const std::string& probe : probes) {
      ASSERT_EQ(reader->KeyMayMatch(probe), ModelMayMatch(probe, filter))
          << bits;
    }
  }
}

// Golden bytes: a change here changes the format (new name or version).
TEST(Ribbon, GoldenBytesOfASmallFilter) {
  const std::string filter =
      BuildFilter(*NewRibbonFilterPolicyForRate(0.25), DecimalKeys(256, 0, 2));
  // 256 keys: 320 slots (5 blocks) of 2 columns, 80 bytes, and the trailer.
  EXPECT_EQ(filter.size(), 5 * 2 * 8 + kRibbonTrailerBytes);
  EXPECT_EQ(Hex(filter),
            "e292f66693641fdcec49f8dd31e75bdd0a58422d56f423f8ba8a75c1ed7f2680"
            "57ef20f72a96b907ea37a058dff6d8d90190aa130bdfa7408b81c76e4c955802"
            "02000000000000000000000000000000"
            // num_blocks 5, upper_start 5, 2 columns, seed 0, version 1.
            "05000000"
            "05000000"
            "02"
            "00"
            "a1");
}

TEST(Ribbon, GoldenBytesOfLargerFilters) {
  EXPECT_EQ(Fingerprint(BuildFilter(*NewRibbonFilterPolicy(7),
                                    RandomKeys(10000, 16, 13))),
            "6fdb98959714b305");
  EXPECT_EQ(Fingerprint(BuildFilter(*NewRibbonFilterPolicy(9.5),
                                    DecimalKeys(5000, 0, 1))),
            "5fbf12469565e04c");
  EXPECT_EQ(Fingerprint(BuildFilter(*NewRibbonFilterPolicyForRate(0.001),
                                    SharedPrefixKeys(1000))),
            "ebaeb228d2589538");
}

// Every damaged filter answers "maybe" for every key.
void ExpectAllMaybe(std::string_view filter, const std::string& what) {
  const auto policy = NewRibbonFilterPolicy(7);
  const ExactBuffer exact(filter);
  const RibbonView view(exact.view());
  EXPECT_FALSE(view.is_ribbon()) << what;
  EXPECT_FALSE(view.is_bloom()) << what;
  const std::vector<std::string> probes = RandomKeys(200, 16, 14);
  EXPECT_EQ(CountMayMatch(*policy, exact.view(), probes), probes.size())
      << what;
  EXPECT_TRUE(policy->KeyMayMatch("", exact.view())) << what;
}

// `filter` with its trailer's fields replaced.
std::string WithTrailer(std::string filter, uint32_t num_blocks,
                        uint32_t upper_start, int lower_columns,
                        int format = kRibbonFormatV1) {
  char* trailer = &filter[filter.size() - kRibbonTrailerBytes];
  EncodeFixed32(trailer, num_blocks);
  EncodeFixed32(trailer + 4, upper_start);
  trailer[8] = static_cast<char>(lower_columns);
  trailer[10] = static_cast<char>(format);
  return filter;
}

TEST(Ribbon, MalformedFiltersAnswerMaybe) {
  // 1000 keys at 7.68 bits per key: 120 words in 16 blocks, so 7 columns
  // in blocks 0..7 and 8 in blocks 8..15.
  const std::vector<std::string> keys = RandomKeys(1000, 16, 15);
  const std::string good = BuildFilter(*NewRibbonFilterPolicy(7.68), keys);
  const RibbonView view(good);
  ASSERT_TRUE(view.is_ribbon());
  ASSERT_EQ(view.shape().num_blocks, 16u);
  ASSERT_EQ(view.shape().lower_columns, 7);
  ASSERT_EQ(view.shape().upper_start, 8u);
  ASSERT_EQ(good.size(), (16 * 7 + 8) * 8 + kRibbonTrailerBytes);

  ExpectAllMaybe("", "empty");
  ExpectAllMaybe(std::string("\xa1", 1), "format byte only");
  ExpectAllMaybe(good.substr(good.size() - 10), "10-byte trailer");
  ExpectAllMaybe(WithTrailer(good, 16, 8, 7, 0xA2), "unknown version");
  ExpectAllMaybe(WithTrailer(good, 16, 8, 7, 0x07), "a LevelDB-style k");
  ExpectAllMaybe(WithTrailer(good, 15, 8, 7), "fewer blocks than bytes");
  ExpectAllMaybe(WithTrailer(good, 17, 8, 7), "more blocks than bytes");
  ExpectAllMaybe(WithTrailer(good, 16, 9, 7), "upper start moved");
  ExpectAllMaybe(WithTrailer(good, 16, 17, 7), "upper start past the end");
  ExpectAllMaybe(WithTrailer(good, 16, 8, 6), "fewer columns");
  ExpectAllMaybe(WithTrailer(good, 16, 8, 32), "33 columns in upper blocks");
  ExpectAllMaybe(WithTrailer(good, 16, 8, 255), "255 columns");
  ExpectAllMaybe(WithTrailer(good, 0, 0, 0), "no blocks");
  ExpectAllMaybe(WithTrailer(good, 1, 1, 7), "one block");
  ExpectAllMaybe(WithTrailer(good, 0xFFFFFFFF, 0xFFFFFFFF, 32),
                 "absurd block count");
  ExpectAllMaybe(WithTrailer(good, 0x80000000, 0x80000000, 8),
                 "block count whose size wraps 32 bits");
  ExpectAllMaybe(std::string(1, 'x') + good, "one byte too many");
  // A cache-local Bloom filter with a damaged trailer is not used either.
  std::string bloom = Build(RandomKeys(100, 16, 16), BitsPerKey(10));
  ASSERT_TRUE(RibbonView(bloom).is_bloom());
  bloom[bloom.size() - 2] = 0;  // zero probes
  ExpectAllMaybe(bloom, "damaged fallback");
  // Every truncation: the trailer is gone or disagrees with the length;
  // except that 2 to 65 bytes ending, by chance, in 0xC1..0xE0 are a compact
  // cache-local Bloom filter (the fallback's form for one line), which has no
  // length to check: they are read as one.
  for (size_t size = 0; size < good.size(); ++size) {
    const std::string truncated = good.substr(0, size);
    if (size >= 2 && size <= 65 &&
        IsCacheLocalBloomCompactByte(truncated.back())) {
      EXPECT_TRUE(RibbonView(truncated).is_bloom()) << size;
      continue;
    }
    ExpectAllMaybe(truncated, "truncated to " + std::to_string(size));
  }
  // The undamaged filter still has no false negatives.
  ExpectAllMatch(good, keys, "good");
}

// Random bytes, many with a consistent trailer: no crash and no read
// outside the buffer (run under the sanitizers).
TEST(Ribbon, ArbitraryBytesNeverCrash) {
  const auto policy = NewRibbonFilterPolicy(7);
  std::mt19937_64 rng(17);
  const std::vector<std::string> probes = RandomKeys(20, 16, 18);
  for (int i = 0; i < 2000; ++i) {
    const uint32_t num_blocks = static_cast<uint32_t>(rng() % 12);
    const int lower = static_cast<int>(rng() % 34);
    const uint32_t upper_start =
        static_cast<uint32_t>(rng() % (num_blocks + 2));
    std::string bytes;
    if (i % 2 == 0 && lower <= 32) {
      RibbonShape shape;
      shape.num_blocks = num_blocks;
      shape.upper_start = std::min(upper_start, num_blocks);
      shape.lower_columns = lower;
      bytes.resize(8 * shape.NumWords() + kRibbonTrailerBytes);
    } else {
      bytes.resize(rng() % 600 + kRibbonTrailerBytes);
    }
    for (char& c : bytes) c = static_cast<char>(rng());
    bytes =
        WithTrailer(bytes, num_blocks, upper_start, lower,
                    i % 7 == 0 ? kCacheLocalBloomFormatV1 : kRibbonFormatV1);
    const ExactBuffer exact(bytes);
    CountMayMatch(*policy, exact.view(), probes);
    for (const std::string& probe : probes) {
      policy->KeyMayMatch(probe, exact.view());
    }
  }
}

}  // namespace
}  // namespace bloomtable
