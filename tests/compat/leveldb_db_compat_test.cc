// Reading a LevelDB database's own table files (.ldb): internal keys (user
// key + 8-byte sequence/type tag), filters over user keys. Opened with
// KeyFormat::kLevelDBInternal, Get(user key) must give what the database
// gives for the newest version, a deletion must read as NotFound, and the
// filter must save reads for absent keys.

#include <leveldb/db.h>
#include <leveldb/filter_policy.h>
#include <leveldb/options.h>
#include <leveldb/write_batch.h>

#include <cstdint>
#include <cstdlib>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <regex>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "bloomtable/file.h"
#include "bloomtable/filter_policy.h"
#include "bloomtable/options.h"
#include "bloomtable/table.h"
#include "gtest/gtest.h"
#include "tests/compat/leveldb_files.h"
#include "tests/temp_dir.h"
#include "util/coding.h"

namespace bloomtable {
namespace compat_test {
namespace {

constexpr unsigned char kTypeDeletion = 0;
constexpr unsigned char kTypeValue = 1;
// The tag that sorts before every real entry of a user key: the largest
// sequence number (2^56 - 1) with type 1.
constexpr uint64_t kSeekTag = 0xffffffffffffff01ull;

std::string InternalKey(std::string_view user_key, uint64_t sequence,
                        unsigned char type) {
  std::string key(user_key);
  PutFixed64(&key, (sequence << 8) | type);
  return key;
}

struct ParsedInternalKey {
  std::string user_key;
  uint64_t sequence;
  unsigned char type;
};

ParsedInternalKey Parse(std::string_view internal_key) {
  EXPECT_GE(internal_key.size(), 8u);
  const uint64_t tag =
      DecodeFixed64(internal_key.data() + internal_key.size() - 8);
  return {std::string(internal_key.substr(0, internal_key.size() - 8)),
          tag >> 8, static_cast<unsigned char>(tag & 0xff)};
}

// Near-miss keys (docs/DESIGN.md): key i is i as a 16-digit zero-padded
// decimal.
std::string UserKey(int i) { return absl::StrFormat("%016d", i); }

// The newest entry of each user key in a table, from its entries in order.
struct Newest {
  uint64_t sequence;
  unsigned char type;
  std::string value;
  int versions;  // entries of this user key in the table
};

std::map<std::string, Newest> NewestByUserKey(
    const std::vector<KeyValue>& entries) {
  std::map<std::string, Newest> newest;
  for (const KeyValue& entry : entries) {
    ParsedInternalKey parsed = Parse(entry.first);
    auto it = newest.find(parsed.user_key);
    if (it == newest.end()) {
      newest[parsed.user_key] = {parsed.sequence, parsed.type, entry.second, 1};
    } else {
      EXPECT_LT(parsed.sequence, it->second.sequence)
          << "versions out of order for " << parsed.user_key;
      ++it->second.versions;
    }
  }
  return newest;
}

struct OpenedTable {
  std::unique_ptr<Table> table;
  std::shared_ptr<FileReadCounters> file_reads;
};

OpenedTable OpenInternal(const std::string& contents, int bloom_bits) {
  Options options;
  options.key_format = KeyFormat::kLevelDBInternal;
  options.filter_policy = NewLevelDBBloomFilterPolicy(bloom_bits);
  OpenedTable opened;
  opened.file_reads = std::make_shared<FileReadCounters>();
  auto table =
      Table::Open(options,
                  NewCountingRandomAccessFile(
                      NewMemoryRandomAccessFile(contents), opened.file_reads),
                  contents.size());
  EXPECT_TRUE(table.ok()) << table.status();
  if (table.ok()) opened.table = std::move(*table);
  return opened;
}

// The value Get finds, "<NotFound>", or the error, for EXPECT_EQ.
std::string ValueOrError(const Table& table, std::string_view key) {
  absl::StatusOr<std::string> value = table.Get(ReadOptions(), key);
  if (value.ok()) return *value;
  if (absl::IsNotFound(value.status())) return "<NotFound>";
  return absl::StrCat("<error: ", value.status().ToString(), ">");
}

std::vector<KeyValue> ReadAllWithUs(const Table& table) {
  std::vector<KeyValue> entries;
  std::unique_ptr<Iterator> it = table.NewIterator(ReadOptions());
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    entries.emplace_back(std::string(it->key()), std::string(it->value()));
  }
  EXPECT_TRUE(it->status().ok()) << it->status();
  return entries;
}

// Checks Get(user key) against the newest entry of every user key in
// `entries` (the table's entries as LevelDB reads them), Seek to a user
// key's first entry, and absent keys through the filter.
void ExpectNewestEntryWins(const OpenedTable& opened,
                           const std::vector<KeyValue>& entries,
                           const std::vector<std::string>& absent_user_keys) {
  ASSERT_NE(opened.table, nullptr);
  const Table& table = *opened.table;
  EXPECT_EQ(table.filter_info().metaindex_key,
            "filter.leveldb.BuiltinBloomFilter2");
  EXPECT_TRUE(table.filter_info().in_use) << table.filter_info().unused_reason;
  EXPECT_EQ(ReadAllWithUs(table), entries);

  const std::map<std::string, Newest> newest = NewestByUserKey(entries);
  std::unique_ptr<Iterator> it = table.NewIterator(ReadOptions());
  for (const auto& [user_key, entry] : newest) {
    absl::StatusOr<std::string> value = table.Get(ReadOptions(), user_key);
    if (entry.type == kTypeValue) {
      ASSERT_TRUE(value.ok()) << user_key << ": " << value.status();
      EXPECT_EQ(*value, entry.value) << user_key;
    } else {
      EXPECT_TRUE(absl::IsNotFound(value.status()))
          << user_key << " was deleted, but Get says " << value.status();
    }
    std::string seek_target = user_key;
    PutFixed64(&seek_target, kSeekTag);
    it->Seek(seek_target);
    ASSERT_TRUE(it->Valid()) << user_key << " " << it->status();
    EXPECT_EQ(std::string(it->key()),
              InternalKey(user_key, entry.sequence, entry.type));
  }

  uint64_t rejected_by_filter = 0;
  for (const std::string& user_key : absent_user_keys) {
    if (newest.count(user_key) != 0) continue;
    const TableStats before = table.GetStats();
    const uint64_t file_reads_before = opened.file_reads->reads.load();
    absl::StatusOr<std::string> value = table.Get(ReadOptions(), user_key);
    EXPECT_TRUE(absl::IsNotFound(value.status()))
        << user_key << ": " << value.status();
    const TableStats after = table.GetStats();
    if (after.filter_negatives > before.filter_negatives) {
      ++rejected_by_filter;
      EXPECT_EQ(after.data_block_reads, before.data_block_reads);
      EXPECT_EQ(opened.file_reads->reads.load(), file_reads_before)
          << "a key the filter rejected still read the file";
    }
  }
  EXPECT_GT(rejected_by_filter, 0u);
}

// ---------------------------------------------------------------------------
// A real database.

class LevelDBDatabaseTest : public testing::Test {
 protected:
  const TempDir temp_dir_;
  const std::string dir_ = temp_dir_.path();
};

// The live table files of `db`, from its "leveldb.sstables" property
// (lines like " 12:2097152['key' @ 5 : 1 .. 'key' @ 9 : 1]").
std::vector<std::string> LiveTableFiles(leveldb::DB* db,
                                        const std::string& dir) {
  std::string description;
  EXPECT_TRUE(db->GetProperty("leveldb.sstables", &description));
  std::vector<std::string> files;
  const std::regex file_line(R"(^ (\d+):(\d+)\[)");
  std::smatch match;
  size_t start = 0;
  while (start < description.size()) {
    size_t end = description.find('\n', start);
    if (end == std::string::npos) end = description.size();
    const std::string line = description.substr(start, end - start);
    if (std::regex_search(line, match, file_line)) {
      files.push_back(
          absl::StrFormat("%s/%06d.ldb", dir, std::stoull(match[1].str())));
    }
    start = end + 1;
  }
  return files;
}

TEST_F(LevelDBDatabaseTest, GetMatchesTheDatabaseOnItsCompactedTables) {
  constexpr int kBloomBits = 10;
  std::unique_ptr<const leveldb::FilterPolicy> bloom(
      leveldb::NewBloomFilterPolicy(kBloomBits));
  leveldb::Options db_options;
  db_options.create_if_missing = true;
  db_options.filter_policy = bloom.get();
  // Small memtables and tables (LevelDB's minimum is 1 MB), so that a few MB
  // of writes go through several flushes and compactions into several
  // tables.
  db_options.write_buffer_size = 128 << 10;
  db_options.max_file_size = 1 << 20;
  leveldb::DB* raw_db = nullptr;
  leveldb::Status status = leveldb::DB::Open(db_options, dir_, &raw_db);
  ASSERT_TRUE(status.ok()) << status.ToString();
  std::unique_ptr<leveldb::DB> db(raw_db);

  // Even keys are written; odd keys never are (near misses for the filter).
  // Values of a few hundred bytes make about 2.5 MB: more than one table,
  // each of many blocks.
  constexpr int kKeys = 6000;
  std::mt19937_64 rng(41);
  auto value_for = [&rng](int i, int round) {
    std::string value = absl::StrCat("value ", i, " round ", round, " ");
    // Random letters: Snappy leaves them about as large as they are.
    const size_t length = 300 + rng() % 600;
    for (size_t n = 0; n < length; ++n) {
      value.push_back(static_cast<char>('a' + rng() % 26));
    }
    return value;
  };
  const leveldb::WriteOptions write_options;
  for (int i = 0; i < kKeys; i += 2) {
    ASSERT_TRUE(db->Put(write_options, UserKey(i), value_for(i, 1)).ok());
  }
  // A snapshot keeps the first round's versions through the compaction, so
  // that the tables hold overwritten values and deletions over values.
  const leveldb::Snapshot* snapshot = db->GetSnapshot();
  for (int i = 0; i < kKeys; i += 2) {
    if (i % 3 == 0) {
      ASSERT_TRUE(db->Put(write_options, UserKey(i), value_for(i, 2)).ok());
    }
    if (i % 5 == 0) {
      ASSERT_TRUE(db->Delete(write_options, UserKey(i)).ok());
    }
  }
  // Keys born and deleted after the snapshot, and deletions of keys that
  // never existed.
  for (int i = kKeys; i < kKeys + 200; i += 2) {
    ASSERT_TRUE(db->Put(write_options, UserKey(i), value_for(i, 3)).ok());
    if (i % 4 == 0) {
      ASSERT_TRUE(db->Delete(write_options, UserKey(i)).ok());
    }
  }
  ASSERT_TRUE(db->Delete(write_options, UserKey(kKeys + 1001)).ok());
  db->CompactRange(nullptr, nullptr);

  // Freeze the table files before asking the database anything.
  const std::vector<std::string> files = LiveTableFiles(db.get(), dir_);
  ASSERT_FALSE(files.empty());
  std::vector<std::string> contents;
  for (const std::string& file : files) {
    absl::StatusOr<std::string> bytes = ReadFileToString(file);
    ASSERT_TRUE(bytes.ok()) << bytes.status();
    contents.push_back(*bytes);
  }

  // The database's answers, for every key it has ever seen and the odd ones.
  std::map<std::string, std::optional<std::string>> database_answer;
  std::vector<std::string> absent_user_keys;
  for (int i = 0; i < kKeys + 1100; ++i) {
    std::string value;
    leveldb::Status got = db->Get(leveldb::ReadOptions(), UserKey(i), &value);
    ASSERT_TRUE(got.ok() || got.IsNotFound()) << got.ToString();
    database_answer[UserKey(i)] =
        got.ok() ? std::optional<std::string>(value) : std::nullopt;
    if (i % 2 == 1) absent_user_keys.push_back(UserKey(i));
  }
  db->ReleaseSnapshot(snapshot);
  db.reset();

  // Which table holds the newest version of each user key.
  std::map<std::string, std::pair<uint64_t, size_t>> newest_table;
  int deletions_over_values = 0;
  int overwritten_values = 0;
  std::vector<OpenedTable> tables;
  for (size_t t = 0; t < files.size(); ++t) {
    SCOPED_TRACE(files[t]);
    const std::vector<KeyValue> entries =
        ReadAllWithLevelDB(leveldb::Options(), contents[t]);
    ASSERT_FALSE(entries.empty());
    tables.push_back(OpenInternal(contents[t], kBloomBits));
    ExpectNewestEntryWins(tables.back(), entries, absent_user_keys);
    for (const auto& [user_key, entry] : NewestByUserKey(entries)) {
      auto& best = newest_table[user_key];
      if (best.first == 0 || entry.sequence > best.first) {
        best = {entry.sequence, t};
      }
      if (entry.versions > 1) {
        if (entry.type == kTypeDeletion) ++deletions_over_values;
        if (entry.type == kTypeValue) ++overwritten_values;
      }
    }
  }
  // The database really did leave what this test is about in its tables.
  EXPECT_GT(files.size(), 1u);
  EXPECT_GT(deletions_over_values, 0);
  EXPECT_GT(overwritten_values, 0);

  for (const auto& [user_key, answer] : database_answer) {
    auto where = newest_table.find(user_key);
    if (where == newest_table.end()) {
      EXPECT_FALSE(answer.has_value()) << user_key << " is in no table";
      for (const OpenedTable& opened : tables) {
        EXPECT_TRUE(absl::IsNotFound(
            opened.table->Get(ReadOptions(), user_key).status()));
      }
      continue;
    }
    absl::StatusOr<std::string> ours =
        tables[where->second.second].table->Get(ReadOptions(), user_key);
    if (answer.has_value()) {
      ASSERT_TRUE(ours.ok()) << user_key << ": " << ours.status();
      EXPECT_EQ(*ours, *answer) << user_key;
    } else {
      EXPECT_TRUE(absl::IsNotFound(ours.status()))
          << user_key << ": the database says deleted, we say "
          << ours.status();
    }
  }
}

// ---------------------------------------------------------------------------
// Internal-key tables we write ourselves: many versions of each user key,
// spread over tiny blocks.

std::vector<KeyValue> VersionedEntries(uint64_t seed, int user_keys,
                                       int max_versions) {
  std::mt19937_64 rng(seed);
  std::vector<KeyValue> entries;
  uint64_t sequence = 1u << 20;
  for (int i = 0; i < user_keys; i += 1) {
    const int versions = 1 + static_cast<int>(rng() % max_versions);
    for (int v = 0; v < versions; ++v) {
      const bool deletion = rng() % 3 == 0;
      entries.emplace_back(
          InternalKey(UserKey(2 * i), sequence - v * 7,
                      deletion ? kTypeDeletion : kTypeValue),
          deletion ? "" : absl::StrCat("value of ", 2 * i, " version ", v));
    }
    sequence += 100;
  }
  return entries;
}

TEST(InternalKeyTable, NewestVersionWinsAndDeletionReadsNotFound) {
  const std::vector<KeyValue> entries = VersionedEntries(51, 300, 6);
  std::vector<std::string> absent;
  for (int i = 1; i < 700; i += 2) absent.push_back(UserKey(i));
  for (size_t block_size : {1, 64, 4096}) {
    for (bool snappy : {false, true}) {
      SCOPED_TRACE(absl::StrCat("block_size=", block_size, " snappy=", snappy));
      Options options;
      options.key_format = KeyFormat::kLevelDBInternal;
      options.block_size = block_size;
      options.compression =
          snappy ? CompressionType::kSnappy : CompressionType::kNone;
      options.filter_policy = NewLevelDBBloomFilterPolicy(10);
      const std::string contents = BuildWithBloomtable(options, entries);
      EXPECT_EQ(ReadAllWithLevelDB(leveldb::Options(), contents), entries);
      ExpectNewestEntryWins(OpenInternal(contents, 10), entries, absent);
    }
  }
}

TEST(InternalKeyTable, VersionsSpanningBlocksStillGiveTheNewest) {
  // 40 versions of one user key in blocks of one entry each: the lookup must
  // land on the block holding the newest, not the last that could match.
  std::vector<KeyValue> entries;
  entries.emplace_back(InternalKey(UserKey(0), 5, kTypeValue), "before");
  for (int v = 0; v < 40; ++v) {
    entries.emplace_back(InternalKey(UserKey(2), 1000 - v, kTypeValue),
                         absl::StrCat("version ", 1000 - v));
  }
  entries.emplace_back(InternalKey(UserKey(4), 7, kTypeDeletion), "");
  for (int sequence = 6; sequence >= 1; --sequence) {
    entries.emplace_back(InternalKey(UserKey(4), sequence, kTypeValue),
                         "hidden by the deletion");
  }
  entries.emplace_back(InternalKey(UserKey(6), 1, kTypeValue), "after");
  for (size_t block_size : {1, 64}) {
    SCOPED_TRACE(absl::StrCat("block_size=", block_size));
    Options options;
    options.key_format = KeyFormat::kLevelDBInternal;
    options.block_size = block_size;
    options.filter_policy = NewLevelDBBloomFilterPolicy(10);
    const std::string contents = BuildWithBloomtable(options, entries);
    OpenedTable opened = OpenInternal(contents, 10);
    ASSERT_NE(opened.table, nullptr);
    EXPECT_EQ(ValueOrError(*opened.table, UserKey(2)), "version 1000");
    EXPECT_EQ(ValueOrError(*opened.table, UserKey(4)), "<NotFound>");
    EXPECT_EQ(ValueOrError(*opened.table, UserKey(0)), "before");
    EXPECT_EQ(ValueOrError(*opened.table, UserKey(6)), "after");
    EXPECT_EQ(ValueOrError(*opened.table, UserKey(3)), "<NotFound>");
  }
}

}  // namespace
}  // namespace compat_test
}  // namespace bloomtable
