// Tests of db_bench's parts: the key and value generators, the filter
// registry and plan checks, the statistics, the merging iterator, the table
// file reader and the bloomtable engine end to end on a small store.

#include <pthread.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "bloomtable/filter_policy.h"
#include "bloomtable/table_builder.h"
#include "db_bench/bench_plan.h"
#include "db_bench/benchmark_runner.h"
#include "db_bench/directory.h"
#include "db_bench/engine.h"
#include "db_bench/filter_budget.h"
#include "db_bench/filter_registry.h"
#include "db_bench/key_generator.h"
#include "db_bench/latency_samples.h"
#include "db_bench/machine.h"
#include "db_bench/repeats.h"
#include "db_bench/report.h"
#include "db_bench/table_file_info.h"
#include "db_bench/value_generator.h"
#include "gtest/gtest.h"
#include "snappy.h"

namespace bloomtable {
namespace db_bench {
namespace {

std::string Key(const KeyGenerator& keys, uint64_t number) {
  std::string key(keys.key_size(), '?');
  keys.KeyNumber(number, key.data());
  return key;
}

TEST(KeyGenerator, PresentKeyIsTwiceTheEntryAsSixteenDigits) {
  KeyGenerator keys(16, 1000);
  EXPECT_EQ(keys.PresentKey(42), "0000000000000084");
  EXPECT_EQ(keys.PresentKey(0), "0000000000000000");
}

TEST(KeyGenerator, NearMissKeyDiffersFromItsPresentKeyOnlyInTheLastByte) {
  KeyGenerator keys(16, 1000000);
  for (uint64_t j : {0ull, 4ull, 499999ull, 999999ull}) {
    std::string near_miss(16, '?');
    keys.NearMissKey(j, near_miss.data());
    const std::string present = keys.PresentKey(j);
    EXPECT_EQ(near_miss.substr(0, 15), present.substr(0, 15));
    EXPECT_EQ(near_miss[15], present[15] + 1);
  }
}

TEST(KeyGenerator, MissingKeySortsRightAfterItsPresentKey) {
  KeyGenerator keys(16, 1000);
  std::string missing(keys.missing_key_size(), '?');
  keys.MissingKey(41, 0x123456789abcdefull, missing.data());
  EXPECT_EQ(missing.size(), 16 + KeyGenerator::kMissingSuffixSize);
  EXPECT_GT(missing, keys.PresentKey(41));
  EXPECT_LT(missing, Key(keys, 83));  // the near-miss key after it
  EXPECT_LT(missing, keys.PresentKey(42));
  for (char c : missing.substr(16)) EXPECT_TRUE(c >= 'a' && c <= 'z');
}

TEST(KeyGenerator, DistinctEntriesRepeatOnlyOnceEveryEntryWasDrawn) {
  KeyGenerator keys(16, 1000);
  const std::vector<uint64_t> drawn = keys.DistinctEntries(0, 2500, 7);
  ASSERT_EQ(drawn.size(), 2500u);
  for (size_t round = 0; round < 3; ++round) {
    const size_t begin = round * 1000;
    const size_t end = std::min<size_t>(begin + 1000, drawn.size());
    std::set<uint64_t> seen(drawn.begin() + begin, drawn.begin() + end);
    EXPECT_EQ(seen.size(), end - begin) << round;
    EXPECT_LT(*seen.rbegin(), 1000u);
  }
  // Not in order: a shuffle; and any slice is the same sequence's.
  EXPECT_FALSE(std::is_sorted(drawn.begin(), drawn.begin() + 1000));
  EXPECT_EQ(keys.DistinctEntries(900, 300, 7),
            std::vector<uint64_t>(drawn.begin() + 900, drawn.begin() + 1200));
}

// An engine that remembers the keys it was asked, and the names of the
// threads that asked them, and finds none.
class RecordingEngine final : public Engine {
 public:
  std::string name() const override { return "recording"; }
  absl::Status Fill(const FillInput&, Progress*) override {
    return absl::OkStatus();
  }
  absl::Status OpenExisting() override { return absl::OkStatus(); }
  absl::Status Get(std::string_view key, std::string*) const override {
    char thread_name[16] = {};
    pthread_getname_np(pthread_self(), thread_name, sizeof(thread_name));
    std::lock_guard<std::mutex> lock(mutex_);
    asked_.emplace_back(key);
    thread_names_.insert(thread_name);
    return absl::NotFoundError("");
  }
  std::unique_ptr<EngineIterator> NewIterator() const override {
    return nullptr;
  }
  EngineCounters Counters() const override { return {}; }
  MemorySummary Memory() const override { return {}; }
  absl::StatusOr<StorageSummary> Storage() const override {
    return StorageSummary();
  }

  std::vector<std::string> asked() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return asked_;
  }
  std::set<std::string> thread_names() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return thread_names_;
  }

