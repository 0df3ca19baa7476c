// Database::MultiGet: on random databases (several levels, level-0 tables
// that overlap, overwrites, deletions, a live log), every batch answers
// for each key exactly what Get answers and what a model of the writes
// says, as of any sequence; keys repeat and come in any order. Keys in one
// data block cost one read, and a key found at a newer level does not
// open a deeper table.

#include <algorithm>
#include <cstdio>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "bloomtable/cache.h"
#include "bloomtable/database.h"
#include "bloomtable/file.h"
#include "bloomtable/pinned_value.h"
#include "gtest/gtest.h"
#include "tests/log_only_database.h"
#include "tests/random_test_database.h"
#include "tests/temp_dir.h"
#include "tests/test_database_writer.h"

namespace bloomtable {
namespace {

using test_db::TestDatabaseWriter;
using test_db::TestVersion;

using test_db::Expected;
using test_db::Key;
using test_db::kKeys;
using test_db::Model;
using test_db::WriteRandomDatabase;

// Checks one batch against Get and the model; counts the values found.
void ExpectBatchAsGet(const Database& db, const Model& model,
                      const DatabaseReadOptions& options, uint64_t snapshot,
                      const std::vector<std::string>& keys, size_t* found) {
  const std::vector<std::string_view> views(keys.begin(), keys.end());
  const std::vector<absl::StatusOr<std::string>> got =
      db.MultiGet(options, views);
  ASSERT_EQ(got.size(), keys.size());
  // The pinning MultiGet answers the same, its values where they lie.
  std::vector<PinnedValue> pinned(3);  // resized to the batch
  const std::vector<absl::Status> pinned_statuses =
      db.MultiGet(options, views, &pinned);
  ASSERT_EQ(pinned_statuses.size(), keys.size());
  ASSERT_EQ(pinned.size(), keys.size());
  for (size_t i = 0; i < keys.size(); ++i) {
    const absl::StatusOr<std::string> want = db.Get(options, keys[i]);
    EXPECT_EQ(got[i].status(), want.status()) << keys[i];
    EXPECT_EQ(pinned_statuses[i], got[i].status()) << keys[i];
    EXPECT_EQ(pinned[i].view(), got[i].ok() ? *got[i] : "") << keys[i];
    const std::optional<std::string> expected =
        Expected(model, keys[i], snapshot);
    if (expected.has_value()) {
      ASSERT_TRUE(got[i].ok()) << keys[i] << " " << got[i].status();
      EXPECT_EQ(*got[i], *expected) << keys[i];
      ++*found;
    } else {
      EXPECT_TRUE(absl::IsNotFound(got[i].status()))
          << keys[i] << " " << got[i].status();
    }
  }
}

class DatabaseMultiGetTest : public testing::TestWithParam<int> {};

TEST_P(DatabaseMultiGetTest, EveryBatchAnswersAsGetAndTheModel) {
  const uint32_t seed = 1000 + static_cast<uint32_t>(GetParam());
  TempDir dir;
  uint64_t last_sequence = 0;
  const Model model = WriteRandomDatabase(dir.path(), seed, &last_sequence);
  DatabaseOptions options;
  switch (GetParam() % 4) {
    case 1:
      options.block_cache = NewLRUCache(1 << 20);
      break;
    case 2:
      options.max_open_files = 1;
      break;
    case 3:
      options.mmap_reads = true;
      break;
  }
  // Half the seeds read a round's tables on threads.
  if (GetParam() >= 4) options.multi_get_read_threads = 2;
  absl::StatusOr<std::unique_ptr<Database>> db =
      Database::OpenReadOnly(dir.path(), options);
  ASSERT_TRUE(db.ok()) << db.status();
  ASSERT_EQ((*db)->last_sequence(), last_sequence);
  ASSERT_EQ((*db)->logs().size(), 1u);
  ASSERT_EQ((*db)->logs()[0].records, 40u);

  std::vector<std::string> keys;
  for (int k = 0; k < kKeys + 50; ++k) keys.push_back(Key(k));  // 50 absent
  keys.push_back("");
  keys.push_back("key00001x");
  keys.push_back("zzz");
  std::mt19937 rng(seed);
  for (int d = 0; d < 60; ++d) keys.push_back(keys[rng() % keys.size()]);

  std::vector<std::optional<uint64_t>> sequences = {
      std::nullopt, 0, last_sequence, last_sequence + 100};
  for (int s = 0; s < 4; ++s) sequences.push_back(rng() % last_sequence);
  for (const std::optional<uint64_t>& sequence : sequences) {
    DatabaseReadOptions read_options;
    read_options.sequence = sequence;
    const uint64_t snapshot = sequence.value_or(last_sequence);
    std::shuffle(keys.begin(), keys.end(), rng);
    size_t found = 0;
    for (size_t begin = 0; begin < keys.size();) {
      const size_t size =
          std::min<size_t>(1 + rng() % 150, keys.size() - begin);
      const std::vector<std::string> batch(keys.begin() + begin,
                                           keys.begin() + begin + size);
      ExpectBatchAsGet(**db, model, read_options, snapshot, batch, &found);
      begin += size;
    }
    if (snapshot > last_sequence / 2) {
      EXPECT_GT(found, 100u) << "sequence " << snapshot;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Seeds, DatabaseMultiGetTest, testing::Range(0, 8));

TEST(DatabaseMultiGet, PinnedValuesOutliveTheDatabaseAndKeysMayLieInThem) {
  TempDir dir;
  uint64_t last_sequence = 0;
  const Model model = WriteRandomDatabase(dir.path(), 77, &last_sequence);
  std::vector<std::string> keys;
  for (int k = 0; k < kKeys; k += 3) keys.push_back(Key(k));
  std::vector<std::string_view> views(keys.begin(), keys.end());
  std::vector<PinnedValue> values;
  std::vector<absl::Status> statuses;
  for (bool mmap : {false, true}) {
    DatabaseOptions options;
    options.mmap_reads = mmap;
    options.block_cache = NewLRUCache(1 << 20);
    absl::StatusOr<std::unique_ptr<Database>> db =
        Database::OpenReadOnly(dir.path(), options);
    ASSERT_TRUE(db.ok()) << db.status();
    statuses = (*db)->MultiGet(DatabaseReadOptions(), views, &values);
    // The keys of the next batch are the values just found: they lie in
    // what `values` pins until the lookups are done.
    std::vector<std::string_view> from_values;
    for (const PinnedValue& value : values) {
      if (!value.empty()) from_values.push_back(value.view());
    }
    ASSERT_FALSE(from_values.empty());
    std::vector<std::string> copies(from_values.begin(), from_values.end());
    std::vector<PinnedValue> again;
    std::vector<absl::Status> again_statuses =
        (*db)->MultiGet(DatabaseReadOptions(), from_values, &again);
    const std::vector<std::string_view> copy_views(copies.begin(),
                                                   copies.end());
    const std::vector<absl::StatusOr<std::string>> want =
        (*db)->MultiGet(DatabaseReadOptions(), copy_views);
    for (size_t i = 0; i < copies.size(); ++i) {
      EXPECT_EQ(again_statuses[i], want[i].status()) << copies[i];
    }
    db->reset();  // the Database is gone; its values are not
    size_t pinned_to_blocks = 0;
    for (size_t i = 0; i < keys.size(); ++i) {
      const std::optional<std::string> expected =
          Expected(model, keys[i], last_sequence);
      if (!expected.has_value()) {
        EXPECT_TRUE(absl::IsNotFound(statuses[i])) << keys[i];
        EXPECT_TRUE(values[i].empty());
        continue;
      }
      ASSERT_TRUE(statuses[i].ok()) << keys[i] << " " << statuses[i];
      EXPECT_EQ(values[i].view(), *expected) << keys[i];
      pinned_to_blocks += values[i].pinned();
    }
    // Most values come from tables (pinned); the live log's are copies.
    EXPECT_GT(pinned_to_blocks, keys.size() / 2);
  }
}

TEST(DatabaseMultiGet, EmptyBatchGivesNoResults) {
  TempDir dir;
  uint64_t last_sequence = 0;
  WriteRandomDatabase(dir.path(), 7, &last_sequence);
  absl::StatusOr<std::unique_ptr<Database>> db =
      Database::OpenReadOnly(dir.path());
  ASSERT_TRUE(db.ok()) << db.status();
  EXPECT_TRUE((*db)->MultiGet(DatabaseReadOptions(), {}).empty());
  EXPECT_EQ((*db)->GetStats().open_tables, 0u);
}

TEST(DatabaseMultiGet, UnknownComparatorFailsEveryKeyAsGetDoes) {
  TempDir dir;
  test::WriteLogOnlyDatabase(dir.path(), "example.UnknownComparator",
                             {{"a", "1"}, {"b", "2"}});
  absl::StatusOr<std::unique_ptr<Database>> db =
      Database::OpenReadOnly(dir.path());
  ASSERT_TRUE(db.ok()) << db.status();
  ASSERT_FALSE((*db)->ordered());
  const std::vector<absl::StatusOr<std::string>> got =
      (*db)->MultiGet(DatabaseReadOptions(), {"a", "zz"});
  ASSERT_EQ(got.size(), 2u);
  for (const auto& result : got) {
    EXPECT_EQ(result.status(), (*db)->Get(DatabaseReadOptions(), "a").status());
    EXPECT_EQ(result.status().code(), absl::StatusCode::kFailedPrecondition);
  }
}

// One table on level 1 holding key00000..key00299 (small values, 1 KiB
// blocks: dozens of keys per block), and, if `level0`, a newer level-0
// table holding key00000..key00009 again.
std::unique_ptr<Database> OpenCountedDatabase(
    const std::string& dir, bool level0,
    std::shared_ptr<FileReadCounters> counters) {
  TestDatabaseWriter writer(dir);
  std::vector<TestVersion> versions;
  for (int k = 0; k < 300; ++k) {
    versions.push_back(TestVersion{Key(k), static_cast<uint64_t>(k + 1), false,
                                   absl::StrCat("old", k)});
  }
  writer.AddTable(1, versions);
  if (level0) {
    versions.clear();
    for (int k = 0; k < 10; ++k) {
      versions.push_back(TestVersion{Key(k), static_cast<uint64_t>(1000 + k),
                                     false, absl::StrCat("new", k)});
    }
    writer.AddTable(0, versions);
  }
  writer.Finish();
  DatabaseOptions options;
  options.wrap_table_file = [counters](std::unique_ptr<RandomAccessFile> file) {
    return NewCountingRandomAccessFile(std::move(file), counters);
  };
  absl::StatusOr<std::unique_ptr<Database>> db =
      Database::OpenReadOnly(dir, options);
  EXPECT_TRUE(db.ok()) << db.status();
  return db.ok() ? *std::move(db) : nullptr;
}

TEST(DatabaseMultiGet, KeysInOneBlockCostOneRead) {
  TempDir dir;
  auto counters = std::make_shared<FileReadCounters>();
  std::unique_ptr<Database> db =
      OpenCountedDatabase(dir.path(), /*level0=*/false, counters);
  ASSERT_NE(db, nullptr);
  // Opens the table (footer, index, filter) and reads a block far away.
  ASSERT_TRUE(db->Get(DatabaseReadOptions(), Key(250)).ok());
  std::vector<std::string> keys;
  for (int k = 0; k < 10; ++k) keys.push_back(Key(k));
  const std::vector<std::string_view> views(keys.begin(), keys.end());

  const uint64_t before = counters->reads;
  const uint64_t blocks_before = db->GetStats().tables.data_block_reads;
  const std::vector<absl::StatusOr<std::string>> got =
      db->MultiGet(DatabaseReadOptions(), views);
  EXPECT_EQ(counters->reads - before, 1u);
  EXPECT_EQ(db->GetStats().tables.data_block_reads - blocks_before, 1u);
  for (int k = 0; k < 10; ++k) {
    ASSERT_TRUE(got[k].ok()) << got[k].status();
    EXPECT_EQ(*got[k], absl::StrCat("old", k));
  }

  // Get, key by key, reads the block once per key (no block cache).
  const uint64_t loop_before = counters->reads;
  for (std::string_view key : views) {
    ASSERT_TRUE(db->Get(DatabaseReadOptions(), key).ok());
  }
  EXPECT_EQ(counters->reads - loop_before, 10u);

  // Keys in two distant blocks: one read each, in one batch.
  keys = {Key(0), Key(150), Key(1), Key(0)};
  const std::vector<std::string_view> two(keys.begin(), keys.end());
  const uint64_t two_before = db->GetStats().tables.data_block_reads;
  for (const auto& result : db->MultiGet(DatabaseReadOptions(), two)) {
    EXPECT_TRUE(result.ok()) << result.status();
  }
  EXPECT_EQ(db->GetStats().tables.data_block_reads - two_before, 2u);
}

TEST(DatabaseMultiGet, KeyFoundAtANewerLevelIsNotAskedDeeper) {
  TempDir dir;
  auto counters = std::make_shared<FileReadCounters>();
  std::unique_ptr<Database> db =
      OpenCountedDatabase(dir.path(), /*level0=*/true, counters);
  ASSERT_NE(db, nullptr);
  std::vector<std::string> keys;
  for (int k = 0; k < 10; ++k) keys.push_back(Key(9 - k));
  std::vector<std::string_view> views(keys.begin(), keys.end());
  std::vector<absl::StatusOr<std::string>> got =
      db->MultiGet(DatabaseReadOptions(), views);
  for (int i = 0; i < 10; ++i) {
    ASSERT_TRUE(got[i].ok()) << got[i].status();
    EXPECT_EQ(*got[i], absl::StrCat("new", 9 - i));
  }
  // Only the level-0 table was opened, and one of its blocks read.
  EXPECT_EQ(db->GetStats().open_tables, 1u);
  EXPECT_EQ(db->GetStats().tables.data_block_reads, 1u);

  // As of a sequence before the level-0 table, the same keys come from
  // level 1; a key level 0 does not hold goes there too.
  DatabaseReadOptions older;
  older.sequence = 500;
  keys.push_back(Key(100));
  views.assign(keys.begin(), keys.end());
  got = db->MultiGet(older, views);
  for (int i = 0; i < 10; ++i) {
    ASSERT_TRUE(got[i].ok()) << got[i].status();
    EXPECT_EQ(*got[i], absl::StrCat("old", 9 - i));
  }
  ASSERT_TRUE(got[10].ok()) << got[10].status();
  EXPECT_EQ(*got[10], "old100");
  EXPECT_EQ(db->GetStats().open_tables, 2u);
}

TEST(DatabaseMultiGet, MissingTableFailsOnlyTheKeysThatReachIt) {
  TempDir dir;
  auto counters = std::make_shared<FileReadCounters>();
  std::unique_ptr<Database> db =
      OpenCountedDatabase(dir.path(), /*level0=*/true, counters);
  ASSERT_NE(db, nullptr);
  // The level-1 table vanishes before it is first opened.
  for (const DatabaseTableFile& file : db->tables()) {
    if (file.level == 1) {
      ASSERT_EQ(std::remove(absl::StrCat(dir.path(), "/", file.name).c_str()),
                0);
    }
  }
  const std::vector<absl::StatusOr<std::string>> got =
      db->MultiGet(DatabaseReadOptions(), {Key(3), Key(100), Key(5)});
  ASSERT_EQ(got.size(), 3u);
  ASSERT_TRUE(got[0].ok() && got[2].ok());
  EXPECT_EQ(*got[0], "new3");
  EXPECT_EQ(*got[2], "new5");
  EXPECT_FALSE(got[1].ok());
  EXPECT_FALSE(absl::IsNotFound(got[1].status())) << got[1].status();
  EXPECT_EQ(got[1].status(), db->Get(DatabaseReadOptions(), Key(100)).status());
}

}  // namespace
}  // namespace bloomtable
