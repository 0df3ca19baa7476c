// Tests of db_bench's read-only database rows: bloomtable_db and leveldb_dir
// on copies of one LevelDB-written directory, and rocksdb_readonly. Each
// engine must answer exactly as the data written says: present keys with
// their values (those still in the live log among them), absent keys
// NotFound, a full scan in order with every entry.

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "absl/strings/str_cat.h"
#include "bloomtable/database.h"
#include "bloomtable/filter_policy.h"
#include "db_bench/bench_plan.h"
#include "db_bench/directory.h"
#include "db_bench/engine.h"
#include "db_bench/key_generator.h"
#include "db_bench/leveldb_dir_source.h"
#ifdef BLOOMTABLE_DB_BENCH_WITH_LEVELDB
#include "db_bench/leveldb_env.h"
#endif
#include "db_bench/value_generator.h"
#include "gtest/gtest.h"

namespace bloomtable {
namespace db_bench {
namespace {

class TempDir {
 public:
  TempDir() : path_(*MakeTempDirectory("db_engines_test-")) {}
  ~TempDir() { RemoveDirectory(path_).IgnoreError(); }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// Enough entries for several memtable flushes (SourceWriteBufferSize) and a
// partly full memtable left in the live log.
constexpr uint64_t kNum = 6000;

struct TestData {
  KeyGenerator keys{16, kNum};
  ValueGenerator values{100, 0.5, 301};
  std::vector<uint64_t> order;

