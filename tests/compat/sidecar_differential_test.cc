// Sidecar filters against the real LevelDB: databases written by leveldb::DB
// with random puts, overwrites and deletes (tables on several levels, a live
// log) get sidecar filters (with prefix and range filters), some of which are
// then damaged: a byte flipped, the file cut short, another table's sidecar
// in its place, the same table's sidecar from another database, the file
// removed, and a table file replaced by another of the same size and footer
// but other keys. The view reading through the sidecars must answer every
// lookup (present keys, absent keys next to them, keys of no table) and every
// bounded scan exactly as leveldb::DB answers on a copy: 0 false negatives, 0
// wrong values, and the damaged sidecars ignored with a warning.

#include <leveldb/db.h>
#include <leveldb/iterator.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "bloomtable/database.h"
#include "bloomtable/db_files.h"
#include "bloomtable/durable_file.h"
#include "bloomtable/file.h"
#include "bloomtable/filter_policy.h"
#include "bloomtable/sidecar.h"
#include "bloomtable/table.h"
#include "bloomtable/table_builder.h"
#include "gtest/gtest.h"
#include "tests/compat/leveldb_database.h"
#include "tests/temp_dir.h"

namespace bloomtable {
namespace compat_test {
namespace {

using KV = std::pair<std::string, std::string>;

void WriteBytes(const std::string& path, const std::string& bytes) {
  ASSERT_TRUE(WriteFileDurably(path, [&bytes](WritableFile* file) {
                return file->Append(bytes);
              }).ok());
}

// The table at `path` rewritten by bloomtable's own builder with LevelDB's
// options as the test database uses them (1 KiB blocks, Bloom 10 per block,
// no compression), with some user keys K renamed to K + 1 in their last
// digit where no key of the table has that name and it still sorts before
// the next key: every length stays, and so the block layout, the size and
// the footer; the filter block (and where a renamed key ends a block, the
// index block) changes. The renamed keys lie inside the table's recorded
// key range, where a lookup reaches the table: a sidecar of the old table
// would answer "absent" for them. Nullopt if no key can be renamed so (a
// table of consecutive keys).
std::optional<std::string> ReplacementTable(const std::string& path) {
  Options options;
  options.key_format = KeyFormat::kLevelDBInternal;
  absl::StatusOr<uint64_t> size = GetFileSize(path);
  EXPECT_TRUE(size.ok());
  absl::StatusOr<std::unique_ptr<Table>> table =
      Table::Open(options, OpenRandomAccessFile(path).value(), *size);
  EXPECT_TRUE(table.ok()) << table.status();
  std::vector<KV> entries;
  std::set<std::string> user_keys;
  EXPECT_TRUE(
      (*table)
          ->ForEachEntry(
              ReadOptions(),
              [&](std::string_view key, std::string_view value, uint64_t) {
                entries.emplace_back(std::string(key), std::string(value));
                user_keys.emplace(key.substr(0, key.size() - 8));
                return true;
              })
          .ok());
  int renamed = 0;
  for (auto it = user_keys.begin(); it != user_keys.end(); ++it) {
    const std::string& key = *it;
    auto next = std::next(it);
    if (it == user_keys.begin() || next == user_keys.end()) continue;
    if (key.empty() || key.back() < '0' || key.back() >= '9') continue;
    std::string renamed_key = key;
    ++renamed_key.back();
    if (user_keys.count(renamed_key) != 0 || renamed_key >= *next) continue;
    if (renamed % 7 == 0) {  // some of them, not all
      for (KV& entry : entries) {
        if (entry.first.compare(0, entry.first.size() - 8, key) == 0 &&
            entry.first.size() - 8 == key.size()) {
          entry.first.replace(0, key.size(), renamed_key);
        }
      }
    }
    ++renamed;
  }
  if (renamed == 0) return std::nullopt;
  options.block_size = 1024;
  options.compression = CompressionType::kNone;
  options.filter_policy = NewLevelDBBloomFilterPolicy(10);
  StringWritableFile out;
  TableBuilder builder(options, &out);
  for (const KV& entry : entries) {
    EXPECT_TRUE(builder.Add(entry.first, entry.second).ok());
  }
  EXPECT_TRUE(builder.Finish().ok());
  return out.contents();
}

// The damage a round plants.
enum class Plant {
  kFlipped,        // a byte of the sidecar flipped
  kTruncated,      // the sidecar cut short
  kStale,          // another table's sidecar in its place
  kForeign,        // the other database's sidecar of a table, in its place
  kMissing,        // the sidecar removed
  kReplacedTable,  // the table replaced by one of the same size and footer
};
constexpr Plant kPlants[] = {Plant::kFlipped, Plant::kTruncated,
                             Plant::kStale,   Plant::kForeign,
                             Plant::kMissing, Plant::kReplacedTable};

struct Damage {
  std::set<std::string> ignored;  // sidecar files that must be warned about
  std::set<std::string> missing;  // tables whose sidecar is gone
};

// Plants `plants[i]` at `tables[i]` in the sidecars in `filters` (of the
// database in `dir`, whose `twin` database has its own sidecars in
// `twin_filters`); a replaced table is replaced in `dir` and in `copy`.
// REQUIRES: more tables than plants (a stale sidecar comes from the last
// table, which is left alone).
Damage PlantDamage(const std::vector<Plant>& plants,
                   const std::vector<DatabaseTableFile>& tables,
                   const std::string& dir, const std::string& copy,
                   const std::string& filters, const std::string& twin_filters,
                   std::mt19937* rng) {
  Damage damage;
  auto sidecar = [&](const DatabaseTableFile& file) {
    return absl::StrCat(filters, "/", SidecarFileName(file.name));
  };
  for (size_t i = 0; i < plants.size(); ++i) {
    const std::string path = sidecar(tables[i]);
    switch (plants[i]) {
      case Plant::kFlipped: {
        std::string bytes = ReadFileToString(path).value();
        bytes[(*rng)() % bytes.size()] ^= static_cast<char>(1 + (*rng)() % 255);
        WriteBytes(path, bytes);
        damage.ignored.insert(path);
        break;
      }
      case Plant::kTruncated: {
        const std::string bytes = ReadFileToString(path).value();
        WriteBytes(path, bytes.substr(0, (*rng)() % bytes.size()));
        damage.ignored.insert(path);
        break;
      }
      case Plant::kStale:
        std::filesystem::copy_file(
            sidecar(tables.back()), path,
            std::filesystem::copy_options::overwrite_existing);
        damage.ignored.insert(path);
        break;
      case Plant::kForeign: {
        std::vector<std::string> twins;
        for (const auto& entry :
             std::filesystem::directory_iterator(twin_filters)) {
          twins.push_back(entry.path().string());
        }
        std::sort(twins.begin(), twins.end());
        EXPECT_FALSE(twins.empty());
        std::filesystem::copy_file(
            twins[(*rng)() % twins.size()], path,
            std::filesystem::copy_options::overwrite_existing);
        damage.ignored.insert(path);
        break;
      }
      case Plant::kMissing:
        std::filesystem::remove(path);
        damage.missing.insert(tables[i].name);
        break;
      case Plant::kReplacedTable: {
        const std::string table = absl::StrCat(dir, "/", tables[i].name);
        const std::string before = ReadFileToString(table).value();
        const std::string after = ReplacementTable(table).value();
        EXPECT_EQ(after.size(), before.size());
        EXPECT_EQ(after.substr(after.size() - 48),
                  before.substr(before.size() - 48));
        EXPECT_NE(after, before);
        WriteBytes(table, after);
        WriteBytes(absl::StrCat(copy, "/", tables[i].name), after);
        damage.ignored.insert(path);
        break;
      }
    }
  }
  return damage;
}

std::vector<KV> ReferenceScan(leveldb::DB* db, const std::string& lo,
                              const std::string& hi) {
  std::vector<KV> out;
  std::unique_ptr<leveldb::Iterator> it(
      db->NewIterator(leveldb::ReadOptions()));
  for (it->Seek(lo); it->Valid() && it->key().ToString() < hi; it->Next()) {
    out.emplace_back(it->key().ToString(), it->value().ToString());
  }
  EXPECT_TRUE(it->status().ok());
  return out;
}

std::vector<KV> ViewScan(const Database& db, const std::string& lo,
                         const std::string& hi) {
  DatabaseReadOptions options;
  options.lower_bound = lo;
  options.upper_bound = hi;
  std::unique_ptr<Iterator> it = db.NewIterator(options);
  std::vector<KV> out;
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    out.emplace_back(std::string(it->key()), std::string(it->value()));
  }
  EXPECT_TRUE(it->status().ok()) << it->status();
  return out;
}

// The database `dir` with the sidecars in `filters`, `plants` planted
// (copies of both are damaged, in `round_dir`), must answer as leveldb::DB
// on a copy does.
void ExpectAnswersAsLevelDB(const std::string& dir, const std::string& filters,
                            const std::string& twin_filters,
                            const std::string& round_dir,
                            const WrittenDatabase& written,
                            const std::vector<Plant>& plants, uint32_t seed) {
  const std::string db_dir = absl::StrCat(round_dir, "/db");
  const std::string copy = absl::StrCat(round_dir, "/copy");
  const std::string round_filters = absl::StrCat(round_dir, "/filters");
  std::filesystem::create_directory(round_dir);
  CopyDirectory(dir, db_dir);
  CopyDirectory(dir, copy);
  CopyDirectory(filters, round_filters);
  Damage damage;
  {
    std::unique_ptr<Database> listing = Database::OpenReadOnly(db_dir).value();
    std::vector<DatabaseTableFile> tables = listing->tables();
    std::mt19937 rng(seed);
    std::shuffle(tables.begin(), tables.end(), rng);
    ASSERT_GT(tables.size(), plants.size());
    // The replaced table must have keys that can be renamed.
    const auto replaced =
        std::find(plants.begin(), plants.end(), Plant::kReplacedTable);
    if (replaced != plants.end()) {
      const size_t at = replaced - plants.begin();
      size_t renamable = 0;
      while (
          renamable + 1 < tables.size() &&
          !ReplacementTable(absl::StrCat(db_dir, "/", tables[renamable].name))
               .has_value()) {
        ++renamable;
      }
      ASSERT_LT(renamable + 1, tables.size()) << "no table can be renamed";
      std::swap(tables[at], tables[renamable]);
    }
    damage = PlantDamage(plants, tables, db_dir, copy, round_filters,
                         twin_filters, &rng);
  }
  std::unique_ptr<leveldb::DB> reference = OpenReference(copy);
  ASSERT_NE(reference, nullptr);
  DatabaseOptions options;
  options.filters_dir = round_filters;
  absl::StatusOr<std::unique_ptr<Database>> opened =
      Database::OpenReadOnly(db_dir, options);
  ASSERT_TRUE(opened.ok()) << opened.status();
  const Database& db = **opened;
  const std::string warnings = absl::StrJoin(db.warnings(), "\n");
  for (const std::string& path : damage.ignored) {
    EXPECT_NE(warnings.find(path + ": sidecar filter not used"),
              std::string::npos)
        << path << " in\n"
        << warnings;
  }
  for (const std::string& name : damage.missing) {
    EXPECT_NE(warnings.find(name), std::string::npos) << name;
  }
  EXPECT_EQ(db.GetStats().sidecar_tables,
            db.tables().size() - damage.ignored.size() - damage.missing.size());

  // Every key ever written, the keys right after them, and keys of no table.
  std::vector<std::string> keys = written.universe;
  for (const std::string& key : written.universe) {
    keys.push_back(key + "a");
    keys.push_back(key + std::string(1, '\0'));
  }
  for (int i = 0; i < 3500; ++i) keys.push_back(ModelKey(i));
  for (int i = 0; i < 700; ++i) keys.push_back(absl::StrFormat("zz%05d", i));
  int false_negatives = 0, wrong_values = 0, false_positives = 0, errors = 0;
  for (const std::string& key : keys) {
    std::string expected;
    const leveldb::Status s =
        reference->Get(leveldb::ReadOptions(), key, &expected);
    absl::StatusOr<std::string> got = db.Get(DatabaseReadOptions(), key);
    if (!got.ok() && !absl::IsNotFound(got.status())) {
      ++errors;
      ADD_FAILURE() << key << ": " << got.status();
    } else if (s.ok() && !got.ok()) {
      ++false_negatives;
    } else if (s.ok() && *got != expected) {
      ++wrong_values;
    } else if (s.IsNotFound() && got.ok()) {
      ++false_positives;
    }
  }
  EXPECT_EQ(false_negatives, 0);
  EXPECT_EQ(wrong_values, 0);
  EXPECT_EQ(false_positives, 0);
  EXPECT_EQ(errors, 0);
  EXPECT_GT(db.GetStats().sidecar_filter_negatives, 0u);

  // Bounded scans, some inside one 6-byte prefix (the prefix filter), some
  // across many (the range filter).
  std::mt19937 rng(seed * 7 + 1);
  for (int i = 0; i < 200; ++i) {
    const int a = static_cast<int>(rng() % 3000);
    const int span = i % 2 == 0 ? static_cast<int>(rng() % 8) + 1
                                : static_cast<int>(rng() % 300) + 1;
    const std::string lo = i % 3 == 0 ? ModelKey(a) + "a" : ModelKey(a);
    const std::string hi = ModelKey(a + span);
    EXPECT_EQ(ViewScan(db, lo, hi), ReferenceScan(reference.get(), lo, hi))
        << lo << " .. " << hi;
  }
}

class SidecarDifferentialTest : public testing::TestWithParam<uint32_t> {};

TEST_P(SidecarDifferentialTest, AnswersAsLevelDBWithDamagedSidecarsPlanted) {
  const uint32_t seed = GetParam();
  TempDir temp;
  const std::string dir = temp.File("db");
  const std::string twin = temp.File("twin");
  const std::string filters = temp.File("filters");
  const std::string twin_filters = temp.File("twin_filters");
  const WrittenDatabase written =
      WriteLevelDBDatabase(dir, seed, nullptr, 12000, leveldb::kNoCompression);
  WriteLevelDBDatabase(twin, seed + 1000, nullptr, 12000,
                       leveldb::kNoCompression);
  SidecarBuildOptions build;
  build.threads = 2;
  build.filters.prefix_extractor = NewFixedPrefixExtractor(6);
  build.filters.range_filter_bits_per_key = 12;
  for (const auto& [from, into] :
       {std::pair{dir, filters}, std::pair{twin, twin_filters}}) {
    absl::StatusOr<SidecarBuildSummary> summary =
        BuildSidecarFilters(from, into, build);
    ASSERT_TRUE(summary.ok()) << summary.status();
    ASSERT_TRUE(summary->failed.empty());
    ASSERT_EQ(summary->built, summary->tables);
  }
  const size_t tables = Database::OpenReadOnly(dir).value()->tables().size();
  ASSERT_GE(tables, 2u);

  // Every kind of damage, as many at once as the tables allow (one table
  // is kept whole, for the stale copy), in rounds on fresh copies.
  std::vector<Plant> plants(std::begin(kPlants), std::end(kPlants));
  std::mt19937 rng(seed);
  std::shuffle(plants.begin(), plants.end(), rng);
  int round = 0;
  for (size_t done = 0; done < plants.size(); ++round) {
    const size_t count = std::min(plants.size() - done, tables - 1);
    const std::vector<Plant> these(plants.begin() + done,
                                   plants.begin() + done + count);
    done += count;
    SCOPED_TRACE(absl::StrCat("round ", round));
    ExpectAnswersAsLevelDB(dir, filters, twin_filters,
                           temp.File(absl::StrCat("round", round)), written,
                           these, seed + round);
  }
  // The sidecars as built, with nothing planted.
  ExpectAnswersAsLevelDB(dir, filters, twin_filters, temp.File("intact"),
                         written, {}, seed);
}

INSTANTIATE_TEST_SUITE_P(Seeds, SidecarDifferentialTest,
                         testing::Values(11u, 22u, 33u, 44u));

}  // namespace
}  // namespace compat_test
}  // namespace bloomtable
