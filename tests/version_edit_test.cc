// VersionEdit's encoding: LevelDB's tags, strict decoding, RocksDB's tags.

#include "bloomtable/version_edit.h"

#include <string>

#include "gtest/gtest.h"
#include "table/internal_key.h"
#include "util/coding.h"

namespace bloomtable {
namespace {

std::string IKey(const std::string& user_key, uint64_t sequence) {
  std::string key;
  AppendInternalKey(&key, user_key, sequence, ValueType::kValue);
  return key;
}

VersionEdit FullEdit() {
  VersionEdit edit;
  edit.comparator = "leveldb.BytewiseComparator";
  edit.log_number = 12;
  edit.prev_log_number = 11;
  edit.next_file_number = 20;
  edit.last_sequence = 999;
  edit.compaction_pointers.push_back({2, IKey("m", 5)});
  edit.deleted_files.push_back({1, 7});
  VersionEdit::NewFile added;
  added.level = 3;
  added.file.number = 15;
  added.file.size = 4096;
  added.file.smallest = IKey("a", 1);
  added.file.largest = IKey("z", 9);
  edit.new_files.push_back(added);
  return edit;
}

TEST(VersionEdit, RoundTripsEveryField) {
  std::string encoded;
  FullEdit().EncodeTo(&encoded);
  VersionEdit decoded;
  ASSERT_TRUE(decoded.DecodeFrom(encoded).ok());
  EXPECT_EQ(decoded.comparator, "leveldb.BytewiseComparator");
  EXPECT_EQ(decoded.log_number, 12u);
  EXPECT_EQ(decoded.prev_log_number, 11u);
  EXPECT_EQ(decoded.next_file_number, 20u);
  EXPECT_EQ(decoded.last_sequence, 999u);
  ASSERT_EQ(decoded.compaction_pointers.size(), 1u);
  EXPECT_EQ(decoded.compaction_pointers[0].level, 2);
  ASSERT_EQ(decoded.deleted_files.size(), 1u);
  EXPECT_EQ(decoded.deleted_files[0].number, 7u);
  ASSERT_EQ(decoded.new_files.size(), 1u);
  EXPECT_EQ(decoded.new_files[0].level, 3);
  EXPECT_EQ(decoded.new_files[0].file, FullEdit().new_files[0].file);
  std::string again;
  decoded.EncodeTo(&again);
  EXPECT_EQ(again, encoded);
}

TEST(VersionEdit, LogNumberBytesAreLevelDBs) {
  VersionEdit edit;
  edit.log_number = 300;
  std::string encoded;
  edit.EncodeTo(&encoded);
  // Tag 2, then varint64 300 = ac 02.
  EXPECT_EQ(encoded, std::string("\x02\xac\x02", 3));
}

TEST(VersionEdit, EmptyRecordIsAnEmptyEdit) {
  VersionEdit edit;
  ASSERT_TRUE(edit.DecodeFrom("").ok());
  EXPECT_FALSE(edit.log_number.has_value());
}

TEST(VersionEdit, EveryTruncationInsideAFieldIsDataLoss) {
  VersionEdit one_file;
  one_file.new_files = FullEdit().new_files;
  std::string encoded;
  one_file.EncodeTo(&encoded);
  for (size_t n = 1; n < encoded.size(); ++n) {
    VersionEdit decoded;
    const absl::Status status = decoded.DecodeFrom(encoded.substr(0, n));
    EXPECT_TRUE(absl::IsDataLoss(status)) << n << " " << status;
    EXPECT_TRUE(decoded.new_files.empty());
  }
}

TEST(VersionEdit, LevelPastTheLastIsDataLoss) {
  std::string encoded;
  PutVarint32(&encoded, 6);  // deleted file
  PutVarint32(&encoded, kNumLevels);
  PutVarint64(&encoded, 3);
  VersionEdit edit;
  EXPECT_TRUE(absl::IsDataLoss(edit.DecodeFrom(encoded)));
}

TEST(VersionEdit, InternalKeyShorterThanItsTagIsDataLoss) {
  VersionEdit edit = FullEdit();
  edit.new_files[0].file.smallest = "short";
  std::string encoded;
  edit.EncodeTo(&encoded);
  VersionEdit decoded;
  EXPECT_TRUE(absl::IsDataLoss(decoded.DecodeFrom(encoded)));
}

TEST(VersionEdit, UnknownTagIsDataLoss) {
  std::string encoded;
  PutVarint32(&encoded, 8);  // once large-value references; never written
  VersionEdit edit;
  const absl::Status status = edit.DecodeFrom(encoded);
  EXPECT_TRUE(absl::IsDataLoss(status)) << status;
}

TEST(VersionEdit, RocksDBColumnFamilyTagIsUnimplementedNamingRocksDB) {
  std::string encoded;
  PutVarint32(&encoded, 200);
  PutVarint32(&encoded, 1);
  VersionEdit edit;
  const absl::Status status = edit.DecodeFrom(encoded);
  EXPECT_TRUE(absl::IsUnimplemented(status)) << status;
  EXPECT_NE(status.message().find("RocksDB"), std::string::npos);
}

}  // namespace
}  // namespace bloomtable
