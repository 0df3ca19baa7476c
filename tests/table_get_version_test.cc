// Table::GetVersion on tables of LevelDB internal keys: the newest version of
// a user key at or below a sequence number, deletion markers included. The
// lookup seeks to (user key, sequence, type); internal keys of one user key
// order by (sequence, type) descending, so the seek must carry the largest
// type (a value) for a value written at exactly that sequence to be found.
// Checked on a hand-made key whose values and deletion sit at the sequence
// boundaries, and against a model (every version of every key, every
// sequence) on tables whose blocks split one key's versions; the pinning
// GetVersion (into a PinnedValue) answers each lookup as the copying one.
// MultiGetVersion answers every key of a batch (repeated, unordered, absent
// keys among them) as GetVersion does, and reads each data block it needs once.

#include <algorithm>
#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "bloomtable/file.h"
#include "bloomtable/filter_policy.h"
#include "bloomtable/options.h"
#include "bloomtable/pinned_value.h"
#include "bloomtable/table.h"
#include "bloomtable/table_builder.h"
#include "gtest/gtest.h"
#include "table/internal_key.h"

namespace bloomtable {
namespace {

struct Version {
  uint64_t sequence;
  bool deletion;
  std::string value;
};

// Every key's versions, newest first, in internal-key order.
using Versions = std::map<std::string, std::vector<Version>>;

Options InternalOptions(size_t block_size) {
  Options options;
  options.key_format = KeyFormat::kLevelDBInternal;
  options.block_size = block_size;
  options.block_restart_interval = 2;
  options.filter_policy = NewLevelDBBloomFilterPolicy(10);
  return options;
}

std::unique_ptr<Table> Build(const Options& options, const Versions& versions) {
  StringWritableFile file;
  TableBuilder builder(options, &file);
  for (const auto& [user_key, list] : versions) {
    for (const Version& v : list) {
      std::string key;
      AppendInternalKey(&key, user_key, v.sequence,
                        v.deletion ? ValueType::kDeletion : ValueType::kValue);
      EXPECT_TRUE(builder.Add(key, v.value).ok());
    }
  }
  EXPECT_TRUE(builder.Finish().ok());
  auto table = Table::Open(options, NewMemoryRandomAccessFile(file.contents()),
                           file.contents().size());
  EXPECT_TRUE(table.ok()) << table.status();
  return table.ok() ? *std::move(table) : nullptr;
}

// What GetVersion found, as one string: "v@7", "del@5" or "not found".
// The pinning GetVersion must find the same: the value pinned to its block,
// nothing for a deletion or an absent key.
std::string Lookup(const Table& table, const std::string& user_key,
                   uint64_t max_sequence) {
  KeyVersion version;
  const absl::Status status =
      table.GetVersion(ReadOptions(), user_key, max_sequence, &version);
  KeyVersion pinned_version;
  PinnedValue pinned;
  pinned.CopyFrom("stale");
  EXPECT_EQ(table.GetVersion(ReadOptions(), user_key, max_sequence,
                             &pinned_version, &pinned),
            status)
      << user_key << "@" << max_sequence;
  if (status.ok()) {
    EXPECT_EQ(pinned_version.sequence, version.sequence);
    EXPECT_EQ(pinned_version.deleted, version.deleted);
    EXPECT_TRUE(pinned_version.value.empty());
    EXPECT_EQ(pinned.view(), version.value);
    EXPECT_EQ(pinned.pinned(), !version.deleted);
  } else {
    EXPECT_TRUE(pinned.empty());
    EXPECT_FALSE(pinned.pinned());
  }
  if (absl::IsNotFound(status)) return "not found";
  if (!status.ok()) return status.ToString();
  return version.deleted ? absl::StrCat("del@", version.sequence)
                         : absl::StrCat(version.value, "@", version.sequence);
}

// The model's answer.
std::string Expect(const std::vector<Version>& list, uint64_t max_sequence) {
  for (const Version& v : list) {  // newest first
    if (v.sequence > max_sequence) continue;
    return v.deletion ? absl::StrCat("del@", v.sequence)
                      : absl::StrCat(v.value, "@", v.sequence);
  }
  return "not found";
}

TEST(TableGetVersion, ValueAndDeletionAtTheExactSequence) {
  const Versions versions = {
      {"j", {{4, false, "j4"}}},
      {"k",
       {{9, false, "k9"}, {7, true, ""}, {5, false, "k5"}, {3, false, "k3"}}},
      {"l", {{1, false, "l1"}}},
  };
  std::unique_ptr<Table> table = Build(InternalOptions(4096), versions);
  ASSERT_NE(table, nullptr);
  EXPECT_EQ(Lookup(*table, "k", kMaxSequenceNumber), "k9@9");
  EXPECT_EQ(Lookup(*table, "k", 10), "k9@9");
  // A value written at exactly the sequence asked for is visible.
  EXPECT_EQ(Lookup(*table, "k", 9), "k9@9");
  EXPECT_EQ(Lookup(*table, "k", 8), "del@7");
  // So is a deletion.
  EXPECT_EQ(Lookup(*table, "k", 7), "del@7");
  EXPECT_EQ(Lookup(*table, "k", 6), "k5@5");
  EXPECT_EQ(Lookup(*table, "k", 5), "k5@5");
  EXPECT_EQ(Lookup(*table, "k", 4), "k3@3");
  EXPECT_EQ(Lookup(*table, "k", 3), "k3@3");
  // Older than every version of "k": not found, and never "l"'s version.
  EXPECT_EQ(Lookup(*table, "k", 2), "not found");
  EXPECT_EQ(Lookup(*table, "j", 4), "j4@4");
  EXPECT_EQ(Lookup(*table, "j", 3), "not found");
  EXPECT_EQ(Lookup(*table, "l", 1), "l1@1");
  EXPECT_EQ(Lookup(*table, "l", 0), "not found");
  EXPECT_EQ(Lookup(*table, "m", kMaxSequenceNumber), "not found");
}

TEST(TableGetVersion, EveryKeyAtEverySequenceAsTheModelSays) {
  std::mt19937 rng(4711);
  Versions versions;
  uint64_t sequence = 0;
  // Sequences are handed out in time order over random keys, as a database
  // writes them; a key keeps its versions newest first.
  std::map<std::string, std::vector<Version>> oldest_first;
  for (int i = 0; i < 3000; ++i) {
    const std::string key = absl::StrFormat("user%03d", rng() % 150);
    const bool deletion = rng() % 4 == 0;
    ++sequence;
    oldest_first[key].push_back(
        {sequence, deletion,
         deletion ? "" : absl::StrFormat("%s=%d", key, sequence)});
  }
  for (auto& [key, list] : oldest_first) {
    versions[key].assign(list.rbegin(), list.rend());
  }
  // Small blocks: one key's versions span several blocks.
  for (size_t block_size : {64, 1024}) {
    SCOPED_TRACE(absl::StrCat("block size ", block_size));
    std::unique_ptr<Table> table = Build(InternalOptions(block_size), versions);
    ASSERT_NE(table, nullptr);
    int exact_values = 0;
    for (const auto& [key, list] : versions) {
      // Each version's sequence and its neighbours: where the seek's type
      // decides the answer.
      std::vector<uint64_t> asked = {0, sequence + 1, kMaxSequenceNumber};
      for (const Version& v : list) {
        asked.insert(asked.end(), {v.sequence - 1, v.sequence, v.sequence + 1});
      }
      for (uint64_t s : asked) {
        ASSERT_EQ(Lookup(*table, key, s), Expect(list, s))
            << key << " at sequence " << s;
      }
      for (const Version& v : list) exact_values += v.deletion ? 0 : 1;
      // Keys between and after the written ones have no version.
      EXPECT_EQ(Lookup(*table, key + "!", sequence), "not found");
    }
    EXPECT_GT(exact_values, 1000);
  }
}

TEST(TableGetVersion, MultiGetVersionAnswersEachKeyAsGetVersion) {
  std::mt19937 rng(815);
  std::map<std::string, std::vector<Version>> oldest_first;
  uint64_t sequence = 0;
  for (int i = 0; i < 1500; ++i) {
    const std::string key = absl::StrFormat("user%03d", rng() % 120);
    const bool deletion = rng() % 4 == 0;
    ++sequence;
    oldest_first[key].push_back(
        {sequence, deletion,
         deletion ? "" : absl::StrFormat("%s=%d", key, sequence)});
  }
  Versions versions;
  for (auto& [key, list] : oldest_first) {
    versions[key].assign(list.rbegin(), list.rend());
  }
  std::unique_ptr<Table> table = Build(InternalOptions(256), versions);
  ASSERT_NE(table, nullptr);
  std::vector<std::string> keys;
  for (int k = 0; k < 130; ++k) keys.push_back(absl::StrFormat("user%03d", k));
  keys.push_back("user005!");
  for (int d = 0; d < 30; ++d) keys.push_back(keys[rng() % keys.size()]);
  std::shuffle(keys.begin(), keys.end(), rng);
  const std::vector<std::string_view> views(keys.begin(), keys.end());
  int values = 0;
  // Every sequence written, so that each version is asked for at exactly
  // its own sequence (where the seek's type decides the answer), and those
  // around them.
  std::vector<uint64_t> asked = {0, kMaxSequenceNumber};
  for (uint64_t s = 1; s <= sequence + 1; ++s) asked.push_back(s);
  for (uint64_t s : asked) {
    const std::vector<absl::StatusOr<KeyVersion>> got =
        table->MultiGetVersion(ReadOptions(), views, s);
    ASSERT_EQ(got.size(), keys.size());
    for (size_t i = 0; i < keys.size(); ++i) {
      std::string answer = "not found";
      if (got[i].ok()) {
        answer = got[i]->deleted
                     ? absl::StrCat("del@", got[i]->sequence)
                     : absl::StrCat(got[i]->value, "@", got[i]->sequence);
        values += got[i]->deleted ? 0 : 1;
      } else {
        EXPECT_TRUE(absl::IsNotFound(got[i].status())) << got[i].status();
      }
      ASSERT_EQ(answer, Lookup(*table, keys[i], s))
          << keys[i] << " at sequence " << s;
    }
  }
  EXPECT_GT(values, 300);
  // One read per distinct block: every block of the table once, at most.
  const uint64_t before = table->GetStats().data_block_reads;
  table->MultiGetVersion(ReadOptions(), views, kMaxSequenceNumber);
  EXPECT_LE(table->GetStats().data_block_reads - before,
            table->IndexEntries().size());
  EXPECT_LT(table->GetStats().data_block_reads - before, keys.size());
}

TEST(TableGetVersion, MultiGetVersionRefusesAPlainTable) {
  Options options;
  StringWritableFile file;
  TableBuilder builder(options, &file);
  ASSERT_TRUE(builder.Add("a", "1").ok());
  ASSERT_TRUE(builder.Finish().ok());
  auto table = Table::Open(options, NewMemoryRandomAccessFile(file.contents()),
                           file.contents().size());
  ASSERT_TRUE(table.ok()) << table.status();
  const std::vector<absl::StatusOr<KeyVersion>> got =
      (*table)->MultiGetVersion(ReadOptions(), {"a", "b"}, 5);
  ASSERT_EQ(got.size(), 2u);
  for (const auto& result : got) {
    EXPECT_EQ(result.status().code(), absl::StatusCode::kInvalidArgument);
  }
}

}  // namespace
}  // namespace bloomtable
