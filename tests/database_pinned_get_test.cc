// Database::Get into a PinnedValue: on random databases (several levels,
// overlapping level-0 tables, overwrites, deletions, a live log), every
// answer equals the copying Get's, as of any sequence; a value found in a
// table is pinned to its block, one found in the log is a copy. A pinned
// value stays valid after the Database (and its block cache) is destroyed,
// with memory-mapped reads and without, and a key that lies in the
// PinnedValue it is looked up into is read before it is released.

#include <memory>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "absl/strings/str_cat.h"
#include "bloomtable/cache.h"
#include "bloomtable/database.h"
#include "bloomtable/durable_file.h"
#include "bloomtable/pinned_value.h"
#include "gtest/gtest.h"
#include "tests/random_test_database.h"
#include "tests/temp_dir.h"
#include "tests/test_database_writer.h"

namespace bloomtable {
namespace {

using test_db::Key;
using test_db::kKeys;
using test_db::Model;
using test_db::Newest;
using test_db::TestDatabaseWriter;
using test_db::TestVersion;
using test_db::WriteRandomDatabase;

// With a block cache or without, reading through pread or memory maps.
struct Setup {
  bool cache;
  bool mmap;
};

auto EverySetup() {
  return testing::Values(Setup{false, false}, Setup{true, false},
                         Setup{false, true}, Setup{true, true});
}

std::string SetupName(const testing::TestParamInfo<Setup>& info) {
  return absl::StrCat(info.param.cache ? "Cache" : "NoCache",
                      info.param.mmap ? "Mmap" : "Pread");
}

DatabaseOptions OptionsFor(const Setup& setup) {
  DatabaseOptions options;
  if (setup.cache) options.block_cache = NewLRUCache(1 << 20);
  options.mmap_reads = setup.mmap;
  return options;
}

class DatabasePinnedGetTest : public testing::TestWithParam<Setup> {};

TEST_P(DatabasePinnedGetTest, EveryAnswerEqualsTheCopyingGet) {
  TempDir dir;
  uint64_t last_sequence = 0;
  uint64_t first_log_sequence = 0;
  const Model model =
      WriteRandomDatabase(dir.path(), 77, &last_sequence, &first_log_sequence);
  absl::StatusOr<std::unique_ptr<Database>> db =
      Database::OpenReadOnly(dir.path(), OptionsFor(GetParam()));
  ASSERT_TRUE(db.ok()) << db.status();
  ASSERT_EQ((*db)->logs().size(), 1u);

  std::vector<std::string> keys;
  for (int k = 0; k < kKeys + 20; ++k) keys.push_back(Key(k));  // 20 absent
  keys.push_back("");
  keys.push_back("zzz");
  std::mt19937 rng(5);
  std::vector<std::optional<uint64_t>> sequences = {std::nullopt, 0,
                                                    first_log_sequence - 1};
  for (int s = 0; s < 3; ++s) sequences.push_back(rng() % last_sequence);

  // One PinnedValue reused across every lookup, as a caller would.
  PinnedValue pinned;
  size_t from_tables = 0, from_log = 0, deleted = 0, absent = 0;
  for (const std::optional<uint64_t>& sequence : sequences) {
    DatabaseReadOptions read_options;
    read_options.sequence = sequence;
    const uint64_t snapshot = sequence.value_or(last_sequence);
    for (const std::string& key : keys) {
      const absl::StatusOr<std::string> copy = (*db)->Get(read_options, key);
      const absl::Status status = (*db)->Get(read_options, key, &pinned);
      ASSERT_EQ(status, copy.status()) << key << " at " << snapshot;
      const TestVersion* newest = Newest(model, key, snapshot);
      if (!copy.ok()) {
        ASSERT_TRUE(absl::IsNotFound(status)) << key << " " << status;
        EXPECT_TRUE(pinned.empty()) << key;
        EXPECT_FALSE(pinned.pinned()) << key;
        ++(newest == nullptr ? absent : deleted);
        continue;
      }
      ASSERT_NE(newest, nullptr) << key;
      EXPECT_EQ(pinned.view(), *copy) << key << " at " << snapshot;
      EXPECT_EQ(pinned.view(), newest->value) << key << " at " << snapshot;
      if (newest->sequence >= first_log_sequence) {
        EXPECT_FALSE(pinned.pinned()) << key << ": a log value is a copy";
        ++from_log;
      } else {
        EXPECT_TRUE(pinned.pinned()) << key << ": a table value is pinned";
        ++from_tables;
      }
    }
  }
  // Every kind of answer was met.
  EXPECT_GT(from_tables, 100u);
  EXPECT_GT(from_log, 10u);
  EXPECT_GT(deleted, 10u);
  EXPECT_GT(absent, 20u);
}

INSTANTIATE_TEST_SUITE_P(CacheAndMmap, DatabasePinnedGetTest, EverySetup(),
                         SetupName);

// Key k's value names key k + 1 ("key00001" -> "key00002" ...), in tables
// of three levels and in the log, so that each value can be the next key.
void WriteChainDatabase(const std::string& dir) {
  TestDatabaseWriter writer(dir);
  uint64_t sequence = 1;
  const auto link = [&sequence](int k) {
    return TestVersion{Key(k), sequence++, false, Key(k + 1)};
  };
  std::vector<TestVersion> level2, level1, level0;
  for (int k = 0; k < 30; ++k) level2.push_back(link(k));
  for (int k = 30; k < 60; ++k) level1.push_back(link(k));
  for (int k = 60; k < 90; ++k) level0.push_back(link(k));
  writer.AddTable(2, level2);
  writer.AddTable(1, level1);
  writer.AddTable(0, level0);
  for (int k = 90; k < 100; ++k) writer.AddLogRecord(link(k));
  writer.Finish();
}

class DatabasePinnedLifetimeTest : public testing::TestWithParam<Setup> {};

// Without a block cache, the pinned value's block is the only thing that
// holds it: a lookup that released it before reading the key (which lies
// in it) would read freed memory (caught by AddressSanitizer) and answer
// wrongly.
TEST_P(DatabasePinnedLifetimeTest, KeyMayLieInTheValueItIsLookedUpInto) {
  TempDir dir;
  WriteChainDatabase(dir.path());
  absl::StatusOr<std::unique_ptr<Database>> db =
      Database::OpenReadOnly(dir.path(), OptionsFor(GetParam()));
  ASSERT_TRUE(db.ok()) << db.status();
  PinnedValue pinned;
  ASSERT_TRUE((*db)->Get(DatabaseReadOptions(), Key(0), &pinned).ok());
  // Follows the chain through every level and the log, each key read out of
  // the value that the lookup replaces.
  for (int k = 1; k < 100; ++k) {
    ASSERT_EQ(pinned.view(), Key(k));
    const absl::Status status =
        (*db)->Get(DatabaseReadOptions(), pinned.view(), &pinned);
    ASSERT_TRUE(status.ok()) << k << " " << status;
  }
  EXPECT_EQ(pinned.view(), Key(100));
  EXPECT_FALSE(pinned.pinned());  // key00099 is in the log
  // Key(100) is absent: NotFound empties it.
  EXPECT_TRUE(absl::IsNotFound(
      (*db)->Get(DatabaseReadOptions(), pinned.view(), &pinned)));
  EXPECT_TRUE(pinned.empty());
}

// Values pinned from each level (and one copied from the log) keep their
// bytes after the Database, its tables, their files or mappings and the
// block cache are gone. With mmap_reads a value that pointed into a
// mapping would fault here; without, AddressSanitizer catches a value that
// pointed into freed memory.
TEST_P(DatabasePinnedLifetimeTest, ValuesOutliveTheDatabase) {
  TempDir dir;
  WriteChainDatabase(dir.path());
  const std::vector<int> keys = {3, 29, 31, 59, 60, 89, 95};
  std::vector<PinnedValue> values(keys.size());
  {
    absl::StatusOr<std::unique_ptr<Database>> db =
        Database::OpenReadOnly(dir.path(), OptionsFor(GetParam()));
    ASSERT_TRUE(db.ok()) << db.status();
    for (size_t i = 0; i < keys.size(); ++i) {
      ASSERT_TRUE(
          (*db)->Get(DatabaseReadOptions(), Key(keys[i]), &values[i]).ok());
      EXPECT_EQ(values[i].pinned(), keys[i] < 90) << keys[i];
    }
    // The options' cache and the Database are destroyed here.
  }
  for (size_t i = 0; i < keys.size(); ++i) {
    EXPECT_EQ(values[i].view(), Key(keys[i] + 1));
  }
  // The block holding key 29 and key 3 (one small table) is held twice;
  // releasing one leaves the other readable.
  values[0].Reset();
  EXPECT_EQ(values[1].view(), Key(30));
}

INSTANTIATE_TEST_SUITE_P(CacheAndMmap, DatabasePinnedLifetimeTest, EverySetup(),
                         SetupName);

TEST(DatabasePinnedGet, ErrorLeavesTheValueEmpty) {
  TempDir dir;
  WriteChainDatabase(dir.path());
  absl::StatusOr<std::unique_ptr<Database>> db =
      Database::OpenReadOnly(dir.path());
  ASSERT_TRUE(db.ok()) << db.status();
  PinnedValue pinned;
  pinned.CopyFrom("stale");
  // A damaged table: the error empties the PinnedValue, as Get's status.
  for (const DatabaseTableFile& file : (*db)->tables()) {
    if (file.level == 2) {
      ASSERT_TRUE(
          WriteFileDurably(absl::StrCat(dir.path(), "/", file.name),
                           [](WritableFile* out) { return out->Append("x"); })
              .ok());
    }
  }
  const absl::Status status =
      (*db)->Get(DatabaseReadOptions(), Key(3), &pinned);
  EXPECT_FALSE(status.ok());
  EXPECT_FALSE(absl::IsNotFound(status)) << status;
  EXPECT_EQ(status, (*db)->Get(DatabaseReadOptions(), Key(3)).status());
  EXPECT_TRUE(pinned.empty());
}

}  // namespace
}  // namespace bloomtable