  TestData() {
    for (uint64_t j = 0; j < kNum; ++j) order.push_back((j * 7919) % kNum);
  }
  FillInput Input() const { return FillInput{&keys, &values, order}; }
};

EngineOptions OptionsFor(const std::string& dir) {
  EngineOptions options;
  options.dir = dir;
  options.bloom_bits = 10;
  options.cache_size = 0;  // every data block from the file
  return options;
}

std::string ReadWholeFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// The files of `dir` by name with their contents, db_bench's own left out.
std::map<std::string, std::string> DirectoryContents(const std::string& dir) {
  std::map<std::string, std::string> contents;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("db_bench_", 0) == 0) continue;
    contents[name] = ReadWholeFile(entry.path());
  }
  return contents;
}

// MultiGet in batches of 32 (present keys, those in the live log among
// them, interleaved with near-miss and missing keys, one key repeated):
// each present key with its value, the others NotFound.
void ExpectMultiGetAnswersAsWritten(const Engine& engine,
                                    const TestData& data) {
  std::vector<std::string> owned;
  std::vector<int64_t> index;  // the key's j, or -1 for an absent key
  for (uint64_t j = 0; j < kNum; ++j) {
    owned.push_back(data.keys.PresentKey(j));
    index.push_back(static_cast<int64_t>(j));
    if (j % 3 == 0) {
      std::string near_miss(16, '?');
      data.keys.NearMissKey(j, near_miss.data());
      owned.push_back(near_miss);
      index.push_back(-1);
    }
    if (j % 5 == 0) {
      std::string missing(data.keys.missing_key_size(), '?');
      data.keys.MissingKey(j, j * 0x9e3779b97f4a7c15ULL, missing.data());
      owned.push_back(missing);
      index.push_back(-1);
    }
    if (j % 31 == 0) {
      owned.push_back(data.keys.PresentKey(j / 2));
      index.push_back(static_cast<int64_t>(j / 2));
    }
  }
  std::vector<absl::Status> statuses;
  std::vector<std::string> values;
  for (size_t begin = 0; begin < owned.size(); begin += 32) {
    const size_t end = std::min(owned.size(), begin + 32);
    const std::vector<std::string_view> batch(owned.begin() + begin,
                                              owned.begin() + end);
    engine.MultiGet(batch, &statuses, &values);
    ASSERT_EQ(statuses.size(), batch.size());
    ASSERT_EQ(values.size(), batch.size());
    for (size_t i = 0; i < batch.size(); ++i) {
      const int64_t j = index[begin + i];
      if (j < 0) {
        ASSERT_TRUE(absl::IsNotFound(statuses[i])) << batch[i];
      } else {
        ASSERT_TRUE(statuses[i].ok()) << batch[i] << ": " << statuses[i];
        ASSERT_EQ(values[i], data.values.Value(static_cast<uint64_t>(j)))
            << batch[i];
      }
    }
  }
}

// Every present key with its value, near-miss and missing keys NotFound,
// through Get and MultiGet, and a full scan in key order yielding every
// entry once.
// An engine with a zero-copy Get answers through it as written; one
// without says Unimplemented.
void ExpectPinnedAnswersAsWritten(const Engine& engine, const TestData& data) {
  std::unique_ptr<EngineReader> reader = engine.NewReader();
  std::string_view value;
  if (!engine.HasPinnedGet()) {
    EXPECT_TRUE(absl::IsUnimplemented(
        reader->GetPinned(data.keys.PresentKey(0), &value)));
    return;
  }
  std::string near_miss(16, '?');
  for (uint64_t j = 0; j < kNum; ++j) {
    const std::string key = data.keys.PresentKey(j);
    const absl::Status status = reader->GetPinned(key, &value);
    ASSERT_TRUE(status.ok()) << key << ": " << status;
    ASSERT_EQ(value, data.values.Value(j)) << key;
    data.keys.NearMissKey(j, near_miss.data());
    ASSERT_TRUE(absl::IsNotFound(reader->GetPinned(near_miss, &value)));
  }
}

void ExpectAnswersAsWritten(const Engine& engine, const TestData& data) {
  SCOPED_TRACE(engine.name());
  ExpectMultiGetAnswersAsWritten(engine, data);
  ExpectPinnedAnswersAsWritten(engine, data);
  std::string value;
  std::string near_miss(16, '?');
  std::string missing(data.keys.missing_key_size(), '?');
  for (uint64_t j = 0; j < kNum; ++j) {
    const std::string key = data.keys.PresentKey(j);
    absl::Status status = engine.Get(key, &value);
    ASSERT_TRUE(status.ok()) << key << ": " << status;
    ASSERT_EQ(value, data.values.Value(j)) << key;
    data.keys.NearMissKey(j, near_miss.data());
    ASSERT_TRUE(absl::IsNotFound(engine.Get(near_miss, &value))) << near_miss;
    data.keys.MissingKey(j, j * 0x9e3779b97f4a7c15ULL, missing.data());
    ASSERT_TRUE(absl::IsNotFound(engine.Get(missing, &value))) << missing;
  }
  std::unique_ptr<EngineIterator> it = engine.NewIterator();
  uint64_t j = 0;
  for (it->SeekToFirst(); it->Valid(); it->Next(), ++j) {
    ASSERT_LT(j, kNum);
    ASSERT_EQ(it->key(), data.keys.PresentKey(j));
    ASSERT_EQ(it->value(), data.values.Value(j));
  }
  EXPECT_TRUE(it->status().ok()) << it->status();
  EXPECT_EQ(j, kNum);
  // A seek lands on the first key at or after its target.
  it->Seek(near_miss);
  ASSERT_FALSE(it->Valid());  // past the last key
  data.keys.NearMissKey(kNum / 2, near_miss.data());
  it->Seek(near_miss);
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ(it->key(), data.keys.PresentKey(kNum / 2 + 1));
}

#ifdef BLOOMTABLE_DB_BENCH_WITH_LEVELDB
TEST(LevelDBSource, CopiesAreByteIdenticalToTheSourceWrittenOnce) {
  TempDir dir;
  const TestData data;
  const EngineOptions a = OptionsFor(dir.path() + "/a");
  const EngineOptions b = OptionsFor(dir.path() + "/b");
  const std::string source = LevelDBSourceDirectory(a, data.Input());
  EXPECT_EQ(source, LevelDBSourceDirectory(b, data.Input()));
  Progress progress("test", kNum);
  ASSERT_TRUE(FillFromLevelDBSource(a, data.Input(), &progress).ok());
  const auto written = std::filesystem::last_write_time(source + "/CURRENT");
  ASSERT_TRUE(FillFromLevelDBSource(b, data.Input(), &progress).ok());
  // The second fill copied the source rather than writing it again.
  EXPECT_EQ(std::filesystem::last_write_time(source + "/CURRENT"), written);
  const std::map<std::string, std::string> expected = DirectoryContents(source);
  EXPECT_EQ(DirectoryContents(a.dir), expected);
  EXPECT_EQ(DirectoryContents(b.dir), expected);

  // LevelDB left tables and a live log that holds the last writes: every
  // entry is in one or the other.
  absl::StatusOr<std::unique_ptr<Database>> db = Database::OpenReadOnly(source);
  ASSERT_TRUE(db.ok()) << db.status();
  EXPECT_FALSE((*db)->tables().empty());
  uint64_t log_records = 0;
  for (const DatabaseLogFile& log : (*db)->logs()) log_records += log.records;
  EXPECT_GT(log_records, 0u);
  EXPECT_LT(log_records, kNum);

  // Another writer's filter has its own source; the reading engine's own
  // filter does not change what the writer wrote.
  EngineOptions other = a;
  other.leveldb_source_bloom_bits = 8;
  EXPECT_NE(LevelDBSourceDirectory(other, data.Input()), source);
  EngineOptions reader = a;
  reader.bloom_bits = 7;
  EXPECT_EQ(LevelDBSourceDirectory(reader, data.Input()), source);
}

TEST(LevelDBSource, CompactedSourceHasOneLevelAndAnEmptyLog) {
  TempDir dir;
  const TestData data;
  EngineOptions options = OptionsFor(dir.path() + "/a");
  options.leveldb_source_compacted = true;
  Progress progress("test", kNum);
  ASSERT_TRUE(FillFromLevelDBSource(options, data.Input(), &progress).ok());
  absl::StatusOr<std::unique_ptr<Database>> db =
      Database::OpenReadOnly(LevelDBSourceDirectory(options, data.Input()));
  ASSERT_TRUE(db.ok()) << db.status();
  ASSERT_FALSE((*db)->tables().empty());
  std::set<int> levels;
  for (const DatabaseTableFile& file : (*db)->tables()) {
    levels.insert(file.level);
  }
  EXPECT_EQ(levels.size(), 1u);
  EXPECT_NE(*levels.begin(), 0);
  for (const DatabaseLogFile& log : (*db)->logs()) {
    EXPECT_EQ(log.records, 0u) << log.name;
  }
}

TEST(LevelDBTables, ParsedFromThePropertyAndJudgedAsLevelDBJudgesThem) {
  const std::string text =
      "--- level 0 ---\n 12:1000['a' @ 5 : 1 .. 'b' @ 6 : 1]\n"
      " 13:2000['c' @ 7 : 1 .. 'd' @ 8 : 1]\n"
      "--- level 1 ---\n 9:10485760['a' @ 1 : 1 .. 'z' @ 2 : 1]\n"
      "--- level 2 ---\n--- level 3 ---\n--- level 4 ---\n"
      "--- level 5 ---\n--- level 6 ---\n";
  LevelDBTables tables = ParseLevelDBTables(text);
  EXPECT_EQ(tables.numbers[0], (std::vector<uint64_t>{12, 13}));
  EXPECT_EQ(tables.bytes[0], 3000u);
  EXPECT_EQ(tables.numbers[1], (std::vector<uint64_t>{9}));
  EXPECT_EQ(tables.bytes[1], 10485760u);
  // Two level-0 files and exactly 10 MiB in level 1: nothing to compact.
  EXPECT_FALSE(LevelDBNeedsSizeCompaction(tables));
  tables.bytes[1] += 1;
  EXPECT_TRUE(LevelDBNeedsSizeCompaction(tables));
  tables.bytes[1] -= 1;
  tables.numbers[0] = {1, 2, 3, 4};
  EXPECT_TRUE(LevelDBNeedsSizeCompaction(tables));
  tables.numbers[0] = {1, 2, 3};
  tables.bytes[5] = 1000000000000u;  // level 5: 10^5 MiB at most
  EXPECT_TRUE(LevelDBNeedsSizeCompaction(tables));
  tables.bytes[5] = 0;
  tables.bytes[6] = 1000000000000u;  // the last level is never compacted
  EXPECT_FALSE(LevelDBNeedsSizeCompaction(tables));
}

TEST(LevelDBDirectoryEngines, SidecarViewAnswersAsWrittenThroughItsSidecars) {
  TempDir dir;
  const TestData data;
  Progress progress("test", kNum);
  EngineOptions options = OptionsFor(dir.path() + "/sidecars");
  options.bloomtable_policy = NewRibbonFilterPolicy(10);
  std::unique_ptr<Engine> view = NewBloomtableDbSidecarEngine(options);
  EXPECT_EQ(view->name(), "bloomtable_db+sidecars");
  ASSERT_TRUE(view->Fill(data.Input(), &progress).ok());

  // The build after the fill, on 1 and 2 threads, filtered every key the
  // tables hold.
  const MemorySummary built = view->Memory();
  ASSERT_TRUE(built.sidecar_keys && built.sidecar_bytes);
  EXPECT_GT(*built.sidecar_keys, 0u);
  EXPECT_LE(*built.sidecar_keys, kNum);
  ASSERT_TRUE(built.sidecar_build_micros_1_thread &&
              built.sidecar_build_micros_2_threads);
  EXPECT_GT(*built.sidecar_build_micros_1_thread, 0);
  EXPECT_GT(*built.sidecar_build_micros_2_threads, 0);
  // The scratch directory of the 2-thread build is gone.
  EXPECT_FALSE(std::filesystem::exists(options.dir + ".sidecars-2-threads"));

  // Every table of the copy has its sidecar in use; the filter held is the
  // sidecars', the stored one their files.
  DatabaseOptions check_options;
  check_options.filters_dir = options.dir + ".sidecars";
  absl::StatusOr<std::unique_ptr<Database>> db =
      Database::OpenReadOnly(options.dir, check_options);
  ASSERT_TRUE(db.ok()) << db.status();
  EXPECT_EQ((*db)->GetStats().sidecar_tables, (*db)->tables().size());
  absl::StatusOr<StorageSummary> storage = view->Storage();
  ASSERT_TRUE(storage.ok()) << storage.status();
  ASSERT_TRUE(storage->filter_bytes.has_value());
  EXPECT_EQ(*storage->filter_bytes, *built.sidecar_bytes);
  ASSERT_TRUE(built.filter_bytes.has_value());
  EXPECT_EQ(*built.filter_bytes, (*db)->GetStats().sidecar_memory_bytes);

  ExpectAnswersAsWritten(*view, data);
  // Absent keys were answered by the sidecars' filters.
  const EngineCounters counters = view->Counters();
  ASSERT_TRUE(counters.has_filter_counters);
  EXPECT_GT(counters.filter_negatives, counters.filter_checks / 2);

  // Reopened on a fresh copy, the sidecars stay bound and are used.
  std::unique_ptr<Engine> reopened = NewBloomtableDbSidecarEngine(options);
  ASSERT_TRUE(reopened->OpenExisting().ok());
  ExpectAnswersAsWritten(*reopened, data);
  EXPECT_GT(reopened->Counters().filter_negatives, 0u);
}

TEST(LevelDBDirectoryEngines, AnswerAsWrittenIncludingTheLiveLogsKeys) {
  TempDir dir;
  const TestData data;
  Progress progress("test", kNum);
  const EngineOptions view_options = OptionsFor(dir.path() + "/view");
  std::unique_ptr<Engine> view = NewBloomtableDbEngine(view_options);
  EXPECT_EQ(view->name(), "bloomtable_db");
  EXPECT_TRUE(view->HasNativeMultiGet());  // Database::MultiGet
  EXPECT_TRUE(view->HasPinnedGet());       // Database::Get, PinnedValue
  ASSERT_TRUE(view->Fill(data.Input(), &progress).ok());

  // Opening the view read nothing of the tables.
  const MemorySummary opened = view->Memory();
  ASSERT_TRUE(opened.open_file_reads.has_value());
  EXPECT_EQ(*opened.open_file_reads, 0u);
  ASSERT_TRUE(opened.open_data_block_reads.has_value());
  EXPECT_EQ(*opened.open_data_block_reads, 0u);
  EXPECT_EQ(view->Counters().file_reads, 0u);

  // The view's shape names the levels and the live log, and matches the
  // source's version file for file.
  absl::StatusOr<StorageSummary> storage = view->Storage();
  ASSERT_TRUE(storage.ok()) << storage.status();
  EXPECT_NE(storage->shape.find("L"), std::string::npos) << storage->shape;
  EXPECT_NE(storage->shape.find("log: "), std::string::npos) << storage->shape;
  const std::string source = LevelDBSourceDirectory(view_options, data.Input());
  absl::StatusOr<std::unique_ptr<Database>> source_db =
      Database::OpenReadOnly(source);
  ASSERT_TRUE(source_db.ok()) << source_db.status();
  EXPECT_EQ(storage->table_files, (*source_db)->tables().size());

  // Keys whose newest version is only in the live log.
  std::set<std::string> log_keys;
  ASSERT_TRUE((*source_db)
                  ->ListVersions({},
                                 [&log_keys](const VersionRecord& record) {
                                   if (record.file.size() > 4 &&
                                       record.file.substr(record.file.size() -
                                                          4) == ".log") {
                                     log_keys.insert(record.user_key);
                                   }
                                   return true;
                                 })
                  .ok());
  ASSERT_FALSE(log_keys.empty());

  ExpectAnswersAsWritten(*view, data);
  // Lookups read the tables through the counting files and asked the
  // per-block filters (absent keys, mostly answered "absent").
  const EngineCounters counters = view->Counters();
  EXPECT_GT(counters.file_reads, 0u);
  ASSERT_TRUE(counters.has_filter_counters);
  EXPECT_GT(counters.filter_checks, 0u);
  EXPECT_GT(counters.filter_negatives, counters.filter_checks / 2);

  // leveldb::DB on its own copy of the same directory, pread and mmap.
  for (bool mmap : {false, true}) {
    EngineOptions options = OptionsFor(dir.path() + "/leveldb");
    options.mmap_reads = mmap;
    std::unique_ptr<Engine> leveldb = NewLevelDBDirEngine(options);
    EXPECT_EQ(leveldb->name(), "leveldb_dir");
    EXPECT_FALSE(leveldb->HasNativeMultiGet());  // LevelDB has none: a loop
    EXPECT_FALSE(leveldb->HasPinnedGet());       // nor a zero-copy Get
    ASSERT_TRUE((mmap ? leveldb->OpenExisting()
                      : leveldb->Fill(data.Input(), &progress))
                    .ok());
    ExpectAnswersAsWritten(*leveldb, data);
  }

  // The view reading mapped files answers the same, from a fresh copy.
  EngineOptions mapped_options = view_options;
  mapped_options.mmap_reads = true;
  std::unique_ptr<Engine> mapped = NewBloomtableDbEngine(mapped_options);
  ASSERT_TRUE(mapped->OpenExisting().ok());
  ExpectAnswersAsWritten(*mapped, data);
  EXPECT_GT(mapped->Counters().file_reads, 0u);
}

TEST(LevelDBDirectoryEngines, ViewKeepsAnUnchangedCopyAndRecopiesAChangedOne) {
  TempDir dir;
  const TestData data;
  Progress progress("test", kNum);
  const EngineOptions options = OptionsFor(dir.path() + "/view");
  ASSERT_TRUE(
      NewBloomtableDbEngine(options)->Fill(data.Input(), &progress).ok());
  const std::string current = options.dir + "/CURRENT";
  // Marked: a copy made again would not carry the mark.
  const auto marked =
      std::filesystem::file_time_type::clock::now() - std::chrono::hours(24);
  std::filesystem::last_write_time(current, marked);
  std::unique_ptr<Engine> reopened = NewBloomtableDbEngine(options);
  ASSERT_TRUE(reopened->OpenExisting().ok());
  EXPECT_EQ(std::filesystem::last_write_time(current), marked);
  ExpectAnswersAsWritten(*reopened, data);
  reopened.reset();

  // A copy missing a file, or holding one more, is copied again.
  std::filesystem::remove(current);
  { std::ofstream(options.dir + "/stray") << "x"; }
  reopened = NewBloomtableDbEngine(options);
  ASSERT_TRUE(reopened->OpenExisting().ok());
  EXPECT_TRUE(std::filesystem::exists(current));
  EXPECT_FALSE(std::filesystem::exists(options.dir + "/stray"));
  ExpectAnswersAsWritten(*reopened, data);
}

TEST(LevelDBDirectoryEngines, OpenExistingWithoutAFillIsNotFound) {
  TempDir dir;
  std::unique_ptr<Engine> view =
      NewBloomtableDbEngine(OptionsFor(dir.path() + "/never"));
  EXPECT_TRUE(absl::IsNotFound(view->OpenExisting()));
}
#endif

#ifdef BLOOMTABLE_DB_BENCH_WITH_ROCKSDB
TEST(RocksDBReadOnlyEngine, AnswersAsWritten) {
  TempDir dir;
  const TestData data;
  Progress progress("test", kNum);
  for (bool mmap : {false, true}) {
    EngineOptions options = OptionsFor(dir.path() + "/rocks");
    options.mmap_reads = mmap;
    std::unique_ptr<Engine> engine = NewRocksDBReadOnlyEngine(options);
    EXPECT_EQ(engine->name(), "rocksdb_readonly");
    EXPECT_TRUE(engine->HasNativeMultiGet());  // DB::MultiGet
    EXPECT_TRUE(engine->HasPinnedGet());       // DB::Get, PinnableSlice
    ASSERT_TRUE(
        (mmap ? engine->OpenExisting() : engine->Fill(data.Input(), &progress))
            .ok());
    ExpectAnswersAsWritten(*engine, data);
    absl::StatusOr<StorageSummary> storage = engine->Storage();
    ASSERT_TRUE(storage.ok()) << storage.status();
    EXPECT_EQ(storage->entries, kNum);
  }
}
#endif

#if defined(BLOOMTABLE_DB_BENCH_WITH_LEVELDB) && \
    defined(BLOOMTABLE_DB_BENCH_WITH_ROCKSDB)
TEST(BenchPlan, ReadOnlyRowsUseLevelDBsBloomAndRocksDBsBloom) {
  PlanFlags flags;
  flags.benchmarks = "fillrandom,readrandom";
  flags.num = 1000;
  flags.compression_type = "snappy";
  flags.bloom_bits = "10";
  flags.filter = "cache_local_bloom";
  flags.filter_layout = "auto";
  flags.cache_size = "8388608";
  flags.threads = 1;
  flags.compare_no_filter = false;
  flags.filter = "ribbon";
  flags.filter_layout = "whole_table";
  flags.stored_bits = "9";
  flags.leveldb_source_bloom_bits = 12;
  flags.engines =
      "bloomtable_db,bloomtable_db+sidecars,leveldb_dir,rocksdb_readonly";
  absl::StatusOr<BenchPlan> plan = MakePlan(flags);
  ASSERT_TRUE(plan.ok()) << plan.status();
  std::vector<std::string> rows;
  for (const ConfigPlan& config : plan->configs) {
    rows.push_back(absl::StrCat(
        config.level, " ", config.engine, " ", config.filter, " ",
        config.target_stored_bits, " ", config.engine_options.bloom_bits, " ",
        config.engine_options.leveldb_source_bloom_bits));
  }
  // The directory's readers take its writer's Bloom (12 bits per key, not
  // calibrated); the sidecars and RocksDB's filters are calibrated to the
  // stored budget (their bits per key until calibration: the target).
  EXPECT_EQ(rows, (std::vector<std::string>{
                      "db bloomtable_db leveldb_bloom 0 12 12",
                      "db bloomtable_db+sidecars ribbon 9 9 12",
                      "db leveldb_dir leveldb_bloom 0 12 12",
                      "db rocksdb_readonly rocksdb_bloom 9 9 12",
                      "db rocksdb_readonly rocksdb_ribbon 9 9 12"}));
  // LevelDB's Bloom takes whole bits where it is built; the directory's
  // readers do not build it.
  flags.stored_bits = "";
  flags.bloom_bits = "9.5";
  flags.engines = "bloomtable_db";
  EXPECT_TRUE(MakePlan(flags).ok());
  flags.engines = "leveldb";
  EXPECT_TRUE(absl::IsInvalidArgument(MakePlan(flags).status()));
}
#endif

}  // namespace
}  // namespace db_bench
}  // namespace bloomtable
