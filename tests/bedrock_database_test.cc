// A Minecraft Bedrock world's database, written byte for byte as Mojang's
// LevelDB fork lays it out (its log and MANIFEST are LevelDB's; its tables
// compress blocks with zlib, type 2, or raw deflate, type 4), by this
// project's own writers: the read-only view must read it whole. Level 1
// holds a raw-deflate table, level 0 a zlib table that overwrites and
// deletes some of its keys, and the live log overrides both.

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "bloomtable/database.h"
#include "bloomtable/file.h"
#include "bloomtable/version_edit.h"
#include "bloomtable/write_batch.h"
#include "db/log_writer.h"
#include "gtest/gtest.h"
#include "tests/foreign_table_writer.h"
#include "tests/log_only_database.h"
#include "tests/temp_dir.h"
#include "util/coding.h"

namespace bloomtable {
namespace {

using foreign_tables::ForeignCodec;
using Entries = std::vector<std::pair<std::string, std::string>>;

std::string Key(int i) { return absl::StrFormat("key%05d", i); }

std::string InternalKey(const std::string& user_key, uint64_t sequence,
                        bool deletion) {
  std::string key = user_key;
  PutFixed64(&key, (sequence << 8) | (deletion ? 0 : 1));
  return key;
}

void WriteFile(const std::string& path, const std::string& bytes) {
  absl::StatusOr<std::unique_ptr<WritableFile>> file = NewWritableFile(path);
  ASSERT_TRUE(file.ok()) << file.status();
  ASSERT_TRUE((*file)->Append(bytes).ok());
  ASSERT_TRUE((*file)->Close().ok());
}

class BedrockDatabaseTest : public testing::Test {
 protected:
  void SetUp() override {
    // Level 1, raw deflate: key00000..key00399 at sequences 1..400.
    Entries level1;
    for (int i = 0; i < 400; ++i) {
      const std::string value = absl::StrCat("chunk ", i, " old");
      level1.emplace_back(InternalKey(Key(i), i + 1, false), value);
      model_[Key(i)] = value;
    }
    // Level 0, zlib: every 7th key rewritten, every 11th (not 7th) deleted.
    Entries level0;
    for (int i = 0; i < 400; ++i) {
      if (i % 7 == 0) {
        const std::string value = absl::StrCat("chunk ", i, " new");
        level0.emplace_back(InternalKey(Key(i), 1000 + i, false), value);
        model_[Key(i)] = value;
      } else if (i % 11 == 0) {
        level0.emplace_back(InternalKey(Key(i), 1000 + i, true), "");
        model_.erase(Key(i));
      }
    }
    const std::string t5 = foreign_tables::WriteForeignTable(
        ForeignCodec::kBedrockRawDeflate, level1, true, 1024);
    const std::string t7 = foreign_tables::WriteForeignTable(
        ForeignCodec::kBedrockZlib, level0, true, 1024);
    WriteFile(dir_.File("000005.ldb"), t5);
    WriteFile(dir_.File("000007.ldb"), t7);

    // The live log: one batch at sequence 2000.
    std::vector<WriteOp> ops(3);
    ops[0].type = WriteOpType::kPut;
    ops[0].key = Key(3);
    ops[0].value = "from the log";
    ops[1].type = WriteOpType::kDelete;
    ops[1].key = Key(14);
    ops[2].type = WriteOpType::kPut;
    ops[2].key = Key(22);  // deleted in level 0, written again
    ops[2].value = "back";
    model_[Key(3)] = "from the log";
    model_.erase(Key(14));
    model_[Key(22)] = "back";
    test::WriteLogRecords(dir_.File("000008.log"),
                          {EncodeWriteBatch(2000, ops)});

    VersionEdit edit;
    edit.comparator = "leveldb.BytewiseComparator";
    edit.log_number = 8;
    edit.prev_log_number = 0;
    edit.next_file_number = 9;
    edit.last_sequence = 1399;
    VersionEdit::NewFile f5;
    f5.level = 1;
    f5.file = {5, t5.size(), level1.front().first, level1.back().first};
    VersionEdit::NewFile f7;
    f7.level = 0;
    f7.file = {7, t7.size(), level0.front().first, level0.back().first};
    edit.new_files = {f5, f7};
    std::string record;
    edit.EncodeTo(&record);
    test::WriteLogRecords(dir_.File("MANIFEST-000002"), {record});
    WriteFile(dir_.File("CURRENT"), "MANIFEST-000002\n");
  }

  TempDir dir_;
  std::map<std::string, std::string> model_;
};

TEST_F(BedrockDatabaseTest, ReadsZlibAndRawDeflateTablesAndTheLog) {
  absl::StatusOr<std::unique_ptr<Database>> db =
      Database::OpenReadOnly(dir_.path());
  ASSERT_TRUE(db.ok()) << db.status();
  EXPECT_TRUE((*db)->warnings().empty());
  ASSERT_EQ((*db)->tables().size(), 2u);
  EXPECT_EQ((*db)->last_sequence(), 2002u);
  for (int i = 0; i < 420; ++i) {
    absl::StatusOr<std::string> got = (*db)->Get(DatabaseReadOptions(), Key(i));
    auto expected = model_.find(Key(i));
    if (expected == model_.end()) {
      EXPECT_TRUE(absl::IsNotFound(got.status())) << Key(i) << got.status();
    } else {
      ASSERT_TRUE(got.ok()) << Key(i) << got.status();
      EXPECT_EQ(*got, expected->second);
    }
  }
  std::unique_ptr<Iterator> it = (*db)->NewIterator(DatabaseReadOptions());
  std::map<std::string, std::string> scanned;
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    scanned.emplace(std::string(it->key()), std::string(it->value()));
  }
  EXPECT_TRUE(it->status().ok()) << it->status();
  EXPECT_EQ(scanned, model_);
}

TEST_F(BedrockDatabaseTest, AsOfSequenceAndListingSeeEveryLayer) {
  absl::StatusOr<std::unique_ptr<Database>> db =
      Database::OpenReadOnly(dir_.path());
  ASSERT_TRUE(db.ok()) << db.status();
  DatabaseReadOptions before_level0;
  before_level0.sequence = 999;
  absl::StatusOr<std::string> got = (*db)->Get(before_level0, Key(14));
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_EQ(*got, "chunk 14 old");
  std::map<std::string, int> by_status;
  std::map<std::string, int> by_file;
  ASSERT_TRUE(
      (*db)
          ->ListVersions(
              DatabaseReadOptions(),
              [&](const VersionRecord& record) {
                ++by_status[std::string(RecordStatusName(record.status))];
                ++by_file[record.file];
                return true;
              })
          .ok());
  EXPECT_EQ(static_cast<size_t>(by_status["live"]), model_.size());
  EXPECT_GT(by_status["overwritten"], 0);
  EXPECT_GT(by_status["deleted"], 0);
  EXPECT_EQ(by_file["000008.log"], 3);
  EXPECT_EQ(by_file["000005.ldb"], 400);
}

}  // namespace
}  // namespace bloomtable
