// The bloomtable tool against LevelDB: `build` writes byte for byte what
// leveldb::TableBuilder writes for the same input and options; the tool
// reads tables LevelDB wrote (plain keys, golden output) and a real
// leveldb::DB's .ldb files (internal keys, with --internal_keys).

#include <leveldb/db.h>
#include <leveldb/filter_policy.h>
#include <leveldb/options.h>
#include <leveldb/write_batch.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/compat/leveldb_files.h"
#include "tests/tool_test_util.h"
#include "util/string_util.h"

namespace bloomtable {
namespace tool_test {
namespace {

using compat_test::BuildWithLevelDB;
using compat_test::KeyValue;
using compat_test::SameBytes;
using ::testing::HasSubstr;

// Sorted entries: random binary keys and values, plus numbered keys that
// share long prefixes (so that index separators get shortened).
std::vector<KeyValue> Entries(uint32_t seed, int count) {
  std::mt19937 rng(seed);
  std::map<std::string, std::string> entries;
  while (static_cast<int>(entries.size()) < count) {
    std::string key;
    if (entries.size() % 2 == 0) {
      key = absl::StrFormat("user:%010d", static_cast<int>(rng() % 1000000));
    } else {
      key.resize(1 + rng() % 20);
      for (char& c : key) c = static_cast<char>(rng());
    }
    std::string value(rng() % 120, '\0');
    for (size_t i = 0; i < value.size(); ++i) {
      // Half the values compress well, half do not.
      value[i] = entries.size() % 2 == 0 ? static_cast<char>('a' + i % 3)
                                         : static_cast<char>(rng());
    }
    entries[key] = value;
  }
  return std::vector<KeyValue>(entries.begin(), entries.end());
}

// `entries` as hex input lines, in a shuffled order (build sorts).
std::string ShuffledHexInput(std::vector<KeyValue> entries, uint32_t seed) {
  std::shuffle(entries.begin(), entries.end(), std::mt19937(seed));
  std::string text;
  for (const KeyValue& entry : entries) {
    absl::StrAppend(&text, Hex(entry.first), "\t", Hex(entry.second), "\n");
  }
  return text;
}

std::string HexScanOutput(const std::vector<KeyValue>& entries) {
  std::string text;
  for (const KeyValue& entry : entries) {
    absl::StrAppend(&text, Hex(entry.first), "\t", Hex(entry.second), "\n");
  }
  return text;
}

class ToolCompatTest : public testing::Test {
 protected:
  void SetUp() override { BLOOMTABLE_REQUIRE_TOOL(); }
  TempDir dir_;
};

// One set of options, in both spellings.
struct OptionCase {
  std::vector<std::string> tool_flags;
  size_t block_size = 4096;
  int restart_interval = 16;
  bool snappy = true;
  int bloom_bits = 10;  // 0: no filter policy
};

TEST_F(ToolCompatTest, BuildWritesWhatLevelDBTableBuilderWrites) {
  const std::vector<OptionCase> cases = {
      {{}},  // both sides' defaults, with the tool's default filter
      {{"--block_size", "256", "--block_restart_interval", "4"}, 256, 4},
      {{"--compression", "none", "--bits_per_key", "7"}, 4096, 16, false, 7},
      {{"--filter", "none"}, 4096, 16, true, 0},
      {{"--bits_per_key", "0", "--block_size", "1024"}, 1024, 16, true, 0},
      {{"--block_size", "1", "--block_restart_interval", "1", "--bits_per_key",
        "20"},
       1,
       1,
       true,
       20},
  };
  const std::vector<KeyValue> entries = Entries(1, 2000);
  const std::string input = dir_.File("input.hex");
  WriteFile(input, ShuffledHexInput(entries, 2));
  for (const OptionCase& c : cases) {
    leveldb::Options options;
    options.block_size = c.block_size;
    options.block_restart_interval = c.restart_interval;
    options.compression =
        c.snappy ? leveldb::kSnappyCompression : leveldb::kNoCompression;
    std::unique_ptr<const leveldb::FilterPolicy> policy(
        c.bloom_bits > 0 ? leveldb::NewBloomFilterPolicy(c.bloom_bits)
                         : nullptr);
    options.filter_policy = policy.get();
    const std::string theirs = BuildWithLevelDB(options, entries);

    const std::string out = dir_.File("ours.tbl");
    std::vector<std::string> args = {"build",          out,  "--input", input,
                                     "--input_format", "hex"};
    args.insert(args.end(), c.tool_flags.begin(), c.tool_flags.end());
    const ToolResult result = RunTool(args);
    ASSERT_EQ(result.exit_status, kSuccess) << result;
    EXPECT_TRUE(SameBytes(ReadFile(out), theirs))
        << absl::StrJoin(c.tool_flags, " ");
  }
}

TEST_F(ToolCompatTest, ReadsATableLevelDBWrote) {
  const std::vector<KeyValue> entries = Entries(3, 1500);
  leveldb::Options options;
  std::unique_ptr<const leveldb::FilterPolicy> policy(
      leveldb::NewBloomFilterPolicy(10));
  options.filter_policy = policy.get();
  const std::string path = dir_.File("leveldb.tbl");
  WriteFile(path, BuildWithLevelDB(options, entries));

  const ToolResult verify = RunTool({"verify", path});
  EXPECT_EQ(verify.exit_status, kSuccess) << verify;
  EXPECT_EQ(verify.out, path + ": OK\n");

  const ToolResult scan = RunTool({"scan", path, "--hex"});
  ASSERT_EQ(scan.exit_status, kSuccess) << scan;
  EXPECT_EQ(scan.out, HexScanOutput(entries));

  for (size_t i = 0; i < entries.size(); i += 97) {
    const ToolResult get =
        RunTool({"get", path, "--hex", Hex(entries[i].first)});
    EXPECT_EQ(get.exit_status, kSuccess) << get;
    EXPECT_EQ(get.out, Hex(entries[i].second) + "\n");
  }
  const ToolResult absent = RunTool({"get", path, "user:absent"});
  EXPECT_EQ(absent.exit_status, kKeyNotFound);

  const ToolResult dump = RunTool({"dump", path, "--json", "--blocks"});
  ASSERT_EQ(dump.exit_status, kSuccess) << dump;
  const nlohmann::json json = nlohmann::json::parse(dump.out);
  EXPECT_EQ(json["data"]["entries"], entries.size());
  ASSERT_EQ(json["filters"].size(), 1u);
  EXPECT_EQ(json["filters"][0]["policy"], "leveldb.BuiltinBloomFilter2");
  EXPECT_EQ(json["filters"][0]["keys_covered"], entries.size());
  EXPECT_EQ(json["filters"][0]["min_probes"], 6);
  EXPECT_EQ(json["data_blocks"][0]["first_key"]["hex"],
            Hex(entries.front().first));
  EXPECT_EQ(json["data_blocks"].back()["last_key"]["hex"],
            Hex(entries.back().first));
}

TEST_F(ToolCompatTest, DumpOfLevelDBsTableEqualsDumpOfOurs) {
  const std::vector<KeyValue> entries = Entries(4, 300);
  leveldb::Options options;
  options.block_size = 512;
  std::unique_ptr<const leveldb::FilterPolicy> policy(
      leveldb::NewBloomFilterPolicy(10));
  options.filter_policy = policy.get();
  const std::string theirs = dir_.File("theirs.tbl");
  WriteFile(theirs, BuildWithLevelDB(options, entries));
  const std::string input = dir_.File("input.hex");
  WriteFile(input, ShuffledHexInput(entries, 5));
  const std::string ours = dir_.File("ours.tbl");
  ASSERT_EQ(RunTool({"build", ours, "--input", input, "--input_format", "hex",
                     "--block_size", "512"})
                .exit_status,
            kSuccess);
  for (const std::string subcommand : {"dump", "stats"}) {
    std::vector<std::string> flags = {"--json"};
    if (subcommand == "dump") flags.push_back("--keys");
    std::vector<std::string> their_args = {subcommand, theirs};
    std::vector<std::string> our_args = {subcommand, ours};
    their_args.insert(their_args.end(), flags.begin(), flags.end());
    our_args.insert(our_args.end(), flags.begin(), flags.end());
    nlohmann::json their_json = nlohmann::json::parse(RunTool(their_args).out);
    nlohmann::json our_json = nlohmann::json::parse(RunTool(our_args).out);
    their_json.erase("file");
    our_json.erase("file");
    EXPECT_EQ(our_json, their_json) << subcommand;
  }
}

// Golden output on a table leveldb::TableBuilder wrote from small.tsv's
// entries, as plain keys.
TEST_F(ToolCompatTest, GoldenOutputOnALevelDBTable) {
  // small.tsv, unescaped and sorted, as the build golden file reads it.
  std::vector<KeyValue> entries = {
      {"-dash", "a key that starts with a dash"},
      {"apple", "red"},
      {"back\\slash", "a \\ backslash"},
      {"banana", "yellow"},
      {std::string("bin\0\xff", 5), "\x01\x02 binary"},
      {"cherry", "dark red"},
      {"empty-value", ""},
      {"fig", "purple"},
      {"grape", "green or red"},
      {"kiwi", "brown outside, green inside"},
      {"lemon", "yellow and sour"},
      {"mango", "orange"},
      {"pear", "green\tfruit"},
      {"plum", "purple"},
      {"quince", "yellow, hard"},
  };
  leveldb::Options options;
  options.block_size = 64;
  options.block_restart_interval = 2;
  std::unique_ptr<const leveldb::FilterPolicy> policy(
      leveldb::NewBloomFilterPolicy(10));
  options.filter_policy = policy.get();
  WriteFile(dir_.File("leveldb.tbl"), BuildWithLevelDB(options, entries));
  RunGoldenFile("leveldb_table.golden", dir_);
}

// ---------------------------------------------------------------------------
// A real LevelDB database's table files.

struct Version {
  uint64_t sequence;
  bool deleted;
  std::string value;
};

// One line of `scan --internal_keys`: user key, sequence, put|del, value.
struct ScanLine {
  std::string user_key;
  uint64_t sequence = 0;
  std::string type;
  std::string value;
};

std::vector<ScanLine> ParseInternalScan(const std::string& out) {
  std::vector<ScanLine> lines;
  for (absl::string_view line : absl::StrSplit(out, '\n', absl::SkipEmpty())) {
    std::vector<std::string> fields = absl::StrSplit(line, '\t');
    EXPECT_EQ(fields.size(), 4u) << line;
    if (fields.size() != 4) continue;
    ScanLine parsed;
    parsed.user_key = fields[0];
    EXPECT_TRUE(absl::SimpleAtoi(fields[1], &parsed.sequence)) << line;
    parsed.type = fields[2];
    parsed.value = fields[3];
    lines.push_back(parsed);
  }
  return lines;
}

class ToolLevelDBDatabaseTest : public ToolCompatTest {
 protected:
  // Writes keys 0..kKeys-1 (16-digit decimals), then, holding a snapshot so
  // that compaction keeps old versions and deletion markers, overwrites
  // every third key and deletes every fifth, and compacts everything into
  // .ldb files. Fills expected_ with the newest version of each key.
  void MakeDatabase() {
    db_dir_ = dir_.File("db");
    leveldb::Options options;
    options.create_if_missing = true;
    options.filter_policy = policy_.get();
    options.block_size = 1024;
    leveldb::DB* raw_db = nullptr;
    ASSERT_TRUE(leveldb::DB::Open(options, db_dir_, &raw_db).ok());
    std::unique_ptr<leveldb::DB> db(raw_db);
    uint64_t sequence = 0;
    for (int i = 0; i < kKeys; ++i) {
      const std::string value = absl::StrCat("first-", i);
      ASSERT_TRUE(db->Put(leveldb::WriteOptions(), Key(i), value).ok());
      expected_[Key(i)] = {++sequence, false, value};
    }
    db->CompactRange(nullptr, nullptr);
    const leveldb::Snapshot* snapshot = db->GetSnapshot();
    for (int i = 0; i < kKeys; ++i) {
      if (i % 3 == 0) {
        const std::string value = absl::StrCat("second-", i);
        ASSERT_TRUE(db->Put(leveldb::WriteOptions(), Key(i), value).ok());
        expected_[Key(i)] = {++sequence, false, value};
      }
      if (i % 5 == 0) {
        ASSERT_TRUE(db->Delete(leveldb::WriteOptions(), Key(i)).ok());
        expected_[Key(i)] = {++sequence, true, ""};
      }
    }
    db->CompactRange(nullptr, nullptr);
    db->ReleaseSnapshot(snapshot);
    db.reset();
    for (const auto& entry : std::filesystem::directory_iterator(db_dir_)) {
      if (entry.path().extension() == ".ldb") tables_.push_back(entry.path());
    }
    std::sort(tables_.begin(), tables_.end());
    ASSERT_FALSE(tables_.empty());
  }

