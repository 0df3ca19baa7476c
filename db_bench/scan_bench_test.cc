// Tests of db_bench's scan workloads: the sparse key schemes, the ranges of
// scanmissing and scanshort, the scan filters in the plan, and every engine's
// bounded scans (Engine::NewScan) against the ranges' known contents, with
// bloomtable's range and prefix filters skipping empty ranges.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "bloomtable/filter_policy.h"
#include "bloomtable/prefix_extractor.h"
#include "db_bench/bench_plan.h"
#include "db_bench/benchmark_runner.h"
#include "db_bench/engine.h"
#include "db_bench/key_generator.h"
#include "db_bench/scan_ranges.h"
#include "db_bench/value_generator.h"
#include "gtest/gtest.h"
#include "tests/temp_dir.h"

namespace bloomtable {
namespace db_bench {
namespace {

KeyGenerator Strided(uint64_t num, uint64_t stride = 128) {
  KeySchemeOptions scheme;
  scheme.scheme = KeyScheme::kStrided;
  scheme.stride = stride;
  return KeyGenerator(16, num, scheme);
}

KeyGenerator Random64(uint64_t num, uint64_t seed = 7) {
  KeySchemeOptions scheme;
  scheme.scheme = KeyScheme::kRandom64;
  scheme.seed = seed;
  return KeyGenerator(16, num, scheme);
}

std::string KeyOf(const KeyGenerator& keys, uint64_t number) {
  std::string key(keys.key_size(), '?');
  keys.KeyNumber(number, key.data());
  return key;
}

TEST(SparseKeys, StridedKeysAreMultiplesOfTheStride) {
  const KeyGenerator keys = Strided(1000);
  EXPECT_EQ(keys.PresentKey(3), "0000000000000384");
  std::string near_miss(16, '?');
  keys.NearMissKey(3, near_miss.data());
  EXPECT_EQ(near_miss, "0000000000000385");
}

TEST(SparseKeys, Random64KeysAreSortedBigEndianNumbersAtLeastTwoApart) {
  const KeyGenerator keys = Random64(5000);
  EXPECT_EQ(keys.key_size(), 8u);
  for (uint64_t j = 1; j < keys.num(); ++j) {
    ASSERT_GE(keys.Number(j), keys.Number(j - 1) + 2);
    ASSERT_LT(keys.PresentKey(j - 1), keys.PresentKey(j));
  }
  EXPECT_EQ(KeyOf(keys, 0x0102030405060708),
            std::string("\x01\x02\x03\x04\x05\x06\x07\x08", 8));
  // The same seed gives the same keys; another seed others.
  EXPECT_EQ(Random64(5000).PresentKey(1234), keys.PresentKey(1234));
  EXPECT_NE(Random64(5000, 8).PresentKey(1234), keys.PresentKey(1234));
}

TEST(SparseKeys, ValidateRejectsBadStridesAndNarrowKeys) {
  KeySchemeOptions scheme;
  scheme.scheme = KeyScheme::kStrided;
  scheme.stride = 1;
  EXPECT_FALSE(KeyGenerator::Validate(16, 1000, scheme).ok());
  scheme.stride = 128;
  EXPECT_TRUE(KeyGenerator::Validate(16, 1000, scheme).ok());
  // 128 * 999 + 1 has six digits.
  EXPECT_FALSE(KeyGenerator::Validate(5, 1000, scheme).ok());
  EXPECT_TRUE(KeyGenerator::Validate(6, 1000, scheme).ok());
  EXPECT_FALSE(ParseKeyScheme("sparse").ok());
  EXPECT_EQ(*ParseKeyScheme("random64"), KeyScheme::kRandom64);
}

// Every empty range of every entry, checked against all the keys.
void ExpectEmptyRangesHoldNoKey(const KeyGenerator& keys, uint64_t length,
                                uint64_t expected_span) {
  for (uint64_t j = 0; j < keys.num(); ++j) {
    for (bool correlated : {true, false}) {
      const ScanRange range =
          EmptyScanRange(keys, j, length, correlated, j * 0x9e3779b97f4a7c15);
      ASSERT_EQ(range.keys, 0u);
      ASSERT_GT(range.lower, keys.Number(j));
      if (correlated) {
        ASSERT_EQ(range.lower, keys.Number(j) + 1);
      }
      if (j + 1 < keys.num()) {
        ASSERT_LE(range.upper, keys.Number(j + 1)) << j;
        ASSERT_EQ(range.upper - range.lower, expected_span) << j;
      }
    }
  }
}

TEST(ScanRanges, EmptyRangesHoldNoKeyInEveryScheme) {
  // Decimal keys leave one number between keys; strided ones 127.
  ExpectEmptyRangesHoldNoKey(KeyGenerator(16, 300), 64, 1);
  ExpectEmptyRangesHoldNoKey(Strided(300), 64, 64);
  ExpectEmptyRangesHoldNoKey(Strided(300), 500, 127);
  ExpectEmptyRangesHoldNoKey(Random64(300), 64, 64);
}

TEST(ScanRanges, ShortRangesCountTheKeysTheyHold) {
  EXPECT_EQ(ShortScanRange(KeyGenerator(16, 300), 10, 64).keys, 32u);
  EXPECT_EQ(ShortScanRange(Strided(300), 10, 64).keys, 1u);
  EXPECT_EQ(ShortScanRange(Strided(300), 10, 300).keys, 3u);
  // Near the end only the keys that are there.
  EXPECT_EQ(ShortScanRange(Strided(300), 299, 300).keys, 1u);
  const ScanRange range = ShortScanRange(Strided(300), 7, 64);
  EXPECT_EQ(range.lower, 7u * 128);
  EXPECT_EQ(range.upper, 7u * 128 + 64);
}

PlanFlags ScanFlags() {
  PlanFlags flags;
  flags.benchmarks = "fillrandom,scanmissing,scanshort";
  flags.num = 1000;
  flags.compression_type = "snappy";
  flags.bloom_bits = "10";
  flags.compare_no_filter = false;
  flags.filter = "cache_local_bloom";
  flags.filter_layout = "auto";
  flags.cache_size = "8388608";
  flags.threads = 1;
  flags.engines = "bloomtable";
  return flags;
}

TEST(ScanPlan, EachScanFilterIsAStoreOfItsOwn) {
  PlanFlags flags = ScanFlags();
  flags.scan_filters = "none,prefix,range";
  flags.prefix_length = 12;
  flags.key_scheme = "random64";
  absl::StatusOr<BenchPlan> plan = MakePlan(flags);
  ASSERT_TRUE(plan.ok()) << plan.status();
  std::vector<std::string> rows;
  for (const ConfigPlan& config : plan->configs) {
    rows.push_back(config.filter + " " + config.scan_filter);
  }
  EXPECT_EQ(rows, (std::vector<std::string>{"cache_local_bloom none",
                                            "cache_local_bloom prefix",
                                            "cache_local_bloom range"}));
  EXPECT_NE(plan->configs[1].engine_options.bloomtable_prefix_extractor,
            nullptr);
  EXPECT_EQ(plan->configs[2].engine_options.bloomtable_range_bits, 16);
  // random64 keys are 8 bytes, whatever --key_size says.
  EXPECT_EQ(plan->flags.key_size, 8);
}

TEST(ScanPlan, ScanFilterFlagsAreChecked) {
  PlanFlags flags = ScanFlags();
  flags.scan_filters = "prefix";
  EXPECT_TRUE(absl::IsInvalidArgument(MakePlan(flags).status()));  // length
  flags.scan_filters = "bloom";
  EXPECT_TRUE(absl::IsInvalidArgument(MakePlan(flags).status()));
  flags.scan_filters = "range";
  flags.range_bits = 2;
  EXPECT_TRUE(absl::IsInvalidArgument(MakePlan(flags).status()));
  flags = ScanFlags();
  flags.scan_length = 0;
  EXPECT_TRUE(absl::IsInvalidArgument(MakePlan(flags).status()));
  flags = ScanFlags();
  flags.key_scheme = "strided";
  flags.key_stride = 1;
  EXPECT_TRUE(absl::IsInvalidArgument(MakePlan(flags).status()));
}

struct ScanResults {
  BenchmarkResult missing;
  BenchmarkResult short_scans;
  BenchmarkResult seeks;
};

// Fills `engine` with strided keys and runs the scan benchmarks on it.
ScanResults RunScans(Engine* engine, const KeyGenerator& keys) {
  const ValueGenerator values(100, 0.5, 301);
  RunOptions options;
  options.keys = &keys;
  options.values = &values;
  options.reads = 500;
  options.seed = 11;
  options.scan_length = 64;
  options.seek_nexts = 3;
  options.label = engine->name();
  ScanResults results;
  absl::StatusOr<BenchmarkResult> fill =
      RunFill(BenchmarkKind::kFillRandom, options, engine);
  EXPECT_TRUE(fill.ok()) << fill.status();
  absl::StatusOr<BenchmarkResult> missing =
      RunRead(BenchmarkKind::kScanMissing, options, engine);
  absl::StatusOr<BenchmarkResult> short_scans =
      RunRead(BenchmarkKind::kScanShort, options, engine);
  absl::StatusOr<BenchmarkResult> seeks =
      RunRead(BenchmarkKind::kSeekRandom, options, engine);
  EXPECT_TRUE(missing.ok() && short_scans.ok() && seeks.ok());
  if (missing.ok()) results.missing = *missing;
  if (short_scans.ok()) results.short_scans = *short_scans;
  if (seeks.ok()) results.seeks = *seeks;
  return results;
}

// What every engine must answer: no key in an empty range, exactly the
// range's keys in a short one, every seek found.
void ExpectRightAnswers(const ScanResults& results, const std::string& what) {
  EXPECT_EQ(results.missing.ops, 500u) << what;
  EXPECT_EQ(results.missing.found, 0u) << what;
  EXPECT_EQ(results.missing.errors, 0u) << what;
  EXPECT_EQ(results.short_scans.ops, 500u) << what;
  EXPECT_EQ(results.short_scans.found, 500u) << what;  // one key per stride
  EXPECT_EQ(results.short_scans.wrong_values, 0u) << what;
  EXPECT_EQ(results.short_scans.errors, 0u) << what;
  EXPECT_EQ(results.seeks.found, 500u) << what;
}

EngineOptions ScanEngineOptions(const std::string& dir) {
  EngineOptions options;
  options.dir = dir;
  options.cache_size = 0;  // every data block from the file
  options.longest_key = 16 + KeyGenerator::kMissingSuffixSize;
  return options;
}

TEST(Scans, BloomtableScanFiltersSkipEmptyRangesOnly) {
  TempDir dir;
  const KeyGenerator keys = Strided(3000);
  for (const std::string scan_filter : {"none", "prefix", "range"}) {
    SCOPED_TRACE(scan_filter);
    EngineOptions options = ScanEngineOptions(dir.File(scan_filter));
    options.bloomtable_policy = NewCacheLocalBloomFilterPolicy(10);
    if (scan_filter == "prefix") {
      // 14 of 16 digits: 100 numbers per prefix, under one key each.
      options.bloomtable_prefix_extractor = NewFixedPrefixExtractor(14);
    } else if (scan_filter == "range") {
      options.bloomtable_range_bits = 16;
    }
    std::unique_ptr<Engine> engine = NewBloomtableEngine(options);
    const ScanResults results = RunScans(engine.get(), keys);
    ExpectRightAnswers(results, scan_filter);
    const EngineCounters& missing = results.missing.counters;
    if (scan_filter == "none") {
      // Every empty scan reads a block (no cache).
      EXPECT_EQ(missing.filter_checks, 0u);
      EXPECT_GE(missing.file_reads, results.missing.ops);
    } else if (scan_filter == "range") {
      // At most 64 / 2^14 of the ranges pass the filter: allow 2%.
      EXPECT_EQ(missing.filter_checks, results.missing.ops);
      EXPECT_GE(missing.filter_negatives, results.missing.ops * 98 / 100);
      EXPECT_LE(missing.file_reads, results.missing.ops * 4 / 100);
    } else {
      // Ranges that span two prefixes cannot ask; those inside one whose
      // prefix holds no key are skipped.
      EXPECT_GT(missing.filter_negatives, 0u);
      EXPECT_LT(missing.file_reads, results.missing.ops);
    }
  }
}

#ifdef BLOOMTABLE_DB_BENCH_WITH_LEVELDB
TEST(Scans, LevelDBEnginesScanTheSameRanges) {
  TempDir dir;
  const KeyGenerator keys = Strided(2000);
  for (const std::string engine_name : {"leveldb_table_iterator", "leveldb"}) {
    EngineOptions options = ScanEngineOptions(dir.File(engine_name));
    options.bloom_bits = 10;
    std::unique_ptr<Engine> engine = NewEngine(engine_name, options);
    ASSERT_NE(engine, nullptr);
    ExpectRightAnswers(RunScans(engine.get(), keys), engine_name);
  }
}
#endif

#ifdef BLOOMTABLE_DB_BENCH_WITH_ROCKSDB
TEST(Scans, RocksDBPrefixBloomAnswersScansThroughItsBounds) {
  TempDir dir;
  const KeyGenerator keys = Strided(2000);
  for (const std::string engine_name : {"rocksdb_sst_iterator", "rocksdb"}) {
    for (size_t prefix_length : {size_t{0}, size_t{14}}) {
      SCOPED_TRACE(engine_name + " prefix " + std::to_string(prefix_length));
      EngineOptions options = ScanEngineOptions(
          dir.File(engine_name + std::to_string(prefix_length)));
      options.bloom_bits = 10;
      options.rocksdb_prefix_length = prefix_length;
      std::unique_ptr<Engine> engine = NewEngine(engine_name, options);
      ASSERT_NE(engine, nullptr);
      const ScanResults results = RunScans(engine.get(), keys);
      ExpectRightAnswers(results, engine_name);
      if (prefix_length > 0) {
        // auto_prefix_mode asked the prefix Bloom for the ranges inside
        // one prefix, and it saved some of them.
        EXPECT_GT(results.missing.counters.filter_negatives, 0u);
      }
    }
  }
}
#endif

}  // namespace
}  // namespace db_bench
}  // namespace bloomtable