 private:
  mutable std::mutex mutex_;
  mutable std::vector<std::string> asked_;
  mutable std::set<std::string> thread_names_;
};

TEST(RunRead, AbsentKeyStreamsDoNotRepeatWhereTheKeySpaceAllows) {
  const KeyGenerator keys(16, 200);
  const ValueGenerator values(100, 0.5, 301);
  RunOptions options;
  options.keys = &keys;
  options.values = &values;
  options.reads = 50;  // several passes over 50 keys each
  options.min_seconds = 0.02;
  for (BenchmarkKind kind :
       {BenchmarkKind::kReadMissing, BenchmarkKind::kReadNearMiss,
        BenchmarkKind::kReadUnrelated}) {
    RecordingEngine engine;
    absl::StatusOr<BenchmarkResult> result = RunRead(kind, options, &engine);
    ASSERT_TRUE(result.ok()) << result.status();
    const std::vector<std::string> asked = engine.asked();
    ASSERT_GT(asked.size(), 200u) << BenchmarkName(kind);
    // Near-miss keys: one per entry, so each round of 200 is distinct; the
    // others: random keys, distinct throughout.
    const size_t window = kind == BenchmarkKind::kReadNearMiss ? 200 : 400;
    const std::set<std::string> first(
        asked.begin(), asked.begin() + std::min(window, asked.size()));
    EXPECT_EQ(first.size(), std::min(window, asked.size()))
        << BenchmarkName(kind);
  }
}

TEST(RunRead, LookupsRunInThreadsNamedForProfilers) {
  const KeyGenerator keys(16, 200);
  const ValueGenerator values(100, 0.5, 301);
  RunOptions options;
  options.keys = &keys;
  options.values = &values;
  options.reads = 20;
  options.threads = 2;
  RecordingEngine engine;
  absl::StatusOr<BenchmarkResult> result =
      RunRead(BenchmarkKind::kReadRandom, options, &engine);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(engine.asked().size(), 40u);
  EXPECT_EQ(engine.thread_names(), std::set<std::string>{kReaderThreadName});
}

TEST(KeyGenerator, IsPresentRecognisesExactlyTheStoredKeys) {
  for (const KeySchemeOptions& scheme :
       {KeySchemeOptions{KeyScheme::kDecimal},
        KeySchemeOptions{KeyScheme::kStrided, 128},
        KeySchemeOptions{KeyScheme::kRandom64, 128, 7}}) {
    KeyGenerator keys(16, 5000, scheme);
    for (uint64_t j : {0ull, 1ull, 2500ull, 4999ull}) {
      EXPECT_TRUE(keys.IsPresent(keys.PresentKey(j)));
      std::string near_miss(keys.key_size(), '?');
      keys.NearMissKey(j, near_miss.data());
      EXPECT_FALSE(keys.IsPresent(near_miss));
      std::string missing(keys.missing_key_size(), '?');
      keys.MissingKey(j, 12345, missing.data());
      EXPECT_FALSE(keys.IsPresent(missing));
    }
  }
  KeyGenerator keys(16, 1000);
  EXPECT_FALSE(keys.IsPresent(Key(keys, 2000)));  // past the last entry
  EXPECT_FALSE(keys.IsPresent("000000000000008a"));
  EXPECT_FALSE(keys.IsPresent("84"));  // not the key width
}

TEST(KeyGenerator, UnrelatedKeysAreAbsentAndSpreadOverTheKeyRange) {
  for (const KeySchemeOptions& scheme :
       {KeySchemeOptions{KeyScheme::kDecimal},
        KeySchemeOptions{KeyScheme::kStrided, 128},
        KeySchemeOptions{KeyScheme::kRandom64, 128, 7}}) {
    constexpr uint64_t kNum = 100000;
    KeyGenerator keys(16, kNum, scheme);
    const std::string first = keys.PresentKey(0);
    const std::string last = keys.PresentKey(kNum - 1);
    Random64 random(99);
    std::vector<std::string> present_keys;
    for (uint64_t j = 0; j < kNum; ++j)
      present_keys.push_back(keys.PresentKey(j));
    std::vector<uint64_t> buckets(10);
    int in_range = 0;
    constexpr int kDraws = 20000;
    for (int i = 0; i < kDraws; ++i) {
      std::string key(keys.key_size(), '?');
      keys.UnrelatedKey(&random, key.data());
      ASSERT_FALSE(
          std::binary_search(present_keys.begin(), present_keys.end(), key))
          << KeySchemeName(scheme.scheme);
      // The key's last bytes are random; the rest is the scheme's form.
      const size_t fixed = key.size() - KeyGenerator::kUnrelatedRandomBytes;
      if (key >= first && key <= last) {
        ++in_range;
        const size_t position =
            std::lower_bound(present_keys.begin(), present_keys.end(), key) -
            present_keys.begin();
        ++buckets[position * buckets.size() / (kNum + 1)];
      }
      EXPECT_LE(key.substr(0, fixed), last.substr(0, fixed));
    }
    // Nearly all land inside the table's key range, and they spread over it:
    // every tenth of the keys gets about a tenth of them.
    EXPECT_GE(in_range, kDraws * 99 / 100) << KeySchemeName(scheme.scheme);
    for (uint64_t count : buckets) {
      EXPECT_GT(count, static_cast<uint64_t>(in_range) / 20)
          << KeySchemeName(scheme.scheme);
    }
  }
}

TEST(KeyGenerator, KeyOrderIsNumericOrder) {
  KeyGenerator keys(16, 100000);
  std::vector<std::string> sorted;
  for (uint64_t n : {9ull, 10ull, 99ull, 100ull, 12345ull, 199999ull}) {
    sorted.push_back(Key(keys, n));
  }
  EXPECT_TRUE(std::is_sorted(sorted.begin(), sorted.end()));
}

TEST(KeyGenerator, OtherKeySizesPadWithLeadingZeros) {
  KeyGenerator narrow(7, 1000000);
  EXPECT_EQ(narrow.PresentKey(42), "0000084");
  KeyGenerator wide(24, 10);
  EXPECT_EQ(wide.PresentKey(3), std::string(23, '0') + "6");
}

TEST(KeyGenerator, ValidateRejectsKeySizesTooSmallForTheLargestNumber) {
  // num = 1,000,000: near-miss numbers reach 1,999,999 (7 digits).
  EXPECT_TRUE(KeyGenerator::Validate(7, 1000000).ok());
  EXPECT_EQ(KeyGenerator::Validate(6, 1000000).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(KeyGenerator::Validate(16, 0).code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(ValueGenerator, ValuesAreAFunctionOfTheEntry) {
  ValueGenerator a(100, 0.5, 301);
  ValueGenerator b(100, 0.5, 301);
  EXPECT_EQ(a.Value(12345), b.Value(12345));
  EXPECT_EQ(a.Value(7).size(), 100u);
  EXPECT_NE(a.Value(7), a.Value(8));
}

TEST(ValueGenerator, BlocksOfValuesCompressToAboutTheRatio) {
  for (double ratio : {0.25, 0.5, 1.0}) {
    ValueGenerator values(100, ratio, 301);
    std::string block;
    for (uint64_t j = 0; j < 40; ++j) block += values.Value(j);
    std::string compressed;
    snappy::Compress(block.data(), block.size(), &compressed);
    const double achieved =
        static_cast<double>(compressed.size()) / block.size();
    // Snappy's framing and literal tags add a few percent on top.
    EXPECT_GT(achieved, ratio - 0.05) << ratio;
    EXPECT_LT(achieved, ratio + 0.12) << ratio;
  }
}

TEST(ValueGenerator, ValidateRejectsRatiosOutsideZeroToOne) {
  EXPECT_FALSE(ValueGenerator::Validate(100, 0).ok());
  EXPECT_FALSE(ValueGenerator::Validate(100, 1.5).ok());
  EXPECT_TRUE(ValueGenerator::Validate(100, 1).ok());
}

TEST(FilterRegistry, LevelDBBloomRejectsFractionalBits) {
  absl::StatusOr<const FilterEntry*> entry = FindFilter("leveldb_bloom");
  ASSERT_TRUE(entry.ok());
  EXPECT_EQ(ResolveFilter(**entry, 9.5, "auto").status().code(),
            absl::StatusCode::kInvalidArgument);
  absl::StatusOr<ResolvedFilter> resolved = ResolveFilter(**entry, 10, "auto");
  ASSERT_TRUE(resolved.ok());
  EXPECT_EQ(resolved->layout, FilterLayout::kPerBlock);
  EXPECT_EQ(resolved->policy->Name(), "leveldb.BuiltinBloomFilter2");
}

TEST(FilterRegistry, UnknownNamesListTheKnownOnes) {
  absl::StatusOr<const FilterEntry*> entry = FindFilter("nosuch");
  ASSERT_FALSE(entry.ok());
  EXPECT_NE(entry.status().message().find("leveldb_bloom"), std::string::npos);
}

PlanFlags DefaultFlags() {
  PlanFlags flags;
  flags.benchmarks = "fillrandom,readrandom,readmissing,readnearmiss";
  flags.num = 1000;
  flags.compression_type = "snappy";
  flags.bloom_bits = "10";
  flags.filter = "cache_local_bloom";
  flags.filter_layout = "auto";
  flags.cache_size = "8388608";
  flags.threads = 1;
  return flags;
}

TEST(BenchPlan, DefaultRunsEveryEngineWithAndWithoutAFilter) {
  absl::StatusOr<BenchPlan> plan = MakePlan(DefaultFlags());
  ASSERT_TRUE(plan.ok()) << plan.status();
  std::vector<std::string> rows;
  for (const ConfigPlan& config : plan->configs) {
    rows.push_back(config.level + " " + config.engine + " " + config.filter +
                   " " + config.io);
  }
  std::vector<std::string> expected = {
      "table bloomtable cache_local_bloom pread",
      "table bloomtable none pread"};
#ifdef BLOOMTABLE_DB_BENCH_WITH_LEVELDB_TABLE_LOOKUP
  expected.insert(expected.end(), {"table leveldb_table leveldb_bloom pread",
                                   "table leveldb_table none pread"});
#endif
#ifdef BLOOMTABLE_DB_BENCH_WITH_LEVELDB
  expected.insert(expected.end(),
                  {"table leveldb_table_iterator leveldb_bloom pread",
                   "table leveldb_table_iterator none pread"});
#endif
#ifdef BLOOMTABLE_DB_BENCH_WITH_ROCKSDB_TABLE_READER
  expected.insert(expected.end(), {"table rocksdb_table rocksdb_bloom pread",
                                   "table rocksdb_table rocksdb_ribbon pread",
                                   "table rocksdb_table none pread"});
#endif
#ifdef BLOOMTABLE_DB_BENCH_WITH_ROCKSDB
  expected.insert(expected.end(),
                  {"table rocksdb_sst_iterator rocksdb_bloom pread",
                   "table rocksdb_sst_iterator rocksdb_ribbon pread",
                   "table rocksdb_sst_iterator none pread"});
#endif
#ifdef BLOOMTABLE_DB_BENCH_WITH_LEVELDB
  expected.insert(expected.end(),
                  {"db leveldb leveldb_bloom pread", "db leveldb none pread",
                   "db leveldb+bloomtable cache_local_bloom pread"});
#endif
#ifdef BLOOMTABLE_DB_BENCH_WITH_ROCKSDB
  expected.insert(expected.end(),
                  {"db rocksdb rocksdb_bloom pread",
                   "db rocksdb rocksdb_ribbon pread", "db rocksdb none pread"});
#endif
#ifdef BLOOMTABLE_DB_BENCH_WITH_LEVELDB
  expected.insert(expected.end(),
                  {"db bloomtable_db leveldb_bloom pread",
                   "db bloomtable_db+sidecars cache_local_bloom pread",
                   "db leveldb_dir leveldb_bloom pread"});
#endif
#ifdef BLOOMTABLE_DB_BENCH_WITH_ROCKSDB
  expected.insert(expected.end(), {"db rocksdb_readonly rocksdb_bloom pread",
                                   "db rocksdb_readonly rocksdb_ribbon pread",
                                   "db rocksdb_readonly none pread"});
#endif
  EXPECT_EQ(rows, expected);
  EXPECT_EQ(plan->reads, 1000u);
}

TEST(BenchPlan, ReadsNeedAFillFirst) {
  PlanFlags flags = DefaultFlags();
  flags.benchmarks = "readrandom,fillrandom";
  EXPECT_EQ(MakePlan(flags).status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(BenchPlan, FractionalBitsAreRejectedWhenLevelDBRuns) {
  PlanFlags flags = DefaultFlags();
  flags.bloom_bits = "9.5";
  flags.filter = "leveldb_bloom";
  flags.engines = "bloomtable";
  EXPECT_EQ(MakePlan(flags).status().code(),
            absl::StatusCode::kInvalidArgument);
#ifdef BLOOMTABLE_DB_BENCH_WITH_LEVELDB
  flags.engines = "leveldb";
  EXPECT_EQ(MakePlan(flags).status().code(),
            absl::StatusCode::kInvalidArgument);
#endif
}

TEST(BenchPlan, EachIoPathReopensTheStoreFilledByTheFirst) {
  PlanFlags flags = DefaultFlags();
  flags.engines = "bloomtable";
  flags.compare_no_filter = false;
  flags.io = "pread,mmap";
  absl::StatusOr<BenchPlan> plan = MakePlan(flags);
  ASSERT_TRUE(plan.ok()) << plan.status();
  ASSERT_EQ(plan->configs.size(), 2u);
  EXPECT_EQ(plan->configs[0].io, "pread");
  EXPECT_FALSE(plan->configs[0].engine_options.mmap_reads);
  EXPECT_FALSE(plan->configs[0].reuses_store);
  EXPECT_EQ(plan->configs[1].io, "mmap");
  EXPECT_TRUE(plan->configs[1].engine_options.mmap_reads);
  EXPECT_TRUE(plan->configs[1].reuses_store);
  EXPECT_EQ(plan->configs[0].dir_name, plan->configs[1].dir_name);
  flags.io = "pread,direct";
  EXPECT_EQ(MakePlan(flags).status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(BenchPlan, ALayoutListSkipsTheLayoutsAPolicyCannotBuild) {
  PlanFlags flags = DefaultFlags();
  flags.engines = "bloomtable";
  flags.compare_no_filter = false;
  flags.filter = "cache_local_bloom,ribbon";
  flags.filter_layout = "per_block,whole_table";
  absl::StatusOr<BenchPlan> plan = MakePlan(flags);
  ASSERT_TRUE(plan.ok()) << plan.status();
  std::vector<std::string> rows;
  for (const ConfigPlan& config : plan->configs) {
    rows.push_back(config.filter + " " + config.filter_layout);
  }
  EXPECT_EQ(rows, (std::vector<std::string>{"cache_local_bloom per_block",
                                            "cache_local_bloom whole_table",
                                            "ribbon whole_table"}));
  // Alone, a layout the policy cannot build is an error.
  flags.filter = "ribbon";
  flags.filter_layout = "per_block";
  EXPECT_EQ(MakePlan(flags).status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(BenchPlan, UnsetBitsRunTheCompatibleAndTheRecommendedRowsAtEqualMemory) {
  PlanFlags flags = DefaultFlags();
  flags.engines = "bloomtable";
  flags.compare_no_filter = false;
  // db_bench's own defaults.
  flags.bloom_bits = "";
  flags.stored_bits = "auto";
  flags.filter = "leveldb_bloom,cache_local_bloom,ribbon";
  flags.index_block_restart_interval = 0;
  absl::StatusOr<BenchPlan> plan = MakePlan(flags);
  ASSERT_TRUE(plan.ok()) << plan.status();
  std::vector<std::string> rows;
  for (const ConfigPlan& config : plan->configs) {
    EXPECT_EQ(config.target_stored_bits, 10);
    rows.push_back(absl::StrCat(
        config.filter, " ", config.filter_layout, " ",
        config.engine_options.bloomtable_index_block_restart_interval));
  }
  EXPECT_EQ(rows, (std::vector<std::string>{"leveldb_bloom per_block 1",
                                            "cache_local_bloom per_block 1",
                                            "ribbon whole_table 16"}));
  bool says_which = false;
  for (const std::string& note : plan->notes) {
    says_which |= note.find("LevelDB-compatible") != std::string::npos &&
                  note.find("README recommends") != std::string::npos;
  }
  EXPECT_TRUE(says_which);

  // Bits given: no calibration; an interval given applies to every layout.
  flags.bloom_bits = "12";
  flags.index_block_restart_interval = 4;
  plan = MakePlan(flags);
  ASSERT_TRUE(plan.ok()) << plan.status();
  for (const ConfigPlan& config : plan->configs) {
    EXPECT_EQ(config.target_stored_bits, 0);
    EXPECT_EQ(config.bloom_bits, 12);
    EXPECT_EQ(config.engine_options.bloomtable_index_block_restart_interval, 4);
  }
  flags.index_block_restart_interval = -1;
  EXPECT_EQ(MakePlan(flags).status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(BenchPlan, StoredBitsTargetsReplaceBitsPerKey) {
  PlanFlags flags = DefaultFlags();
  flags.engines = "bloomtable";
  flags.compare_no_filter = false;
  flags.stored_bits = "8,12";
  absl::StatusOr<BenchPlan> plan = MakePlan(flags);
  ASSERT_TRUE(plan.ok()) << plan.status();
  ASSERT_EQ(plan->configs.size(), 2u);
  EXPECT_EQ(plan->configs[0].target_stored_bits, 8);
  EXPECT_EQ(plan->configs[1].target_stored_bits, 12);
  EXPECT_NE(plan->configs[0].dir_name, plan->configs[1].dir_name);
  for (const char* bad : {"0", "x", "8,-1"}) {
    flags.stored_bits = bad;
    EXPECT_EQ(MakePlan(flags).status().code(),
              absl::StatusCode::kInvalidArgument)
        << bad;
  }
}

TEST(BenchPlan, RepeatsAndMinSecondsAreBounded) {
  PlanFlags flags = DefaultFlags();
  flags.repeats = 0;
  EXPECT_EQ(MakePlan(flags).status().code(),
            absl::StatusCode::kInvalidArgument);
  flags.repeats = 3;
  flags.min_seconds = -1;
  EXPECT_EQ(MakePlan(flags).status().code(),
            absl::StatusCode::kInvalidArgument);
  flags.min_seconds = 1;
  EXPECT_TRUE(MakePlan(flags).ok());
}

TEST(BenchPlan, CacheSizeTakesBytesOrABinarySuffix) {
  const std::pair<const char*, uint64_t> sizes[] = {
      {"8388608", 8 << 20},        {" 64M", 64 << 20}, {"1k", 1024},
      {"2GiB", uint64_t{2} << 30}, {"0", 0},           {"8MB", 8 << 20}};
  for (const auto& [text, bytes] : sizes) {
    absl::StatusOr<uint64_t> size = ParseCacheSize(text);
    ASSERT_TRUE(size.ok()) << text << ": " << size.status();
    EXPECT_EQ(*size, bytes) << text;
  }
  for (const char* bad :
       {"", "lots", "8X", "-1", "8MM", "99999999999G", "8M,64M"}) {
    EXPECT_EQ(ParseCacheSize(bad).status().code(),
              absl::StatusCode::kInvalidArgument)
        << bad;
  }
}

TEST(BenchPlan, ThreadsMustBeAPositiveCount) {
  PlanFlags flags = DefaultFlags();
  for (int bad : {0, -2, 257}) {
    flags.threads = bad;
    EXPECT_EQ(MakePlan(flags).status().code(),
              absl::StatusCode::kInvalidArgument)
        << bad;
  }
  flags.threads = 2;
  EXPECT_TRUE(MakePlan(flags).ok());
}

#ifdef BLOOMTABLE_DB_BENCH_WITH_LEVELDB
TEST(BenchPlan, LevelDBWithTheAdapterSkipsWholeTableOnlyPoliciesWithANote) {
  PlanFlags flags = DefaultFlags();
  flags.engines = "leveldb+bloomtable";
  flags.filter = "ribbon,cache_local_bloom";
  absl::StatusOr<BenchPlan> plan = MakePlan(flags);
  ASSERT_TRUE(plan.ok()) << plan.status();
  // No "none" row either: without a filter it is plain LevelDB.
  ASSERT_EQ(plan->configs.size(), 1u);
  EXPECT_EQ(plan->configs[0].filter, "cache_local_bloom");
  ASSERT_NE(plan->configs[0].engine_options.leveldb_adapted_policy, nullptr);
  bool noted = false;
  for (const std::string& note : plan->notes) {
    if (note.find("skips --filter=ribbon") != std::string::npos) noted = true;
  }
  EXPECT_TRUE(noted);

  flags.filter = "ribbon";
  EXPECT_EQ(MakePlan(flags).status().code(),
            absl::StatusCode::kInvalidArgument);
}
#endif

TEST(BenchPlan, ZeroBitsMeansNoFilterOnly) {
  PlanFlags flags = DefaultFlags();
  flags.bloom_bits = "0";
  flags.compare_no_filter = false;
  flags.engines = "bloomtable";
  absl::StatusOr<BenchPlan> plan = MakePlan(flags);
  ASSERT_TRUE(plan.ok()) << plan.status();
  ASSERT_EQ(plan->configs.size(), 1u);
  EXPECT_EQ(plan->configs[0].filter, "none");
  EXPECT_EQ(plan->configs[0].engine_options.bloomtable_policy, nullptr);
}

TEST(LatencySamples, PercentilesAreNearestRank) {
  LatencySamples samples;
  for (uint64_t nanos = 1000; nanos <= 100000; nanos += 1000)
    samples.Add(nanos);
  EXPECT_DOUBLE_EQ(samples.PercentileMicros(50), 50);
  EXPECT_DOUBLE_EQ(samples.PercentileMicros(99), 99);
  EXPECT_DOUBLE_EQ(samples.PercentileMicros(100), 100);
  EXPECT_TRUE(std::isnan(LatencySamples().PercentileMicros(50)));
}

TEST(FalsePositiveRate, CountsMaybesForAbsentKeysOnly) {
  BenchmarkResult result;
  result.counters.has_filter_counters = true;
  // 1000 lookups of absent keys: 990 "absent", 10 "maybe".
  result.counters.filter_checks = 1000;
  result.counters.filter_negatives = 990;
  EXPECT_DOUBLE_EQ(*FalsePositiveRate(result), 0.01);
  // 100 lookups found their key: those "maybe"s are not false positives.
  result.found = 100;
  result.counters.filter_checks = 1100;
  EXPECT_DOUBLE_EQ(*FalsePositiveRate(result), 0.01);
  // RocksDB counts its true positives itself.
  result.counters.filter_true_positives = 100;
  result.found = 0;
  EXPECT_DOUBLE_EQ(*FalsePositiveRate(result), 0.01);
  result.counters.has_filter_counters = false;
  EXPECT_FALSE(FalsePositiveRate(result).has_value());
}

class TempDir {
 public:
  TempDir() : path_(*MakeTempDirectory("db_bench_test-")) {}
  ~TempDir() { RemoveDirectory(path_).IgnoreError(); }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

TEST(TableFileInfo, ReportsTheFilterBlockTheMetaindexNames) {
  TempDir dir;
  for (bool with_filter : {true, false}) {
    const std::string path = dir.path() + "/t.ldb";
    Options options;
    if (with_filter) options.filter_policy = NewLevelDBBloomFilterPolicy(10);
    {
      std::unique_ptr<WritableFile> file = *NewWritableFile(path);
      TableBuilder builder(options, file.get());
      KeyGenerator keys(16, 1000);
      for (uint64_t j = 0; j < 1000; ++j) {
        ASSERT_TRUE(builder.Add(keys.PresentKey(j), "value").ok());
      }
      ASSERT_TRUE(builder.Finish().ok());
      ASSERT_TRUE(file->Close().ok());
    }
    absl::StatusOr<TableFileInfo> info = ReadTableFileInfo(path);
    ASSERT_TRUE(info.ok()) << info.status();
    EXPECT_EQ(info->file_size, *GetFileSize(path));
    if (with_filter) {
      EXPECT_EQ(info->filter_key, "filter.leveldb.BuiltinBloomFilter2");
      // 1000 keys at 10 bits: about 1250 bytes of filters plus offsets.
      EXPECT_GT(info->filter_bytes, 1250u);
      EXPECT_LT(info->filter_bytes, 1600u);
    } else {
      EXPECT_EQ(info->filter_key, "");
      EXPECT_EQ(info->filter_bytes, 0u);
    }
  }
}

TEST(BloomtableEngine, FindsEveryKeyAndReadsOnlyOnFilterMaybes) {
  TempDir dir;
  EngineOptions options;
  options.dir = dir.path() + "/bt";
  options.cache_size = 0;  // every data block from the file
  options.bloomtable_policy = NewLevelDBBloomFilterPolicy(10);
  std::unique_ptr<Engine> engine = NewBloomtableEngine(options);
  const uint64_t num = 3000;
  KeyGenerator keys(16, num);
  ValueGenerator values(100, 0.5, 301);
  std::vector<uint64_t> order(num);
  for (uint64_t j = 0; j < num; ++j) order[j] = (j * 7919) % num;  // shuffled
  Progress progress("test", num);
  ASSERT_TRUE(engine->Fill(FillInput{&keys, &values, order}, &progress).ok());

  absl::StatusOr<StorageSummary> storage = engine->Storage();
  ASSERT_TRUE(storage.ok()) << storage.status();
  EXPECT_EQ(storage->table_files, 1u);
  ASSERT_TRUE(storage->filter_bytes.has_value());
  EXPECT_GT(*storage->filter_bytes, 0u);

  std::string value;
  for (uint64_t j = 0; j < num; ++j) {
    ASSERT_TRUE(engine->Get(keys.PresentKey(j), &value).ok()) << j;
    ASSERT_EQ(value, values.Value(j));
  }
  const EngineCounters before = engine->Counters();
  std::string near_miss(16, '?');
  for (uint64_t j = 0; j < num; ++j) {
    keys.NearMissKey(j, near_miss.data());
    ASSERT_TRUE(absl::IsNotFound(engine->Get(near_miss, &value))) << j;
  }
  const EngineCounters delta = engine->Counters() - before;
  ASSERT_TRUE(delta.has_filter_counters);
  EXPECT_GT(delta.filter_checks, 0u);
  // Without a block cache, every "maybe" for an absent key is one read.
  EXPECT_EQ(delta.file_reads, delta.filter_checks - delta.filter_negatives);

  std::unique_ptr<EngineIterator> iter = engine->NewIterator();
  uint64_t count = 0;
  for (iter->SeekToFirst(); iter->Valid(); iter->Next()) {
    ASSERT_EQ(iter->key(), keys.PresentKey(count));
    ++count;
  }
  EXPECT_EQ(count, num);
}

// Fills `engine` with `num` entries in a shuffled order.
void FillShuffled(Engine* engine, const KeyGenerator& keys,
                  const ValueGenerator& values) {
  const uint64_t num = keys.num();
  std::vector<uint64_t> order(num);
  for (uint64_t j = 0; j < num; ++j) order[j] = (j * 7919) % num;
  Progress progress("test", num);
  ASSERT_TRUE(engine->Fill(FillInput{&keys, &values, order}, &progress).ok());
}

// Present, near-miss and out-of-range keys, interleaved and repeated, in one
// batch: MultiGet must answer each as Get does.
void ExpectMultiGetAnswersAsGet(const Engine& engine,
                                const KeyGenerator& keys) {
  std::vector<std::string> owned;
  for (uint64_t j = 0; j < keys.num(); j += 3) {
    owned.push_back(keys.PresentKey(j));
    std::string near_miss(keys.key_size(), '?');
    keys.NearMissKey(j, near_miss.data());
    owned.push_back(near_miss);
  }
  owned.push_back(keys.PresentKey(5));  // a repeat
  owned.push_back("");                  // before every table
  owned.push_back("~");                 // after every table
  std::vector<std::string_view> batch(owned.begin(), owned.end());
  std::vector<absl::Status> statuses;
  std::vector<std::string> values;
  engine.MultiGet(batch, &statuses, &values);
  ASSERT_EQ(statuses.size(), batch.size());
  ASSERT_EQ(values.size(), batch.size());
  std::string value;
  for (size_t i = 0; i < batch.size(); ++i) {
    const absl::Status status = engine.Get(batch[i], &value);
    ASSERT_EQ(statuses[i].code(), status.code()) << i << " " << batch[i];
    if (status.ok()) {
      EXPECT_EQ(values[i], value) << i;
    }
  }
}

// Every present key through one reader's GetPinned answers its value, a
// near miss NotFound; each value stays as it was until the reader's next
// call; and `readpinned` finds every key with its value.
void ExpectPinnedAnswersAsGet(Engine* engine, const KeyGenerator& keys,
                              const ValueGenerator& values) {
  ASSERT_TRUE(engine->HasPinnedGet());
  std::unique_ptr<EngineReader> reader = engine->NewReader();
  std::string near_miss(keys.key_size(), '?');
  std::string copied;
  for (uint64_t j = 0; j < keys.num(); ++j) {
    std::string_view value;
    const std::string key = keys.PresentKey(j);
    ASSERT_TRUE(reader->GetPinned(key, &value).ok()) << key;
    ASSERT_EQ(value, values.Value(j)) << key;
    // The copying Get through the same reader does not disturb the pin.
    ASSERT_TRUE(
        reader->Get(keys.PresentKey((j + 1) % keys.num()), &copied).ok());
    ASSERT_EQ(value, values.Value(j)) << key;
    keys.NearMissKey(j, near_miss.data());
    ASSERT_TRUE(absl::IsNotFound(reader->GetPinned(near_miss, &value)));
    EXPECT_TRUE(value.empty());
  }
  RunOptions options;
  options.keys = &keys;
  options.values = &values;
  options.reads = 200;
  absl::StatusOr<BenchmarkResult> result =
      RunRead(BenchmarkKind::kReadPinned, options, engine);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(result->found, 200u);
  EXPECT_EQ(result->wrong_values, 0u);
  EXPECT_EQ(result->errors, 0u);
}

// An engine that answers key `j` with the value of entry `j + shift`,
// truncated by `cut` bytes.
class ShiftedValueEngine final : public Engine {
 public:
  ShiftedValueEngine(const KeyGenerator* keys, const ValueGenerator* values,
                     uint64_t shift, size_t cut)
      : keys_(keys), values_(values), shift_(shift), cut_(cut) {}
  std::string name() const override { return "shifted"; }
  absl::Status Fill(const FillInput&, Progress*) override {
    return absl::OkStatus();
  }
  absl::Status OpenExisting() override { return absl::OkStatus(); }
  absl::Status Get(std::string_view key, std::string* value) const override {
    for (uint64_t j = 0; j < keys_->num(); ++j) {
      if (keys_->PresentKey(j) == key) {
        std::string_view v = values_->Value((j + shift_) % keys_->num());
        value->assign(v.substr(0, v.size() - cut_));
        return absl::OkStatus();
      }
    }
    return absl::NotFoundError("");
  }
  std::unique_ptr<EngineIterator> NewIterator() const override {
    return nullptr;
  }
  EngineCounters Counters() const override { return {}; }
  MemorySummary Memory() const override { return {}; }
  absl::StatusOr<StorageSummary> Storage() const override {
    return StorageSummary();
  }

 private:
  const KeyGenerator* const keys_;
  const ValueGenerator* const values_;
  const uint64_t shift_;
  const size_t cut_;
};

TEST(RunRead, LargeValuesOfAnotherEntryOrTruncatedAreWrongValues) {
  const KeyGenerator keys(16, 20);
  for (size_t value_size : {100, 65536}) {
    const ValueGenerator values(value_size, 0.5, 301);
    RunOptions options;
    options.keys = &keys;
    options.values = &values;
    options.reads = 40;
    for (const auto& [shift, cut] :
         {std::pair<uint64_t, size_t>{0, 0}, {1, 0}, {0, 1}}) {
      ShiftedValueEngine engine(&keys, &values, shift, cut);
      absl::StatusOr<BenchmarkResult> result =
          RunRead(BenchmarkKind::kReadRandom, options, &engine);
      ASSERT_TRUE(result.ok()) << result.status();
      EXPECT_EQ(result->found, 40u);
      EXPECT_EQ(result->wrong_values, shift == 0 && cut == 0 ? 0u : 40u)
          << value_size << " " << shift << " " << cut;
    }
  }
}

TEST(RunRead, ReadPinnedNeedsTheEnginesZeroCopyGet) {
  const KeyGenerator keys(16, 200);
  const ValueGenerator values(100, 0.5, 301);
  RunOptions options;
  options.keys = &keys;
  options.values = &values;
  options.reads = 10;
  RecordingEngine engine;
  ASSERT_FALSE(engine.HasPinnedGet());
  absl::StatusOr<BenchmarkResult> result =
      RunRead(BenchmarkKind::kReadPinned, options, &engine);
  EXPECT_TRUE(absl::IsUnimplemented(result.status())) << result.status();
  std::string_view value;
  EXPECT_TRUE(absl::IsUnimplemented(
      engine.NewReader()->GetPinned(keys.PresentKey(0), &value)));
  absl::StatusOr<std::vector<BenchmarkKind>> kinds =
      ParseBenchmarks("readrandom,readpinned");
  ASSERT_TRUE(kinds.ok());
  EXPECT_EQ(kinds->back(), BenchmarkKind::kReadPinned);
  EXPECT_STREQ(BenchmarkName(BenchmarkKind::kReadPinned), "readpinned");
}

TEST(BloomtableEngine, MultiGetAnswersAsGet) {
  TempDir dir;
  EngineOptions options;
  options.dir = dir.path() + "/bt";
  options.bloomtable_policy = NewCacheLocalBloomFilterPolicy(10);
  std::unique_ptr<Engine> engine = NewBloomtableEngine(options);
  ASSERT_TRUE(engine->HasNativeMultiGet());
  KeyGenerator keys(16, 3000);
  ValueGenerator values(100, 0.5, 301);
  FillShuffled(engine.get(), keys, values);
  ExpectMultiGetAnswersAsGet(*engine, keys);
  ExpectPinnedAnswersAsGet(engine.get(), keys, values);
}

TEST(RunRead, ReadSeqScansWholePassesAndRepeatsOnlyWithMinSeconds) {
  TempDir dir;
  EngineOptions options;
  options.dir = dir.path() + "/bt";
  options.bloomtable_policy = NewCacheLocalBloomFilterPolicy(10);
  std::unique_ptr<Engine> engine = NewBloomtableEngine(options);
  KeyGenerator keys(16, 300);
  ValueGenerator values(100, 0.5, 301);
  FillShuffled(engine.get(), keys, values);
  RunOptions run;
  run.keys = &keys;
  run.values = &values;
  for (const auto& [reads, min_seconds] :
       {std::pair<uint64_t, double>{1000, 0}, {120, 0}, {1000, 0.2}}) {
    run.reads = reads;
    run.min_seconds = min_seconds;
    absl::StatusOr<BenchmarkResult> result =
        RunRead(BenchmarkKind::kReadSeq, run, engine.get());
    ASSERT_TRUE(result.ok()) << result.status();
    const uint64_t pass = std::min<uint64_t>(reads, 300);
    EXPECT_EQ(result->found, result->ops);
    EXPECT_EQ(result->errors, 0u);
    if (min_seconds == 0) {
      EXPECT_EQ(result->ops, pass) << reads;  // one pass
    } else {
      // Whole passes, more than one: a pass over 300 entries takes far
      // less than 0.2 s.
      EXPECT_EQ(result->ops % pass, 0u);
      EXPECT_GT(result->ops, pass);
    }
  }
}

TEST(BloomtableEngine, WarmUpLeavesTheTimedLookupsToTheBlockCache) {
  TempDir dir;
  EngineOptions options;
  options.dir = dir.path() + "/bt";
  options.bloomtable_policy = NewCacheLocalBloomFilterPolicy(10);
  options.cache_size = 64 << 20;
  std::unique_ptr<Engine> engine = NewBloomtableEngine(options);
  KeyGenerator keys(16, 3000);
  ValueGenerator values(100, 0.5, 301);
  FillShuffled(engine.get(), keys, values);
  RunOptions run;
  run.keys = &keys;
  run.values = &values;
  run.reads = 3000;
  for (bool warm_up : {false, true}) {
    ASSERT_TRUE(engine->OpenExisting().ok());  // an empty block cache
    run.warm_up = warm_up;
    for (BenchmarkKind kind :
         {BenchmarkKind::kReadRandom, BenchmarkKind::kReadPinned}) {
      absl::StatusOr<BenchmarkResult> result = RunRead(kind, run, engine.get());
      ASSERT_TRUE(result.ok()) << result.status();
      EXPECT_EQ(result->found, 3000u);
      EXPECT_EQ(result->wrong_values, 0u);
      // Without the warm-up the first benchmark reads the blocks.
      if (warm_up || kind == BenchmarkKind::kReadPinned) {
        EXPECT_EQ(result->counters.file_reads, 0u) << BenchmarkName(kind);
      } else {
        EXPECT_GT(result->counters.file_reads, 0u);
      }
    }
  }
}

TEST(BloomtableEngine, MemoryCountsTheFilterAndTheIndex) {
  TempDir dir;
  for (bool with_filter : {true, false}) {
    EngineOptions options;
    options.dir = dir.path() + (with_filter ? "/filter" : "/none");
    if (with_filter) {
      options.bloomtable_policy = NewCacheLocalBloomFilterPolicy(10);
    }
    options.cache_size = 1 << 20;
    std::unique_ptr<Engine> engine = NewBloomtableEngine(options);
    KeyGenerator keys(16, 5000);
    ValueGenerator values(100, 0.5, 301);
    FillShuffled(engine.get(), keys, values);
    std::string value;
    ASSERT_TRUE(engine->Get(keys.PresentKey(7), &value).ok());
    const MemorySummary memory = engine->Memory();
    ASSERT_TRUE(memory.filter_bytes && memory.index_bytes &&
                memory.engine_bytes && memory.block_cache_usage);
    ASSERT_TRUE(memory.open_micros.has_value());
    EXPECT_GT(*memory.open_micros, 0);
    if (with_filter) {
      // 10 bits per key: about 1.25 bytes per key.
      EXPECT_GT(*memory.filter_bytes, 5000u);
      EXPECT_LT(*memory.filter_bytes, 5000u * 2);
    } else {
      EXPECT_EQ(*memory.filter_bytes, 0u);
    }
    EXPECT_GT(*memory.index_bytes, 0u);
    EXPECT_EQ(*memory.engine_bytes, *memory.filter_bytes + *memory.index_bytes);
    EXPECT_GT(*memory.block_cache_usage, 0u);  // the block just read
    EXPECT_EQ(memory.block_cache_capacity, 1u << 20);
  }
}

#ifdef BLOOMTABLE_DB_BENCH_WITH_LEVELDB
TEST(LevelDBEngine, WithTheAdapterUsesBloomtablesFilterAndCountsItsCache) {
  TempDir dir;
  EngineOptions options;
  options.dir = dir.path() + "/ldb";
  options.bloom_bits = 10;
  options.leveldb_adapted_policy = NewCacheLocalBloomFilterPolicy(10);
  std::unique_ptr<Engine> engine = NewLevelDBEngine(options);
  EXPECT_EQ(engine->name(), "leveldb+bloomtable");
  EXPECT_FALSE(engine->HasNativeMultiGet());
  KeyGenerator keys(16, 3000);
  ValueGenerator values(100, 0.5, 301);
  FillShuffled(engine.get(), keys, values);
  ExpectMultiGetAnswersAsGet(*engine, keys);

  const EngineCounters before = engine->Counters();
  std::string value;
  std::string near_miss(16, '?');
  for (uint64_t j = 0; j < keys.num(); ++j) {
    keys.NearMissKey(j, near_miss.data());
    ASSERT_TRUE(absl::IsNotFound(engine->Get(near_miss, &value)));
  }
  const EngineCounters delta = engine->Counters() - before;
  ASSERT_TRUE(delta.has_filter_counters);
  // (A key past a file's last key skips that file, and its filter.)
  EXPECT_GE(delta.filter_checks, keys.num() - 1);
  // The cache-local Bloom holds up on near-miss keys: well under 5%.
  EXPECT_LT(delta.filter_checks - delta.filter_negatives, keys.num() / 20);
  ASSERT_TRUE(delta.has_block_cache_counters);
  EXPECT_EQ(delta.block_cache_hits + delta.block_cache_misses,
            delta.filter_checks - delta.filter_negatives);

  const MemorySummary memory = engine->Memory();
  ASSERT_TRUE(memory.filter_bytes.has_value());
  EXPECT_GT(*memory.filter_bytes, keys.num());  // ~1.25 bytes per key and up
  ASSERT_TRUE(memory.index_bytes.has_value());
  EXPECT_GT(*memory.index_bytes, 0u);

  absl::StatusOr<StorageSummary> storage = engine->Storage();
  ASSERT_TRUE(storage.ok()) << storage.status();
  ASSERT_TRUE(storage->filter_bytes.has_value());
  EXPECT_EQ(*storage->filter_bytes, *memory.filter_bytes);
}
#endif

#ifdef BLOOMTABLE_DB_BENCH_WITH_ROCKSDB
TEST(RocksDBEngine, MultiGetAnswersAsGet) {
  TempDir dir;
  EngineOptions options;
  options.dir = dir.path() + "/rocks";
  options.bloom_bits = 10;
  std::unique_ptr<Engine> engine = NewRocksDBEngine(options);
  ASSERT_TRUE(engine->HasNativeMultiGet());
  KeyGenerator keys(16, 3000);
  ValueGenerator values(100, 0.5, 301);
  FillShuffled(engine.get(), keys, values);
  ExpectMultiGetAnswersAsGet(*engine, keys);
  ExpectPinnedAnswersAsGet(engine.get(), keys, values);
  const MemorySummary memory = engine->Memory();
  EXPECT_TRUE(memory.engine_bytes.has_value());
  ASSERT_TRUE(memory.filter_bytes.has_value());
  EXPECT_GT(*memory.filter_bytes, 0u);
}
#endif

// Looks up `count` absent keys of each kind through one reader and returns
// the counters' change. Every answer must be NotFound.
EngineCounters LookUpAbsentKeys(const Engine& engine, const KeyGenerator& keys,
                                uint64_t count) {
  const EngineCounters before = engine.Counters();
  std::unique_ptr<EngineReader> reader = engine.NewReader();
  std::string value;
  std::string near_miss(keys.key_size(), '?');
  std::string missing(keys.missing_key_size(), '?');
  for (uint64_t i = 0; i < count; ++i) {
    const uint64_t j = (i * 7919) % keys.num();  // shuffled
    keys.NearMissKey(j, near_miss.data());
    EXPECT_TRUE(absl::IsNotFound(reader->Get(near_miss, &value))) << j;
    keys.MissingKey(j, i * 0x9e3779b97f4a7c15ull, missing.data());
    EXPECT_TRUE(absl::IsNotFound(reader->Get(missing, &value))) << j;
  }
  return engine.Counters() - before;
}

// Every present key is found through one reader, with its value.
void ExpectReaderFindsEveryKey(const Engine& engine, const KeyGenerator& keys,
                               const ValueGenerator& values) {
  std::unique_ptr<EngineReader> reader = engine.NewReader();
  std::string value;
  for (uint64_t j = 0; j < keys.num(); ++j) {
    ASSERT_TRUE(reader->Get(keys.PresentKey(j), &value).ok()) << j;
    ASSERT_EQ(value, values.Value(j)) << j;
  }
}

// A store of 3000 shuffled entries in the engine `name`, 10 bits per key, no
// block cache, read with pread or through maps.
struct SmallStore {
  TempDir dir;
  KeyGenerator keys{16, 3000};
  ValueGenerator values{100, 0.5, 301};
  std::unique_ptr<Engine> engine;
};

std::unique_ptr<SmallStore> FillSmallStore(const std::string& name, bool mmap) {
  auto store = std::make_unique<SmallStore>();
  EngineOptions options;
  options.dir = store->dir.path() + "/store";
  options.bloom_bits = 10;
  options.cache_size = 0;
  options.mmap_reads = mmap;
  options.longest_key = store->keys.missing_key_size();
  store->engine = NewEngine(name, options);
  EXPECT_NE(store->engine, nullptr) << name;
  if (store->engine != nullptr) {
    FillShuffled(store->engine.get(), store->keys, store->values);
  }
  return store;
}

#ifdef BLOOMTABLE_DB_BENCH_WITH_ROCKSDB_TABLE_READER
TEST(RocksDBTableEngine, TableReaderGetAsksTheFilterBeforeAnyDataBlock) {
  for (bool mmap : {false, true}) {
    const std::unique_ptr<SmallStore> store =
        FillSmallStore("rocksdb_table", mmap);
    const Engine* engine = store->engine.get();
    const KeyGenerator& keys = store->keys;
    ExpectReaderFindsEveryKey(*engine, keys, store->values);
    const EngineCounters delta = LookUpAbsentKeys(*engine, keys, keys.num());
    ASSERT_TRUE(delta.has_filter_counters);
    // The filter is asked first, for every lookup, and says "absent" for
    // ~99% of them; only a "maybe" reads blocks (no cache).
    EXPECT_EQ(delta.filter_checks, 2 * keys.num()) << "mmap " << mmap;
    const uint64_t maybes = delta.filter_checks - delta.filter_negatives;
    EXPECT_LT(maybes, 2 * keys.num() / 20) << "mmap " << mmap;
    EXPECT_LE(delta.file_reads, 2 * maybes) << "mmap " << mmap;
  }
}
#endif

#ifdef BLOOMTABLE_DB_BENCH_WITH_ROCKSDB
TEST(RocksDBTableEngine, SeekAsksTheWholeKeyFilterOnEitherIoPath) {
  for (bool mmap : {false, true}) {
    const std::unique_ptr<SmallStore> store =
        FillSmallStore("rocksdb_sst_iterator", mmap);
    const Engine* engine = store->engine.get();
    const KeyGenerator& keys = store->keys;
    ExpectReaderFindsEveryKey(*engine, keys, store->values);
    const EngineCounters delta = LookUpAbsentKeys(*engine, keys, keys.num());
    ASSERT_TRUE(delta.has_filter_counters);
    // One filter query per Seek, and the filter answers "absent" for ~99%.
    EXPECT_EQ(delta.filter_checks, 2 * keys.num()) << "mmap " << mmap;
    const uint64_t maybes = delta.filter_checks - delta.filter_negatives;
    EXPECT_LT(maybes, 2 * keys.num() / 20) << "mmap " << mmap;
    // Data blocks are read only on "maybe" (no cache).
    EXPECT_LE(delta.file_reads, 2 * maybes) << "mmap " << mmap;
    absl::StatusOr<StorageSummary> storage = engine->Storage();
    ASSERT_TRUE(storage.ok()) << storage.status();
    EXPECT_EQ(storage->entries, keys.num());
    ASSERT_TRUE(storage->filter_bytes.has_value());
    EXPECT_GT(*storage->filter_bytes, keys.num());  // ~10 bits per key
  }
}
#endif

#ifdef BLOOMTABLE_DB_BENCH_WITH_LEVELDB_TABLE_LOOKUP
TEST(LevelDBTableEngine, TableCacheGetAsksTheFilterBeforeTheDataBlock) {
  for (bool mmap : {false, true}) {
    const std::unique_ptr<SmallStore> store =
        FillSmallStore("leveldb_table", mmap);
    const Engine* engine = store->engine.get();
    const KeyGenerator& keys = store->keys;
    ExpectReaderFindsEveryKey(*engine, keys, store->values);
    const EngineCounters delta = LookUpAbsentKeys(*engine, keys, keys.num());
    ASSERT_TRUE(delta.has_filter_counters);
    // The filter is asked once per lookup whose key the index places in a
    // block (all but keys past the last one: at most the two lookups of
    // the largest j), and says "absent" for ~99% of them.
    EXPECT_LE(delta.filter_checks, 2 * keys.num()) << "mmap " << mmap;
    EXPECT_GE(delta.filter_checks, 2 * keys.num() - 2) << "mmap " << mmap;
    const uint64_t maybes = delta.filter_checks - delta.filter_negatives;
    EXPECT_LT(maybes, 2 * keys.num() / 20) << "mmap " << mmap;
    // Exactly one data-block read per "maybe" (no cache; the table, its
    // index and filter were read when it was first opened).
    EXPECT_EQ(delta.file_reads, maybes) << "mmap " << mmap;
  }
}
#endif

#ifdef BLOOMTABLE_DB_BENCH_WITH_LEVELDB
TEST(LevelDBTableEngine, SeekNeverAsksTheFilterAndReadsABlockPerLookup) {
  for (bool mmap : {false, true}) {
    const std::unique_ptr<SmallStore> store =
        FillSmallStore("leveldb_table_iterator", mmap);
    const Engine* engine = store->engine.get();
    const KeyGenerator& keys = store->keys;
    ExpectReaderFindsEveryKey(*engine, keys, store->values);
    const EngineCounters delta = LookUpAbsentKeys(*engine, keys, keys.num());
    ASSERT_TRUE(delta.has_filter_counters);
    EXPECT_EQ(delta.filter_checks, 0u);
    // Nearly every lookup reads a data block (not when the iterator already
    // holds it: the two lookups of each j, and neighbours by chance).
    EXPECT_GE(delta.file_reads, keys.num() * 9 / 10) << "mmap " << mmap;
    const MemorySummary memory = engine->Memory();
    ASSERT_TRUE(memory.filter_bytes.has_value());
    EXPECT_GT(*memory.filter_bytes, keys.num());  // built and held, not asked
  }
}

TEST(LevelDBEngine, ReadsThroughPreadOrItsOwnMappedFiles) {
  for (bool mmap : {false, true}) {
    const std::unique_ptr<SmallStore> store = FillSmallStore("leveldb", mmap);
    const Engine* engine = store->engine.get();
    const KeyGenerator& keys = store->keys;
    ExpectReaderFindsEveryKey(*engine, keys, store->values);
    const EngineCounters delta = LookUpAbsentKeys(*engine, keys, keys.num());
    EXPECT_GT(delta.filter_negatives, 0u);
    EXPECT_EQ(delta.file_reads, delta.filter_checks - delta.filter_negatives)
        << "mmap " << mmap;
  }
}
#endif

TEST(BloomtableEngine, MappedFilesAnswerAsPreadFiles) {
  TempDir dir;
  EngineOptions options;
  options.dir = dir.path() + "/bt";
  options.cache_size = 0;
  options.bloomtable_policy = NewCacheLocalBloomFilterPolicy(10);
  KeyGenerator keys(16, 3000);
  ValueGenerator values(100, 0.5, 301);
  std::unique_ptr<Engine> writer = NewBloomtableEngine(options);
  FillShuffled(writer.get(), keys, values);
  options.mmap_reads = true;
  std::unique_ptr<Engine> mapped = NewBloomtableEngine(options);
  ASSERT_TRUE(mapped->OpenExisting().ok());
  ExpectReaderFindsEveryKey(*mapped, keys, values);
  const EngineCounters pread_delta = LookUpAbsentKeys(*writer, keys, 1000);
  const EngineCounters mapped_delta = LookUpAbsentKeys(*mapped, keys, 1000);
  EXPECT_EQ(mapped_delta.filter_negatives, pread_delta.filter_negatives);
  EXPECT_EQ(mapped_delta.file_reads, pread_delta.file_reads);
}

TEST(Repeats, EachRunStartsWithADifferentStoreGroup) {
  EXPECT_EQ(RotatedOrder(3, 0, 3), (std::vector<size_t>{0, 1, 2}));
  EXPECT_EQ(RotatedOrder(3, 1, 3), (std::vector<size_t>{1, 2, 0}));
  EXPECT_EQ(RotatedOrder(3, 2, 3), (std::vector<size_t>{2, 0, 1}));
  EXPECT_EQ(RotatedOrder(10, 1, 3).front(), 3u);
  EXPECT_EQ(RotatedOrder(10, 2, 3).front(), 6u);
  EXPECT_EQ(RotatedOrder(2, 0, 1), (std::vector<size_t>{0, 1}));
}

TEST(Repeats, MedianOfOddAndEvenCountsLeavesNaNOut) {
  EXPECT_DOUBLE_EQ(Median({3, 1, 2}), 2);
  EXPECT_DOUBLE_EQ(Median({4, 1, 2, 3}), 2.5);
  EXPECT_DOUBLE_EQ(Median({5, std::nan(""), 1, 3}), 3);
  EXPECT_TRUE(std::isnan(Median({})));
}

TEST(Repeats, MergedFiguresAreMediansAndCountsComeFromTheMedianRun) {
  std::vector<std::vector<ConfigReport>> runs;
  for (double micros : {3.0, 1.0, 2.0}) {
    ConfigReport config;
    config.engine = "bloomtable";
    BenchmarkResult result;
    result.kind = BenchmarkKind::kReadMissing;
    result.micros_per_op = micros;
    result.p99_micros = 10 * micros;
    result.ops = static_cast<uint64_t>(micros * 100);  // marks the run
    config.results.push_back(result);
    runs.push_back({config});
  }
  runs[0][0].error = "failed once";
  const std::vector<ConfigReport> merged = MergeRuns(runs);
  ASSERT_EQ(merged.size(), 1u);
  const BenchmarkResult& result = merged[0].results[0];
  EXPECT_DOUBLE_EQ(result.micros_per_op, 2);
  EXPECT_DOUBLE_EQ(result.p99_micros, 20);
  EXPECT_EQ(result.ops, 200u);  // the run with the median micros/op
  ASSERT_EQ(result.runs.size(), 3u);
  EXPECT_DOUBLE_EQ(result.runs[0].micros_per_op, 3);
  EXPECT_EQ(merged[0].error, "failed once");
  const nlohmann::json json = ReportJson({}, {}, merged);
  const nlohmann::json& range = json["configs"][0]["results"][0]["range"];
  EXPECT_DOUBLE_EQ(range["micros_per_op"][0].get<double>(), 1);
  EXPECT_DOUBLE_EQ(range["micros_per_op"][1].get<double>(), 3);
  EXPECT_NE(ComparisonTable(merged).find("1.000-3.000"), std::string::npos);
}

// Table::Open's time is merged like a timing: the median of the runs that
// measured it, with the fastest and slowest, whichever run stands for the
// counts.
TEST(Repeats, OpenTimeIsTheMedianOfTheRunsWithItsRange) {
  std::vector<std::vector<ConfigReport>> runs;
  for (const auto& [micros, open] :
       {std::pair{3.0, 40.0}, std::pair{1.0, 10.0}, std::pair{2.0, 90.0}}) {
    ConfigReport config;
    config.engine = "bloomtable";
    BenchmarkResult result;
    result.kind = BenchmarkKind::kReadMissing;
    result.micros_per_op = micros;
    result.memory = MemorySummary();
    result.memory->open_micros = open;
    config.results.push_back(result);
    runs.push_back({config});
  }
  const std::vector<ConfigReport> merged = MergeRuns(runs);
  const MemorySummary& memory = *merged[0].results[0].memory;
  ASSERT_TRUE(memory.open_micros && memory.open_micros_range);
  EXPECT_DOUBLE_EQ(*memory.open_micros, 40);
  EXPECT_DOUBLE_EQ(memory.open_micros_range->first, 10);
  EXPECT_DOUBLE_EQ(memory.open_micros_range->second, 90);
  const nlohmann::json json = ReportJson({}, {}, merged);
  const nlohmann::json& out = json["configs"][0]["results"][0]["memory"];
  EXPECT_DOUBLE_EQ(out["open_micros"].get<double>(), 40);
  EXPECT_DOUBLE_EQ(out["open_micros_range"][1].get<double>(), 90);
}

TEST(Machine, ForeignLoadIsOtherBusyTimePlusStealPerWallSecond) {
  CpuSnapshot start;
  start.busy_seconds = 100;
  start.steal_seconds = 10;
  start.total_seconds = 1000;
  start.self_seconds = 5;
  CpuSnapshot end = start;
  end.wall = start.wall + std::chrono::seconds(10);
  end.busy_seconds = 112;    // 12 CPU-seconds busy,
  end.self_seconds = 15;     // 10 of them ours,
  end.steal_seconds = 11;    // and 1 stolen
  end.total_seconds = 1020;  // 2 CPUs for 10 seconds
  const ForeignLoad load = ForeignLoadBetween(start, end);
  ASSERT_TRUE(load.cpus && load.steal_fraction);
  EXPECT_NEAR(*load.cpus, 0.3, 1e-9);
  EXPECT_NEAR(*load.steal_fraction, 0.05, 1e-9);
  EXPECT_TRUE(TooBusy(load, 0.25));
  EXPECT_FALSE(TooBusy(load, 0.5));
  EXPECT_FALSE(TooBusy(load, -1));          // never rejected
  EXPECT_FALSE(TooBusy(ForeignLoad(), 0));  // unknown: not rejected
}

TEST(Machine, SnapshotsOfThisMachineAreReadable) {
  const CpuSnapshot snapshot = TakeCpuSnapshot();
  // Linux always has /proc/stat and /proc/loadavg.
  ASSERT_TRUE(snapshot.busy_seconds.has_value());
  EXPECT_GT(*snapshot.total_seconds, 0);
  EXPECT_TRUE(snapshot.load_average.has_value());
  EXPECT_GT(MachineJson()["cpus"].get<int>(), 0);
}

TEST(FilterBudget, FindsTheBitsPerKeyThatStoreTheTarget) {
  int calls = 0;
  // An affine filter: 1.13 bits stored per bit asked, plus 0.8.
  auto affine = [&calls](double bits) -> absl::StatusOr<double> {
    ++calls;
    return 1.13 * bits + 0.8;
  };
  absl::StatusOr<BitsForBudget> found =
      FindBitsForStoredBudget(10, /*whole_bits=*/false, affine);
  ASSERT_TRUE(found.ok()) << found.status();
  EXPECT_NEAR(found->stored_bits_per_key, 10, 0.02);
  EXPECT_NEAR(found->bits_per_key, 9.2 / 1.13, 0.01);
  EXPECT_LE(calls, 12);
}

TEST(FilterBudget, WholeBitsTakeTheNearestWholeSetting) {
  // 10.3 at 9 is nearer 10 than 9.3 at 8.
  auto stored = [](double bits) -> absl::StatusOr<double> {
    EXPECT_EQ(bits, std::round(bits));
    return bits + 1.3;
  };
  absl::StatusOr<BitsForBudget> found =
      FindBitsForStoredBudget(10, /*whole_bits=*/true, stored);
  ASSERT_TRUE(found.ok()) << found.status();
  EXPECT_EQ(found->bits_per_key, 9);
  EXPECT_DOUBLE_EQ(found->stored_bits_per_key, 10.3);
}

#ifdef BLOOMTABLE_DB_BENCH_WITH_LEVELDB
TEST(FilterBudget, TheAdaptedFilterIsCalibratedInLevelDBsTables) {
  TempDir dir;
  PlanFlags flags = DefaultFlags();
  flags.num = 20000;
  flags.engines = "leveldb,leveldb+bloomtable";
  flags.bloom_bits = "";
  flags.stored_bits = "10";
  absl::StatusOr<BenchPlan> plan = MakePlan(flags);
  ASSERT_TRUE(plan.ok()) << plan.status();
  ASSERT_TRUE(
      CalibrateStoredBits(plan->flags, dir.path() + "/calibration", &*plan)
          .ok());
  const KeyGenerator keys(16, 20000);
  const ValueGenerator values(100, 0.5, 301);
  std::vector<uint64_t> order(keys.num());
  for (uint64_t j = 0; j < keys.num(); ++j) order[j] = j;
  std::map<std::string, double> stored;
  for (const ConfigPlan& config : plan->configs) {
    if (config.filter == "none") continue;
    EngineOptions options = config.engine_options;
    options.dir = dir.path() + "/" + config.dir_name;
    // LevelDB's own tables, with the configuration's filter.
    std::unique_ptr<Engine> table =
        NewEngine("leveldb_table_iterator", options);
    Progress progress("test", keys.num());
    ASSERT_TRUE(table->Fill(FillInput{&keys, &values, order}, &progress).ok());
    absl::StatusOr<StorageSummary> storage = table->Storage();
    ASSERT_TRUE(storage.ok()) << storage.status();
    stored[config.engine] = *storage->filter_bytes * 8.0 / keys.num();
  }
  // bloomtable's policy through the adapter takes fractional bits: it meets
  // the target; LevelDB's Bloom takes whole bits, the nearest setting.
  EXPECT_NEAR(stored["leveldb+bloomtable"], 10, 0.1);
  EXPECT_NEAR(stored["leveldb"], 10, 0.7);
}
#endif

TEST(FilterBudget, StepsAndErrorsAreHandled) {
  // A filter sized in steps of 2 bits per key: the nearest step wins.
  auto steps = [](double bits) -> absl::StatusOr<double> {
    return 2 * std::ceil(bits / 2);
  };
  absl::StatusOr<BitsForBudget> found =
      FindBitsForStoredBudget(7, false, steps);
  ASSERT_TRUE(found.ok()) << found.status();
  EXPECT_TRUE(found->stored_bits_per_key == 6 ||
              found->stored_bits_per_key == 8);
  auto failing = [](double) -> absl::StatusOr<double> {
    return absl::DataLossError("disk");
  };
  EXPECT_TRUE(
      absl::IsDataLoss(FindBitsForStoredBudget(7, false, failing).status()));
}

TEST(Report, ThreadsGetAColumnAndMemoryIsPerKey) {
  ConfigReport config;
  config.engine = "bloomtable";
  config.filter = "none";
  config.keys_written = 100;
  BenchmarkResult result;
  result.kind = BenchmarkKind::kReadRandom;
  result.threads = 2;
  result.ops = 200;
  result.found = result.ops;
  result.ops_per_second = 1800;
  result.memory = MemorySummary();
  result.memory->index_bytes = 50;
  config.results.push_back(result);
  EXPECT_NE(ComparisonTable({config}).find("threads"), std::string::npos);
  const nlohmann::json json = ReportJson({}, {}, {config});
  EXPECT_EQ(json["configs"][0]["results"][0]["threads"], 2);
  EXPECT_DOUBLE_EQ(
      json["configs"][0]["memory"]["index_bytes_per_key"].get<double>(), 0.5);
  EXPECT_TRUE(json["configs"][0]["memory"]["filter_bytes"].is_null());
  config.results[0].threads = 1;
  EXPECT_EQ(ComparisonTable({config}).find("threads"), std::string::npos);
}

TEST(Report, CacheSizeLabelsUseTheLargestWholeUnit) {
  EXPECT_EQ(CacheSizeLabel(8 << 20), "8M");
  EXPECT_EQ(CacheSizeLabel(uint64_t{1} << 30), "1G");
  EXPECT_EQ(CacheSizeLabel(1536), "1536");
  EXPECT_EQ(CacheSizeLabel(32 << 10), "32K");
  EXPECT_EQ(CacheSizeLabel(0), "0");
}

}  // namespace
}  // namespace db_bench
}  // namespace bloomtable
