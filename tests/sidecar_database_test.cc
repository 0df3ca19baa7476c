// Sidecar filters on a database (bloomtable/sidecar.h, db/sidecar_*.cc): a
// database written by this project's own writers (tests/test_database_writer.h)
// gets one sidecar per table; the view asks them before its tables, opens
// covered tables without their own filter, leaves out of a bounded scan the
// tables they rule out, and ignores (with a warning) every sidecar that is
// missing, stale, damaged or foreign. Builds are incremental, list and
// prune the sidecars of tables that are gone, and may run at once into one
// directory. Every answer is checked against the view without sidecars and
// against the model the database was written from.

#include <atomic>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "bloomtable/database.h"
#include "bloomtable/durable_file.h"
#include "bloomtable/file.h"
#include "bloomtable/sidecar.h"
#include "db/sidecar_format.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/temp_dir.h"
#include "tests/test_database_writer.h"

namespace bloomtable {
namespace {

using test_db::TableBytes;
using test_db::TestDatabaseWriter;
using test_db::TestVersion;
using ::testing::HasSubstr;

std::string Key(int i) { return absl::StrFormat("key%05d", i); }

constexpr int kKeySpace = 1200;

// The model: the newest version of every key the layout writes.
struct Layout {
  std::map<std::string, std::string> live;  // deleted keys left out
  std::vector<uint64_t> numbers;            // the tables, in writing order
};

// Level 2: every even key. Level 1: every third key, newer. Level 0: two
// overlapping tables, every fifth key rewritten and every seventh deleted,
// newest last. With `extra`, one more level-0 table of keys 5000 and up
// (what a writer flushes later).
Layout WriteLayout(const std::string& dir, bool extra = false) {
  Layout layout;
  TestDatabaseWriter writer(dir);
  std::map<std::string, std::pair<uint64_t, std::optional<std::string>>> newest;
  auto note = [&](const TestVersion& v) {
    auto& slot = newest[v.user_key];
    if (slot.first < v.sequence) {
      slot = {v.sequence,
              v.deletion ? std::nullopt : std::optional<std::string>(v.value)};
    }
  };
  std::vector<TestVersion> level2, level1, level0a, level0b;
  uint64_t sequence = 1;
  for (int i = 0; i < kKeySpace; i += 2) {
    level2.push_back({Key(i), sequence++, false, absl::StrCat("l2-", i)});
  }
  for (int i = 0; i < kKeySpace; i += 3) {
    level1.push_back({Key(i), sequence++, false, absl::StrCat("l1-", i)});
  }
  for (int i = 0; i < kKeySpace; i += 5) {
    level0a.push_back({Key(i), sequence++, false, absl::StrCat("l0a-", i)});
  }
  for (int i = 0; i < kKeySpace; i += 7) {
    level0b.push_back({Key(i), sequence++, true, ""});
  }
  for (const auto* versions : {&level2, &level1, &level0a, &level0b}) {
    for (const TestVersion& v : *versions) note(v);
  }
  layout.numbers.push_back(writer.AddTable(2, level2));
  layout.numbers.push_back(writer.AddTable(1, level1));
  layout.numbers.push_back(writer.AddTable(0, level0a));
  layout.numbers.push_back(writer.AddTable(0, level0b));
  if (extra) {
    std::vector<TestVersion> later;
    for (int i = 5000; i < 5300; ++i) {
      later.push_back({Key(i), sequence++, false, absl::StrCat("later-", i)});
    }
    for (const TestVersion& v : later) note(v);
    layout.numbers.push_back(writer.AddTable(0, later));
  }
  writer.Finish();
  for (const auto& [key, slot] : newest) {
    if (slot.second.has_value()) layout.live[key] = *slot.second;
  }
  return layout;
}

std::unique_ptr<Database> Open(const std::string& dir,
                               const DatabaseOptions& options = {}) {
  absl::StatusOr<std::unique_ptr<Database>> db =
      Database::OpenReadOnly(dir, options);
  EXPECT_TRUE(db.ok()) << db.status();
  return db.ok() ? *std::move(db) : nullptr;
}

std::unique_ptr<Database> OpenWithSidecars(const std::string& dir,
                                           const std::string& filters_dir) {
  DatabaseOptions options;
  options.filters_dir = filters_dir;
  return Open(dir, options);
}

// Every key of the key space (and some beyond it) answers as the model
// says: no false "absent", no wrong value.
void ExpectModelAnswers(const Database& db, const Layout& layout) {
  int wrong = 0;
  for (int i = 0; i < 6000; ++i) {
    const std::string key = Key(i);
    absl::StatusOr<std::string> got = db.Get(DatabaseReadOptions(), key);
    auto expected = layout.live.find(key);
    if (expected == layout.live.end()) {
      if (!absl::IsNotFound(got.status())) {
        ++wrong;
        ADD_FAILURE() << key << ": " << got.status();
      }
    } else if (!got.ok() || *got != expected->second) {
      ++wrong;
      ADD_FAILURE() << key << ": " << got.status() << " instead of "
                    << expected->second;
    }
    if (wrong > 5) return;
  }
}

SidecarBuildSummary Build(const std::string& dir, const std::string& into,
                          const SidecarBuildOptions& options = {}) {
  absl::StatusOr<SidecarBuildSummary> summary =
      BuildSidecarFilters(dir, into, options);
  EXPECT_TRUE(summary.ok()) << summary.status();
  return summary.ok() ? *summary : SidecarBuildSummary();
}

std::string SidecarPath(const std::string& into, uint64_t number) {
  return absl::StrCat(into, "/", SidecarFileName(TableFileName(number)));
}

// Opens `dir` with the sidecars in `filters_dir` and expects each of its
// `tables` to use one, without a warning, and every answer to be the
// model's.
void ExpectEverySidecarUsed(const std::string& dir,
                            const std::string& filters_dir, uint64_t tables,
                            const Layout& layout) {
  std::unique_ptr<Database> db = OpenWithSidecars(dir, filters_dir);
  ASSERT_NE(db, nullptr);
  EXPECT_TRUE(db->warnings().empty()) << absl::StrJoin(db->warnings(), "\n");
  EXPECT_EQ(db->GetStats().sidecar_tables, tables);
  ExpectModelAnswers(*db, layout);
}

class SidecarDatabaseTest : public testing::Test {
 protected:
  std::string Dir() const { return db_dir_.File("db"); }
  std::string Filters() const { return filters_dir_.File("filters"); }
  void SetUp() override {
    std::filesystem::create_directory(Dir());
    layout_ = WriteLayout(Dir());
  }