  static std::string Key(int i) { return absl::StrFormat("%016d", i); }

  static constexpr int kKeys = 3000;
  std::unique_ptr<const leveldb::FilterPolicy> policy_{
      leveldb::NewBloomFilterPolicy(10)};
  std::string db_dir_;
  std::vector<std::string> tables_;
  std::map<std::string, Version> expected_;
};

TEST_F(ToolLevelDBDatabaseTest, VerifiesItsFilesWithInternalKeys) {
  MakeDatabase();
  std::vector<std::string> args = {"verify", "--internal_keys"};
  args.insert(args.end(), tables_.begin(), tables_.end());
  const ToolResult result = RunTool(args);
  EXPECT_EQ(result.exit_status, kSuccess) << result;
  for (const std::string& table : tables_) {
    EXPECT_THAT(result.out, HasSubstr(table + ": OK\n"));
  }
  // Without --internal_keys the keys do not match the filter (which holds
  // user keys) or their order: the tool says what to try.
  const ToolResult plain = RunTool({"verify", tables_[0]});
  EXPECT_EQ(plain.exit_status, kDamaged) << plain;
  EXPECT_THAT(plain.out, HasSubstr("--internal_keys"));
}

TEST_F(ToolLevelDBDatabaseTest, VerifyWithoutTheFlagSuggestsItWhenAllElseIsOK) {
  // A database without a filter, each key written once: its files' keys are
  // in plain order too, so only their shape tells them apart.
  const std::string db_dir = dir_.File("plain_db");
  leveldb::Options options;
  options.create_if_missing = true;
  leveldb::DB* raw_db = nullptr;
  ASSERT_TRUE(leveldb::DB::Open(options, db_dir, &raw_db).ok());
  std::unique_ptr<leveldb::DB> db(raw_db);
  for (int i = 0; i < 500; ++i) {
    ASSERT_TRUE(db->Put(leveldb::WriteOptions(), Key(i), "v").ok());
  }
  db->CompactRange(nullptr, nullptr);
  db.reset();
  std::vector<std::string> tables;
  for (const auto& entry : std::filesystem::directory_iterator(db_dir)) {
    if (entry.path().extension() == ".ldb") tables.push_back(entry.path());
  }
  ASSERT_FALSE(tables.empty());
  for (const std::string& table : tables) {
    const ToolResult plain = RunTool({"verify", table});
    EXPECT_EQ(plain.exit_status, kSuccess) << plain;
    EXPECT_EQ(plain.out, table + ": OK\n");
    EXPECT_THAT(plain.err, HasSubstr("with --internal_keys"));
    const ToolResult internal = RunTool({"verify", "--internal_keys", table});
    EXPECT_EQ(internal.exit_status, kSuccess) << internal;
    EXPECT_EQ(internal.err, "");
  }
}

TEST_F(ToolLevelDBDatabaseTest, ScanShowsEveryVersionNewestFirst) {
  MakeDatabase();
  std::map<std::string, std::vector<ScanLine>> versions;
  for (const std::string& table : tables_) {
    const ToolResult result = RunTool({"scan", table, "--internal_keys"});
    ASSERT_EQ(result.exit_status, kSuccess) << result;
    for (ScanLine& line : ParseInternalScan(result.out)) {
      versions[line.user_key].push_back(std::move(line));
    }
  }
  EXPECT_EQ(versions.size(), expected_.size());
  int keys_with_history = 0;
  for (const auto& [user_key, lines] : versions) {
    auto expected = expected_.find(user_key);
    ASSERT_NE(expected, expected_.end()) << user_key;
    ASSERT_FALSE(lines.empty());
    // Newest first.
    for (size_t i = 1; i < lines.size(); ++i) {
      EXPECT_GT(lines[i - 1].sequence, lines[i].sequence) << user_key;
    }
    EXPECT_EQ(lines[0].sequence, expected->second.sequence) << user_key;
    EXPECT_EQ(lines[0].type, expected->second.deleted ? "del" : "put");
    EXPECT_EQ(lines[0].value, expected->second.value);
    if (lines.size() > 1) ++keys_with_history;
  }
  // Every third or fifth key has an older version kept by the snapshot.
  EXPECT_GT(keys_with_history, kKeys / 3);

  // A user-key range, in reverse.
  const ToolResult range = RunTool(
      {"scan", tables_[0], "--internal_keys", "--reverse", "--limit", "3"});
  ASSERT_EQ(range.exit_status, kSuccess);
  const std::vector<ScanLine> last = ParseInternalScan(range.out);
  ASSERT_EQ(last.size(), 3u);
  EXPECT_TRUE(last[0].user_key > last[2].user_key ||
              (last[0].user_key == last[2].user_key &&
               last[0].sequence < last[2].sequence));
}

TEST_F(ToolLevelDBDatabaseTest, GetFindsTheNewestVersionByUserKey) {
  MakeDatabase();
  // Which table holds which user keys.
  std::map<std::string, std::string> table_of;
  for (const std::string& table : tables_) {
    for (const ScanLine& line :
         ParseInternalScan(RunTool({"scan", table, "--internal_keys"}).out)) {
      table_of[line.user_key] = table;
    }
  }
  for (int i = 0; i < kKeys; i += 37) {
    const std::string key = Key(i);
    const Version& expected = expected_[key];
    const ToolResult result =
        RunTool({"get", table_of[key], key, "--internal_keys"});
    if (expected.deleted) {
      EXPECT_EQ(result.exit_status, kKeyNotFound) << key << "\n" << result;
    } else {
      EXPECT_EQ(result.exit_status, kSuccess) << key << "\n" << result;
      EXPECT_EQ(result.out, expected.value + "\n");
    }
  }
  // Absent user keys between present ones: the filter (over user keys)
  // answers "absent" for most.
  int absent_by_filter = 0;
  for (int i = 0; i < 20; ++i) {
    const std::string key = Key(i * 100) + "x";
    const ToolResult result =
        RunTool({"get", tables_[0], key, "--internal_keys"});
    EXPECT_EQ(result.exit_status, kKeyNotFound) << result;
    if (StartsWith(result.err, "filter: absent")) ++absent_by_filter;
  }
  EXPECT_GE(absent_by_filter, 10);
}

TEST_F(ToolLevelDBDatabaseTest, DumpAndStatsShowInternalKeys) {
  MakeDatabase();
  const std::string& table = tables_[0];
  const ToolResult dump =
      RunTool({"dump", table, "--internal_keys", "--json", "--keys"});
  ASSERT_EQ(dump.exit_status, kSuccess) << dump;
  const nlohmann::json json = nlohmann::json::parse(dump.out);
  const uint64_t entries = json["data"]["entries"];
  ASSERT_EQ(json["filters"].size(), 1u);
  // The per-block filter gets one user key per entry, versions included.
  EXPECT_EQ(json["filters"][0]["keys_covered"], entries);
  EXPECT_EQ(json["filters"][0]["policy"], "leveldb.BuiltinBloomFilter2");
  const nlohmann::json& first = json["data_blocks"][0]["entry_list"][0]["key"];
  EXPECT_TRUE(first.contains("user_key"));
  EXPECT_TRUE(first.contains("sequence"));
  EXPECT_THAT(first["type"].get<std::string>(), testing::AnyOf("put", "del"));
  EXPECT_EQ(first["user_key"].get<std::string>().size(), 16u);
  // Index separators are internal keys too.
  EXPECT_TRUE(json["index"][0]["key"].contains("sequence"));

  const ToolResult text =
      RunTool({"dump", table, "--internal_keys", "--blocks"});
  EXPECT_THAT(text.out, testing::ContainsRegex(
                            "first key: '[0-9]{16}' @ [0-9]+ : (put|del)"));

  const ToolResult stats =
      RunTool({"stats", table, "--internal_keys", "--json"});
  ASSERT_EQ(stats.exit_status, kSuccess) << stats;
  const nlohmann::json stats_json = nlohmann::json::parse(stats.out);
  EXPECT_EQ(stats_json["entries"], entries);
  // User keys: the 8-byte tag is not counted.
  EXPECT_EQ(stats_json["key_size"]["min"], 16);
  EXPECT_EQ(stats_json["key_size"]["max"], 16);
}

}  // namespace
}  // namespace tool_test
}  // namespace bloomtable
