// Database::ListVersions against a model of every write: a database written
// by the real LevelDB in layers (tables on levels 2, 1 and 0, a live log),
// with overwrites, deletes, batches and a snapshot held through a compaction
// that drops what no snapshot needs. Each listed version must be a write the
// model holds, with its value, and with the status the model gives it:
// the newest version of a key is live (a value) or deleted (a marker); an
// older one is deleted when the next newer write of the key is a deletion,
// overwritten otherwise. The statuses come from the model's own history of
// writes, never from the listing.

#include <leveldb/db.h>

#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_format.h"
#include "bloomtable/database.h"
#include "gtest/gtest.h"
#include "tests/compat/leveldb_layers.h"
#include "tests/temp_dir.h"

namespace bloomtable {
namespace compat_test {
namespace {

// What the listing must say about one version.
struct Expected {
  uint64_t sequence;
  bool deletion;
  std::string value;
  RecordStatus status;
};

// The status of each of `writes` (oldest first) with only the writes at or
// below `as_of` counted, newest first, from the model's history alone.
std::vector<Expected> ModelStatuses(const std::vector<ModelWrite>& writes,
                                    uint64_t as_of) {
  std::vector<Expected> out;
  const ModelWrite* newer = nullptr;
  for (auto it = writes.rbegin(); it != writes.rend(); ++it) {
    if (it->sequence > as_of) continue;
    RecordStatus status;
    if (newer == nullptr) {
      status = it->deletion ? RecordStatus::kDeleted : RecordStatus::kLive;
    } else {
      status =
          newer->deletion ? RecordStatus::kDeleted : RecordStatus::kOverwritten;
    }
    out.push_back(Expected{it->sequence, it->deletion, it->value, status});
    newer = &*it;
  }
  return out;
}

std::string Key(int i) { return absl::StrFormat("key%04d", i); }

class AllVersionsModelTest : public testing::Test {
 protected:
  void SetUp() override {
    LayeredLevelDB db(dir_.File("db"));
    ASSERT_TRUE(db.ok());
    std::mt19937 rng(7331);
    auto value = [&](const std::string& key) {
      return absl::StrFormat("%s@%d-%s", key, db.last_sequence() + 1,
                             std::string(rng() % 40, 'a' + rng() % 26));
    };
    // A phase of random writes over `keys` keys: puts, overwrites, deletes
    // and small batches (a put and a delete of one key among them).
    auto phase = [&](int operations, int keys) {
      for (int i = 0; i < operations; ++i) {
        const std::string key = Key(static_cast<int>(rng() % keys));
        switch (rng() % 8) {
          case 0:
          case 1:
            db.Delete(key);
            break;
          case 2: {
            const std::string other = Key(static_cast<int>(rng() % keys));
            db.Batch({{key, false, value(key)},
                      {other, true, ""},
                      {key, rng() % 2 == 0, value(key)}});
            break;
          }
          default:
            db.Put(key, value(key));
        }
      }
    };

    // Level 2 after the compaction below; versions at or below the snapshot
    // that a newer version at or below it hides are dropped there.
    phase(1500, 300);
    db.Flush();
    phase(700, 300);
    snapshot_ = db.last_sequence();
    const leveldb::Snapshot* held = db.TakeSnapshot();
    phase(700, 300);
    db.Flush();
    db.CompactAll();
    db.ReleaseSnapshot(held);
    // Three more flushes: level 1, then level 0 twice.
    for (int i = 0; i < 3; ++i) {
      phase(600, 300);
      if (i == 2) mid_level0_sequence_ = db.last_sequence() - 250;
      db.Flush();
    }
    levels_[2] = db.TablesAt(2);
    levels_[1] = db.TablesAt(1);
    levels_[0] = db.TablesAt(0);
    // The live log.
    phase(400, 300);
    writes_ = db.writes();
    last_sequence_ = db.last_sequence();
    db.Close();

    absl::StatusOr<std::unique_ptr<Database>> view =
        Database::OpenReadOnly(dir_.File("db"));
    ASSERT_TRUE(view.ok()) << view.status();
    view_ = *std::move(view);
  }

  // The listing as of `as_of` (unset: the newest state), by key, newest
  // first as ListVersions orders it.
  std::map<std::string, std::vector<VersionRecord>> List(
      std::optional<uint64_t> as_of) {
    DatabaseReadOptions options;
    options.sequence = as_of;
    std::map<std::string, std::vector<VersionRecord>> listed;
    const absl::Status status =
        view_->ListVersions(options, [&](const VersionRecord& record) {
          listed[record.user_key].push_back(record);
          return true;
        });
    EXPECT_TRUE(status.ok()) << status;
    return listed;
  }