  TempDir db_dir_;
  TempDir filters_dir_;
  Layout layout_;
};

TEST_F(SidecarDatabaseTest, OneSidecarPerTableAnswersEveryKeyAsTheModel) {
  const SidecarBuildSummary summary = Build(Dir(), Filters());
  EXPECT_EQ(summary.tables, 4u);
  EXPECT_EQ(summary.built, 4u);
  EXPECT_TRUE(summary.failed.empty());
  for (uint64_t number : layout_.numbers) {
    EXPECT_TRUE(std::filesystem::exists(SidecarPath(Filters(), number)));
  }
  std::unique_ptr<Database> db = OpenWithSidecars(Dir(), Filters());
  ASSERT_NE(db, nullptr);
  EXPECT_TRUE(db->warnings().empty()) << absl::StrJoin(db->warnings(), "\n");
  ExpectModelAnswers(*db, layout_);
  const DatabaseStats stats = db->GetStats();
  EXPECT_EQ(stats.sidecar_tables, 4u);
  EXPECT_GT(stats.sidecar_filter_negatives, 0u);
  // Nothing is written into the database directory.
  for (const auto& entry : std::filesystem::directory_iterator(Dir())) {
    EXPECT_EQ(entry.path().string().find(".sidecar"), std::string::npos);
  }
}

TEST_F(SidecarDatabaseTest, AbsentKeysAreMostlyAnsweredWithoutATable) {
  Build(Dir(), Filters());
  std::unique_ptr<Database> db = OpenWithSidecars(Dir(), Filters());
  ASSERT_NE(db, nullptr);
  // Keys right after present ones: every table's range holds them.
  constexpr int kLookups = 1000;
  for (int i = 0; i < kLookups; ++i) {
    const std::string absent = absl::StrCat(Key(i), "x");
    EXPECT_TRUE(
        absl::IsNotFound(db->Get(DatabaseReadOptions(), absent).status()));
  }
  const DatabaseStats stats = db->GetStats();
  // Each lookup asks the four tables' sidecars (the last ones' ranges end
  // at key01195 and key01197), and almost every answer is "absent".
  EXPECT_GE(stats.sidecar_filter_checks, 4u * kLookups - 8);
  // The two level-0 tables hold fewer than 256 keys, so their Ribbon
  // filters are stored as cache-local Bloom filters (about 1% false
  // positives at 10 bits per key), the others as Ribbon (about 0.1%): some
  // 22 false positives are expected, each one data-block read. The bound
  // leaves room for chance, and is far below one read per lookup.
  EXPECT_LE(stats.tables.data_block_reads, 60u);
  EXPECT_GE(stats.sidecar_filter_negatives,
            stats.sidecar_filter_checks - stats.tables.data_block_reads);
}

TEST_F(SidecarDatabaseTest, CoveredTablesAreOpenedWithoutTheirOwnFilter) {
  Build(Dir(), Filters());
  std::unique_ptr<Database> with = OpenWithSidecars(Dir(), Filters());
  std::unique_ptr<Database> without = Open(Dir());
  ASSERT_NE(with, nullptr);
  ASSERT_NE(without, nullptr);
  for (const DatabaseTableFile& file : with->tables()) {
    absl::StatusOr<std::shared_ptr<const Table>> covered =
        with->OpenTable(file);
    absl::StatusOr<std::shared_ptr<const Table>> plain =
        without->OpenTable(file);
    ASSERT_TRUE(covered.ok() && plain.ok());
    EXPECT_FALSE((*covered)->filter_info().in_use) << file.name;
    EXPECT_TRUE((*plain)->filter_info().in_use) << file.name;
  }
}

TEST_F(SidecarDatabaseTest, SidecarsAreUsedWhateverPoliciesTheTablesMayUse) {
  Build(Dir(), Filters());
  DatabaseOptions options;
  options.filters_dir = Filters();
  options.filter_policies = {NewLevelDBBloomFilterPolicy(10)};
  std::unique_ptr<Database> db = Open(Dir(), options);
  ASSERT_NE(db, nullptr);
  EXPECT_TRUE(db->warnings().empty()) << absl::StrJoin(db->warnings(), "\n");
  EXPECT_EQ(db->GetStats().sidecar_tables, 4u);
  ExpectModelAnswers(*db, layout_);
}

TEST_F(SidecarDatabaseTest, MemoryHeldIsCountedInStats) {
  Build(Dir(), Filters());
  std::unique_ptr<Database> db = OpenWithSidecars(Dir(), Filters());
  ASSERT_NE(db, nullptr);
  uint64_t keys = 0;
  for (uint64_t number : layout_.numbers) {
    absl::StatusOr<std::string> bytes =
        ReadFileToString(SidecarPath(Filters(), number));
    ASSERT_TRUE(bytes.ok());
    keys += DecodeSidecar(*bytes)->keys;
  }
  const DatabaseStats stats = db->GetStats();
  // At least the 10 bits per key the filters store, and not twice that.
  EXPECT_GE(stats.sidecar_memory_bytes, keys * 10 / 8);
  EXPECT_LE(stats.sidecar_memory_bytes, keys * 20 / 8 + 4096);
}

TEST_F(SidecarDatabaseTest, DeletionInANewerTableHidesTheOlderValue) {
  Build(Dir(), Filters());
  std::unique_ptr<Database> db = OpenWithSidecars(Dir(), Filters());
  ASSERT_NE(db, nullptr);
  // Key 14: written in level 2 (even) and level 1 (no: 14 % 3 != 0),
  // deleted in level 0 (14 % 7 == 0).
  EXPECT_TRUE(
      absl::IsNotFound(db->Get(DatabaseReadOptions(), Key(14)).status()));
  EXPECT_EQ(*db->Get(DatabaseReadOptions(), Key(16)), "l2-16");
}

TEST_F(SidecarDatabaseTest, SecondBuildKeepsWhatIsUpToDate) {
  Build(Dir(), Filters());
  const SidecarBuildSummary again = Build(Dir(), Filters());
  EXPECT_EQ(again.built, 0u);
  EXPECT_EQ(again.up_to_date, 4u);
}

TEST_F(SidecarDatabaseTest, NewTablesGetSidecarsIncrementally) {
  Build(Dir(), Filters());
  // The writer flushed one more table.
  const Layout grown = WriteLayout(Dir(), /*extra=*/true);
  const SidecarBuildSummary summary = Build(Dir(), Filters());
  EXPECT_EQ(summary.tables, 5u);
  EXPECT_EQ(summary.built, 1u);
  EXPECT_EQ(summary.up_to_date, 4u);
  ExpectEverySidecarUsed(Dir(), Filters(), 5, grown);
}

TEST_F(SidecarDatabaseTest, OtherSettingsRebuildEverySidecar) {
  Build(Dir(), Filters());
  SidecarBuildOptions options;
  options.filters.filter_policy = NewRibbonFilterPolicy(14);
  const SidecarBuildSummary summary = Build(Dir(), Filters(), options);
  EXPECT_EQ(summary.built, 4u);
  const SidecarBuildSummary same = Build(Dir(), Filters(), options);
  EXPECT_EQ(same.up_to_date, 4u);
  options.filters.filter_policy = NewCacheLocalBloomFilterPolicy(10);
  EXPECT_EQ(Build(Dir(), Filters(), options).built, 4u);
  std::unique_ptr<Database> db = OpenWithSidecars(Dir(), Filters());
  ASSERT_NE(db, nullptr);
  ExpectModelAnswers(*db, layout_);
  EXPECT_EQ(db->GetStats().sidecar_tables, 4u);
}

TEST_F(SidecarDatabaseTest, SidecarsOfTablesThatAreGoneAreListedThenPruned) {
  WriteLayout(Dir(), /*extra=*/true);
  Build(Dir(), Filters());
  const uint64_t gone = 6;  // the extra table's number
  ASSERT_TRUE(std::filesystem::exists(SidecarPath(Filters(), gone)));
  // The database without the extra table: its sidecar is orphaned.
  WriteLayout(Dir());
  std::filesystem::remove(absl::StrCat(Dir(), "/", TableFileName(gone)));
  SidecarBuildSummary summary = Build(Dir(), Filters());
  EXPECT_EQ(summary.orphaned,
            std::vector<std::string>{SidecarFileName(TableFileName(gone))});
  EXPECT_TRUE(std::filesystem::exists(SidecarPath(Filters(), gone)));
  SidecarBuildOptions prune;
  prune.prune = true;
  summary = Build(Dir(), Filters(), prune);
  EXPECT_EQ(summary.pruned,
            std::vector<std::string>{SidecarFileName(TableFileName(gone))});
  EXPECT_FALSE(std::filesystem::exists(SidecarPath(Filters(), gone)));
  for (uint64_t number : layout_.numbers) {
    EXPECT_TRUE(std::filesystem::exists(SidecarPath(Filters(), number)));
  }
}

TEST_F(SidecarDatabaseTest, ConcurrentBuildersLeaveOnlyWholeFiles) {
  std::vector<std::thread> builders;
  std::atomic<int> failures{0};
  for (int t = 0; t < 4; ++t) {
    builders.emplace_back([&] {
      SidecarBuildOptions options;
      options.threads = 2;
      absl::StatusOr<SidecarBuildSummary> summary =
          BuildSidecarFilters(Dir(), Filters(), options);
      if (!summary.ok() || !summary->failed.empty()) ++failures;
    });
  }
  for (std::thread& builder : builders) builder.join();
  EXPECT_EQ(failures.load(), 0);
  for (const auto& entry : std::filesystem::directory_iterator(Filters())) {
    EXPECT_EQ(entry.path().extension(), ".sidecar") << entry.path();
  }
  ExpectEverySidecarUsed(Dir(), Filters(), 4, layout_);
}

TEST_F(SidecarDatabaseTest, DamagedStaleForeignAndMissingSidecarsAreIgnored) {
  Build(Dir(), Filters());
  const std::string l2 = SidecarPath(Filters(), layout_.numbers[0]);
  const std::string l1 = SidecarPath(Filters(), layout_.numbers[1]);
  const std::string l0a = SidecarPath(Filters(), layout_.numbers[2]);
  const std::string l0b = SidecarPath(Filters(), layout_.numbers[3]);
  // Flipped: one byte of the level-2 table's filter.
  std::string bytes = *ReadFileToString(l2);
  bytes[bytes.size() / 2] ^= 0x01;
  ASSERT_TRUE(WriteFileDurably(l2, [&](WritableFile* f) {
                return f->Append(bytes);
              }).ok());
  // Foreign: level 0's second table's sidecar in the place of level 1's.
  std::filesystem::copy_file(l0b, l1,
                             std::filesystem::copy_options::overwrite_existing);
  // Truncated.
  std::filesystem::resize_file(l0a, std::filesystem::file_size(l0a) / 2);
  // Missing.
  std::filesystem::remove(l0b);

  std::unique_ptr<Database> db = OpenWithSidecars(Dir(), Filters());
  ASSERT_NE(db, nullptr);
  const std::string warnings = absl::StrJoin(db->warnings(), "\n");
  EXPECT_THAT(warnings, HasSubstr(l2 + ": sidecar filter not used (sidecar "
                                       "file: checksum mismatch)"));
  EXPECT_THAT(warnings, HasSubstr(l1 + ": sidecar filter not used (stale: it "
                                       "was built for table"));
  EXPECT_THAT(warnings, HasSubstr(l0a + ": sidecar filter not used"));
  EXPECT_THAT(warnings, HasSubstr("no sidecar filter for 1 of 4 tables (" +
                                  TableFileName(layout_.numbers[3])));
  EXPECT_EQ(db->GetStats().sidecar_tables, 0u);
  ExpectModelAnswers(*db, layout_);
}

TEST_F(SidecarDatabaseTest, SidecarLargerThanItsTableCouldNeedIsNotRead) {
  Build(Dir(), Filters());
  const std::string path = SidecarPath(Filters(), layout_.numbers[0]);
  const uint64_t table_size = std::filesystem::file_size(
      absl::StrCat(Dir(), "/", TableFileName(layout_.numbers[0])));
  std::filesystem::resize_file(path, 2 * table_size + (64 << 10) + 1);
  std::unique_ptr<Database> db = OpenWithSidecars(Dir(), Filters());
  ASSERT_NE(db, nullptr);
  EXPECT_THAT(absl::StrJoin(db->warnings(), "\n"),
              HasSubstr(path + ": sidecar filter not used (sidecar file: "));
  EXPECT_EQ(db->GetStats().sidecar_tables, 3u);
  ExpectModelAnswers(*db, layout_);
}

TEST_F(SidecarDatabaseTest, SidecarOfAnotherDatabaseIsStale) {
  // Another database, written alike but with other values: the same table
  // numbers and key ranges, other bytes.
  TempDir other;
  {
    TestDatabaseWriter writer(other.path());
    std::vector<TestVersion> versions;
    for (int i = 0; i < kKeySpace; i += 2) {
      versions.push_back({Key(i), static_cast<uint64_t>(i + 1), false,
                          absl::StrCat("other-value-", i)});
    }
    writer.AddTable(2, versions);
    writer.Finish();
  }
  Build(other.path(), Filters());
  std::unique_ptr<Database> db = OpenWithSidecars(Dir(), Filters());
  ASSERT_NE(db, nullptr);
  EXPECT_THAT(absl::StrJoin(db->warnings(), "\n"), HasSubstr("stale"));
  EXPECT_EQ(db->GetStats().sidecar_tables, 0u);
  ExpectModelAnswers(*db, layout_);
}

TEST_F(SidecarDatabaseTest, TableReplacedByOneOfTheSameSizeAndFooterIsStale) {
  Build(Dir(), Filters());
  // Level 2's table rewritten with the odd keys instead of the even ones:
  // the same number of entries of the same sizes, hence the same block
  // layout, size and footer; other keys, hence another index block and
  // another filter block.
  const std::string path =
      absl::StrCat(Dir(), "/", TableFileName(layout_.numbers[0]));
  const std::string before = *ReadFileToString(path);
  std::vector<TestVersion> odd;
  uint64_t sequence = 1;
  for (int i = 1; i < kKeySpace; i += 2) {
    odd.push_back({Key(i), sequence++, false, absl::StrCat("l2-", i - 1)});
  }
  const std::string after = TableBytes(odd);
  ASSERT_EQ(after.size(), before.size());
  ASSERT_EQ(after.substr(after.size() - 48), before.substr(before.size() - 48));
  ASSERT_NE(after, before);
  ASSERT_TRUE(WriteFileDurably(path, [&](WritableFile* f) {
                return f->Append(after);
              }).ok());

  std::unique_ptr<Database> with = OpenWithSidecars(Dir(), Filters());
  std::unique_ptr<Database> without = Open(Dir());
  ASSERT_NE(with, nullptr);
  ASSERT_NE(without, nullptr);
  EXPECT_THAT(absl::StrJoin(with->warnings(), "\n"),
              HasSubstr("stale: the table's index block differs"));
  EXPECT_EQ(with->GetStats().sidecar_tables, 3u);
  // The odd keys are now in level 2: the view with sidecars answers as the
  // view without them for every key.
  for (int i = 0; i < kKeySpace + 10; ++i) {
    absl::StatusOr<std::string> a = with->Get(DatabaseReadOptions(), Key(i));
    absl::StatusOr<std::string> b = without->Get(DatabaseReadOptions(), Key(i));
    ASSERT_EQ(a.status().code(), b.status().code()) << i;
    if (a.ok()) {
      EXPECT_EQ(*a, *b) << i;
    }
  }
}

TEST_F(SidecarDatabaseTest, BoundedScansLeaveOutTablesWithNoKeyInRange) {
  SidecarBuildOptions options;
  options.filters.range_filter_bits_per_key = 16;
  options.filters.prefix_extractor = NewFixedPrefixExtractor(6);
  Build(Dir(), Filters(), options);
  std::unique_ptr<Database> db = OpenWithSidecars(Dir(), Filters());
  ASSERT_NE(db, nullptr);
  // "key0010x".."key0010z": between present keys in every table's range.
  for (const auto& [lo, hi] : std::vector<std::pair<std::string, std::string>>{
           {"key00101a", "key00101z"},  // after key00101, before key00102
           {"key01", "key02"},          // keys 1000..1199
           {"key09", "key10"},          // none
       }) {
    DatabaseReadOptions read;
    read.lower_bound = lo;
    read.upper_bound = hi;
    std::vector<std::string> got;
    std::unique_ptr<Iterator> it = db->NewIterator(read);
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      got.emplace_back(it->key());
    }
    ASSERT_TRUE(it->status().ok());
    std::vector<std::string> expected;
    for (auto i = layout_.live.lower_bound(lo);
         i != layout_.live.end() && i->first < hi; ++i) {
      expected.push_back(i->first);
    }
    EXPECT_EQ(got, expected) << lo;
  }
  const DatabaseStats stats = db->GetStats();
  EXPECT_GT(stats.sidecar_range_negatives, 0u);
}

TEST_F(SidecarDatabaseTest, InMemoryFiltersAreBuiltInTheBackground) {
  DatabaseOptions options;
  options.build_filters_in_memory = true;
  std::unique_ptr<Database> db = Open(Dir(), options);
  ASSERT_NE(db, nullptr);
  // Answers are right whether or not a table's filter is built yet.
  ExpectModelAnswers(*db, layout_);
  // The builder is done after reading four small tables; wait for it.
  DatabaseStats stats = db->GetStats();
  for (int i = 0; i < 6000 && stats.sidecars_pending > 0; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    stats = db->GetStats();
  }
  EXPECT_EQ(stats.sidecars_pending, 0u);
  EXPECT_EQ(stats.sidecar_tables, 4u);
  EXPECT_EQ(stats.sidecar_build_failures, 0u);
  EXPECT_GT(stats.sidecar_memory_bytes, 0u);
  ExpectModelAnswers(*db, layout_);
  EXPECT_GT(db->GetStats().sidecar_filter_negatives, 0u);
  // Nothing was written anywhere near the database.
  for (const auto& entry : std::filesystem::directory_iterator(Dir())) {
    EXPECT_EQ(entry.path().string().find(".sidecar"), std::string::npos);
  }
}

TEST_F(SidecarDatabaseTest, DestroyingTheViewStopsTheBackgroundBuild) {
  DatabaseOptions options;
  options.build_filters_in_memory = true;
  for (int i = 0; i < 20; ++i) {
    std::unique_ptr<Database> db = Open(Dir(), options);
    ASSERT_NE(db, nullptr);
    EXPECT_EQ(*db->Get(DatabaseReadOptions(), Key(16)), "l2-16");
  }
}

TEST_F(SidecarDatabaseTest, SidecarDirectoryInsideTheDatabaseIsRefused) {
  absl::StatusOr<SidecarBuildSummary> inside =
      BuildSidecarFilters(Dir(), absl::StrCat(Dir(), "/filters"));
  EXPECT_TRUE(absl::IsInvalidArgument(inside.status())) << inside.status();
  absl::StatusOr<SidecarBuildSummary> same = BuildSidecarFilters(Dir(), Dir());
  EXPECT_TRUE(absl::IsInvalidArgument(same.status())) << same.status();
  EXPECT_FALSE(std::filesystem::exists(absl::StrCat(Dir(), "/filters")));
}

TEST_F(SidecarDatabaseTest, DamagedTableIsListedAndTheOthersAreBuilt) {
  const std::string path =
      absl::StrCat(Dir(), "/", TableFileName(layout_.numbers[1]));
  std::string bytes = *ReadFileToString(path);
  bytes[100] ^= 0x40;  // inside the first data block
  ASSERT_TRUE(WriteFileDurably(path, [&](WritableFile* f) {
                return f->Append(bytes);
              }).ok());
  const SidecarBuildSummary summary = Build(Dir(), Filters());
  EXPECT_EQ(summary.built, 3u);
  ASSERT_EQ(summary.failed.size(), 1u);
  EXPECT_THAT(summary.failed[0], HasSubstr(TableFileName(layout_.numbers[1])));
  EXPECT_THAT(summary.failed[0], HasSubstr("checksum mismatch"));
}

TEST(SidecarTableFileTest, TableFileGetsASidecarBoundBySizeAndChecksums) {
  TempDir dir;
  std::vector<TestVersion> versions;
  for (int i = 0; i < 500; ++i) {
    versions.push_back({Key(i), static_cast<uint64_t>(i + 1), false, "v"});
  }
  const std::string table = dir.File("t.ldb");
  const std::string bytes = TableBytes(versions);
  ASSERT_TRUE(WriteFileDurably(table, [&](WritableFile* f) {
                return f->Append(bytes);
              }).ok());
  absl::StatusOr<SidecarBuildSummary> summary = BuildTableFileSidecarFilter(
      table, /*internal_keys=*/true, dir.File("filters"));
  ASSERT_TRUE(summary.ok()) << summary.status();
  EXPECT_EQ(summary->built, 1u);
  EXPECT_EQ(summary->keys, 500u);
  absl::StatusOr<std::string> sidecar =
      ReadFileToString(dir.File("filters/t.ldb.sidecar"));
  ASSERT_TRUE(sidecar.ok());
  absl::StatusOr<SidecarContents> contents = DecodeSidecar(*sidecar);
  ASSERT_TRUE(contents.ok());
  EXPECT_EQ(contents->binding.kind, SidecarTableKind::kTableFile);
  EXPECT_EQ(contents->binding.file_size, bytes.size());
  EXPECT_EQ(contents->binding.footer, bytes.substr(bytes.size() - 48));
  EXPECT_TRUE(contents->binding.smallest.empty());
  // Built again: up to date.
  summary = BuildTableFileSidecarFilter(table, true, dir.File("filters"));
  ASSERT_TRUE(summary.ok());
  EXPECT_EQ(summary->up_to_date, 1u);
  // Not a table: the call's error.
  ASSERT_TRUE(WriteFileDurably(dir.File("junk"), [](WritableFile* f) {
                return f->Append(std::string(100, 'j'));
              }).ok());
  EXPECT_TRUE(absl::IsDataLoss(
      BuildTableFileSidecarFilter(dir.File("junk"), false, dir.File("filters"))
          .status()));
}

}  // namespace
}  // namespace bloomtable
