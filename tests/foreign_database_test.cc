// Database directories that other real LevelDB implementations wrote,
// committed in tests/data/ with their generators (tests/data/generators/):
// goleveldb (geth's LevelDB) and the Java port. Each opens read-only, reads
// every key as its writer left it (tables on two levels, the live log's
// batches over them) and changes nothing in the directory.

#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "bloomtable/database.h"
#include "bloomtable/file.h"
#include "gtest/gtest.h"

namespace bloomtable {
namespace {

using Model = std::map<std::string, std::string>;

std::string DataDir(const std::string& name) {
  return absl::StrCat(BLOOMTABLE_TEST_DATA_DIR, "/", name);
}

// Applies the "op SEQ put|del KEYHEX VALUEHEX" lines of a fixture's
// .expected file (every operation of its live log, in order) to `model`.
void ApplyLogOps(const std::string& expected_path, Model* model) {
  absl::StatusOr<std::string> text = ReadFileToString(expected_path);
  ASSERT_TRUE(text.ok()) << text.status();
  for (const std::string& line :
       std::vector<std::string>(absl::StrSplit(*text, '\n'))) {
    std::vector<std::string> fields = absl::StrSplit(line, ' ');
    if (fields.size() < 4 || fields[0] != "op") continue;
    const std::string key = absl::HexStringToBytes(fields[3]);
    if (fields[2] == "put") {
      (*model)[key] =
          fields.size() > 4 ? absl::HexStringToBytes(fields[4]) : "";
    } else {
      model->erase(key);
    }
  }
}

// Every key of `model` (and the keys the writer deleted) reads as the
// writer left it; a full scan yields exactly `model`.
void ExpectDatabase(const std::string& dir, const Model& model,
                    const std::vector<std::string>& deleted) {
  std::map<std::string, std::string> before;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    before[entry.path().filename().string()] =
        *ReadFileToString(entry.path().string());
  }
  absl::StatusOr<std::unique_ptr<Database>> db = Database::OpenReadOnly(dir);
  ASSERT_TRUE(db.ok()) << db.status();
  EXPECT_TRUE((*db)->warnings().empty()) << (*db)->warnings()[0];
  EXPECT_EQ((*db)->comparator_name(), "leveldb.BytewiseComparator");
  EXPECT_GE((*db)->tables().size(), 2u);
  for (const auto& [key, value] : model) {
    absl::StatusOr<std::string> got = (*db)->Get(DatabaseReadOptions(), key);
    ASSERT_TRUE(got.ok()) << absl::CEscape(key) << " " << got.status();
    EXPECT_EQ(*got, value) << absl::CEscape(key);
  }
  for (const std::string& key : deleted) {
    EXPECT_TRUE(
        absl::IsNotFound((*db)->Get(DatabaseReadOptions(), key).status()))
        << key;
  }
  Model scanned;
  std::unique_ptr<Iterator> it = (*db)->NewIterator(DatabaseReadOptions());
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    scanned.emplace(std::string(it->key()), std::string(it->value()));
  }
  EXPECT_TRUE(it->status().ok()) << it->status();
  EXPECT_EQ(scanned, model);
  std::map<std::string, std::string> after;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    after[entry.path().filename().string()] =
        *ReadFileToString(entry.path().string());
  }
  EXPECT_EQ(after, before);
}

TEST(ForeignDatabaseTest, GoLevelDB) {
  // What tests/data/generators/goleveldb/main.go wrote before its log.
  Model model;
  for (int i = 0; i < 20; ++i) {
    model[absl::StrFormat("table-key-%02d", i)] = absl::StrCat("value ", i);
  }
  model["table-key-05"] = "newer";
  model.erase("table-key-06");
  model["zz-1"] = "z1";
  model["zz-2"] = "z2";
  ApplyLogOps(DataDir("goleveldb_db.expected"), &model);
  ExpectDatabase(DataDir("goleveldb_db"), model,
                 {"table-key-06", "table-key-01", "log-a"});
}

TEST(ForeignDatabaseTest, GoLevelDBBloomFilterIsReadAndUsed) {
  // goleveldb writes its Bloom filter under LevelDB's older name; the view
  // must use it: every table's filter in use, absent keys turned away by it,
  // present keys all found.
  absl::StatusOr<std::unique_ptr<Database>> db =
      Database::OpenReadOnly(DataDir("goleveldb_db"));
  ASSERT_TRUE(db.ok()) << db.status();
  for (int i = 0; i < 20; ++i) {
    (void)(*db)->Get(DatabaseReadOptions(),
                     absl::StrFormat("table-key-%02d-absent", i));
    (void)(*db)->Get(DatabaseReadOptions(), absl::StrFormat("zz-%d-absent", i));
  }
  uint64_t checks = 0;
  uint64_t negatives = 0;
  ASSERT_GE((*db)->tables().size(), 2u);
  for (const DatabaseTableFile& file : (*db)->tables()) {
    absl::StatusOr<std::shared_ptr<const Table>> table = (*db)->OpenTable(file);
    ASSERT_TRUE(table.ok()) << table.status();
    EXPECT_EQ((*table)->filter_info().metaindex_key,
              "filter.leveldb.BuiltinBloomFilter")
        << file.name;
    EXPECT_TRUE((*table)->filter_info().in_use)
        << file.name << ": " << (*table)->filter_info().unused_reason;
    checks += (*table)->GetStats().filter_checks;
    negatives += (*table)->GetStats().filter_negatives;
  }
  EXPECT_GT(checks, 0u);
  EXPECT_GT(negatives, 0u);
  // The filter never turns away a key the table holds.
  for (int i = 0; i < 20; ++i) {
    if (i == 1 || i == 6) continue;  // deleted
    EXPECT_TRUE(
        (*db)
            ->Get(DatabaseReadOptions(), absl::StrFormat("table-key-%02d", i))
            .ok())
        << i;
  }
}

TEST(ForeignDatabaseTest, JavaPort) {
  // What tests/data/generators/java/MakeJavaLevelDb.java wrote before its
  // log.
  Model model;
  for (int i = 0; i < 20; ++i) {
    model[absl::StrFormat("java-key-%02d", i)] = absl::StrCat("value ", i);
  }
  model.erase("java-key-03");
  ApplyLogOps(DataDir("java_leveldb_db.expected"), &model);
  ExpectDatabase(DataDir("java_leveldb_db"), model,
                 {"java-key-03", "java-key-01", "log-a"});
}

}  // namespace
}  // namespace bloomtable
