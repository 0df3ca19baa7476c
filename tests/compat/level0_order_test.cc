// Level 0 of a database written by the real LevelDB holds tables whose key
// ranges overlap: a lookup must search them newest first (the higher file
// number), whatever the order of their key ranges and of the MANIFEST's
// lines, and stop at the first version it finds. Each case puts one key in
// two level-0 tables with different values (or a deletion in the newer), so
// that searching them in any other order gives a different answer.

#include <string>

#include "bloomtable/database.h"
#include "gtest/gtest.h"
#include "tests/compat/leveldb_layers.h"
#include "tests/temp_dir.h"

namespace bloomtable {
namespace compat_test {
namespace {

class Level0OrderTest : public testing::Test {
 protected:
  // Writes a database whose key "key" has a version on level 2, level 1 and
  // in two level-0 tables: the older holds `older_companion` and "key" =
  // "older", the newer holds `newer_companion` and "key" = "newer" (or a
  // deletion of "key" when `newer_deletes`).
  void Write(const std::string& older_companion,
             const std::string& newer_companion, bool newer_deletes) {
    LayeredLevelDB db(dir_.File("db"));
    ASSERT_TRUE(db.ok());
    db.Put("a", "a");
    db.Put("key", "level2");
    db.Put("z", "z");
    db.Flush();
    db.Put("key", "level1");
    db.Flush();
    db.Put(older_companion, "older companion");
    db.Put("key", "older");
    older_sequence_ = db.last_sequence();
    db.Flush();
    db.Put(newer_companion, "newer companion");
    if (newer_deletes) {
      db.Delete("key");
    } else {
      db.Put("key", "newer");
    }
    db.Flush();
    ASSERT_EQ(db.TablesAt(0), 2);
    ASSERT_EQ(db.TablesAt(1), 1);
    ASSERT_EQ(db.TablesAt(2), 1);
    db.Close();
    absl::StatusOr<std::unique_ptr<Database>> view =
        Database::OpenReadOnly(dir_.File("db"));
    ASSERT_TRUE(view.ok()) << view.status();
    view_ = *std::move(view);
    // Both level-0 tables may hold "key".
    int level0 = 0;
    for (const DatabaseTableFile& file : view_->tables()) {
      if (file.level == 0) ++level0;
    }
    ASSERT_EQ(level0, 2);
    ASSERT_TRUE(view_->logs().empty() || view_->logs()[0].records == 0);
  }

  std::string Get(std::optional<uint64_t> sequence = std::nullopt) {
    DatabaseReadOptions options;
    options.sequence = sequence;
    absl::StatusOr<std::string> got = view_->Get(options, "key");
    if (absl::IsNotFound(got.status())) return "<not found>";
    EXPECT_TRUE(got.ok()) << got.status();
    return got.ok() ? *got : got.status().ToString();
  }

  std::string Scan() {
    std::unique_ptr<Iterator> it = view_->NewIterator(DatabaseReadOptions());
    it->Seek("key");
    if (!it->Valid() || it->key() != "key") return "<not found>";
    return std::string(it->value());
  }

  TempDir dir_;
  uint64_t older_sequence_ = 0;
  std::unique_ptr<Database> view_;
};

TEST_F(Level0OrderTest, NewerTableWinsWhenItsRangeStartsLater) {
  // The newer table's smallest key is the larger one.
  Write("b", "key", false);
  EXPECT_EQ(Get(), "newer");
  EXPECT_EQ(Scan(), "newer");
  EXPECT_EQ(Get(older_sequence_), "older");
}

TEST_F(Level0OrderTest, NewerTableWinsWhenItsRangeStartsEarlier) {
  // The newer table's smallest key is the smaller one.
  Write("key", "b", false);
  EXPECT_EQ(Get(), "newer");
  EXPECT_EQ(Scan(), "newer");
  EXPECT_EQ(Get(older_sequence_), "older");
}

TEST_F(Level0OrderTest, DeletionInTheNewerTableHidesTheOlderValue) {
  Write("b", "y", true);
  EXPECT_EQ(Get(), "<not found>");
  EXPECT_EQ(Scan(), "<not found>");
  EXPECT_EQ(Get(older_sequence_), "older");
  EXPECT_EQ(Get(older_sequence_ - 2), "level1");
}

}  // namespace
}  // namespace compat_test
}  // namespace bloomtable