  // Checks the listing as of `as_of` against the model, record by record.
  // LevelDB's compaction dropped some versions at or below the snapshot: of
  // those, each key keeps exactly its newest value (a newest marker is
  // dropped, having nothing below it to hide), and every version above the
  // snapshot is kept.
  void CheckAgainstModel(uint64_t as_of) {
    std::map<std::string, std::vector<VersionRecord>> listed = List(as_of);
    std::map<RecordStatus, int> counts;
    for (const auto& [key, writes] : writes_) {
      std::vector<Expected> expected;
      bool kept_below_snapshot = false;
      for (const Expected& e : ModelStatuses(writes, as_of)) {
        if (e.sequence <= snapshot_) {
          if (kept_below_snapshot) break;
          kept_below_snapshot = true;
          if (e.deletion) break;
        }
        expected.push_back(e);
      }
      const std::vector<VersionRecord>& got = listed[key];
      ASSERT_EQ(got.size(), expected.size()) << key;
      for (size_t i = 0; i < got.size(); ++i) {
        SCOPED_TRACE(absl::StrFormat("%s version %d", key, i));
        EXPECT_EQ(got[i].sequence, expected[i].sequence);
        EXPECT_EQ(got[i].deletion, expected[i].deletion);
        EXPECT_EQ(got[i].value, expected[i].value);
        EXPECT_EQ(RecordStatusName(got[i].status),
                  RecordStatusName(expected[i].status));
        EXPECT_FALSE(got[i].file.empty());
        ++counts[expected[i].status];
      }
      listed.erase(key);
    }
    for (const auto& [key, records] : listed) {
      EXPECT_TRUE(records.empty()) << key << ": never written";
    }
    // Each status occurs, and often: the check above decided many of each.
    EXPECT_GT(counts[RecordStatus::kLive], 50);
    EXPECT_GT(counts[RecordStatus::kOverwritten], 50);
    EXPECT_GT(counts[RecordStatus::kDeleted], 50);
  }

  TempDir dir_;
  std::map<std::string, std::vector<ModelWrite>> writes_;
  uint64_t snapshot_ = 0;
  uint64_t last_sequence_ = 0;
  uint64_t mid_level0_sequence_ = 0;  // inside the last level-0 table's writes
  std::map<int, int> levels_;
  std::unique_ptr<Database> view_;
};

TEST_F(AllVersionsModelTest, DatabaseHasTheLayersTheTestNeeds) {
  EXPECT_GE(levels_[2], 1);
  EXPECT_GE(levels_[1], 1);
  EXPECT_EQ(levels_[0], 2);
  uint64_t log_records = 0;
  for (const DatabaseLogFile& log : view_->logs()) log_records += log.records;
  EXPECT_GT(log_records, 300u);
}

TEST_F(AllVersionsModelTest, EveryVersionHasTheModelsStatus) {
  CheckAgainstModel(last_sequence_);
}

TEST_F(AllVersionsModelTest, AsOfAnOlderSequenceTheStatusesAreThoseOfThen) {
  // Between the two level-0 flushes: versions written later are not listed,
  // and the statuses are those the model had then.
  const uint64_t as_of = mid_level0_sequence_;
  ASSERT_LT(as_of, last_sequence_);
  std::map<std::string, std::vector<VersionRecord>> listed = List(as_of);
  for (const auto& [key, records] : listed) {
    for (const VersionRecord& record : records) {
      EXPECT_LE(record.sequence, as_of) << key;
    }
  }
  CheckAgainstModel(as_of);
}

TEST_F(AllVersionsModelTest, LiveVersionsAreWhatGetReturns) {
  for (const auto& [key, writes] : writes_) {
    absl::StatusOr<std::string> got = view_->Get(DatabaseReadOptions(), key);
    if (writes.back().deletion) {
      EXPECT_TRUE(absl::IsNotFound(got.status())) << key << " " << got.status();
    } else {
      ASSERT_TRUE(got.ok()) << key << " " << got.status();
      EXPECT_EQ(*got, writes.back().value) << key;
    }
  }
}

}  // namespace
}  // namespace compat_test
}  // namespace bloomtable
