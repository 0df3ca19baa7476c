// `bloomtable dump` on logs and MANIFESTs, told by their content: records
// with offsets, sequences and escaped operations, damaged ranges, the
// version a MANIFEST gives, --json, and the exit statuses.

#include <string>
#include <vector>

#include "bloomtable/version_edit.h"
#include "bloomtable/write_batch.h"
#include "db/log_format.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "table/internal_key.h"
#include "tests/log_test_util.h"
#include "tests/tool_test_util.h"
#include "util/coding.h"
#include "util/crc32c.h"

namespace bloomtable {
namespace tool_test {
namespace {

using ::testing::HasSubstr;

WriteOp Op(WriteOpType type, std::string key, std::string value = "") {
  WriteOp op;
  op.type = type;
  op.key = std::move(key);
  op.value = std::move(value);
  return op;
}

std::string SmallLog() {
  return WriteLogBytes(
      {EncodeWriteBatch(7, {Op(WriteOpType::kPut, "a", "1"),
                            Op(WriteOpType::kDelete, std::string("b\0", 2))}),
       EncodeWriteBatch(9, {Op(WriteOpType::kPut, "tab\tkey", "v\\")})});
}

std::string IKey(const std::string& user_key, uint64_t sequence) {
  std::string key;
  AppendInternalKey(&key, user_key, sequence, ValueType::kValue);
  return key;
}

std::string SmallManifest() {
  VersionEdit base;
  base.comparator = "leveldb.BytewiseComparator";
  base.log_number = 4;
  base.next_file_number = 6;
  base.last_sequence = 10;
  VersionEdit::NewFile added;
  added.level = 1;
  added.file.number = 5;
  added.file.size = 1234;
  added.file.smallest = IKey("apple", 3);
  added.file.largest = IKey("pear", 8);
  base.new_files.push_back(added);
  std::string record;
  base.EncodeTo(&record);
  return WriteLogBytes({record});
}

TEST_F(ToolTest, DumpPrintsALogsRecords) {
  // The name says nothing: the content does.
  const std::string path = dir_.File("some.file");
  WriteFile(path, SmallLog());
  const ToolResult result = RunTool({"dump", path});
  ASSERT_EQ(result.exit_status, kSuccess) << result;
  EXPECT_THAT(result.out, HasSubstr("kind: write-ahead log\n"));
  EXPECT_THAT(result.out,
              HasSubstr("record at offset 0, length 28, 1 fragment: sequence "
                        "7, count 2\n  put 7 'a' => '1'\n  del 8 'b\\x00'\n"));
  EXPECT_THAT(result.out,
              HasSubstr("record at offset 28, length 31, 1 fragment: "
                        "sequence 9, count 1\n  put 9 'tab\\x09key' => "
                        "'v\\\\'\n"));
  EXPECT_THAT(result.out, HasSubstr("batches: 2, puts: 2, dels: 1\n"));
}

TEST_F(ToolTest, DumpJsonOfALog) {
  const std::string path = dir_.File("000003.log");
  WriteFile(path, SmallLog());
  const ToolResult result = RunTool({"dump", path, "--json"});
  ASSERT_EQ(result.exit_status, kSuccess) << result;
  const nlohmann::json json = nlohmann::json::parse(result.out);
  EXPECT_EQ(json["kind"], "log");
  ASSERT_EQ(json["entries"].size(), 2u);
  const nlohmann::json& first = json["entries"][0];
  EXPECT_EQ(first["kind"], "record");
  EXPECT_EQ(first["sequence"], 7);
  EXPECT_EQ(first["count"], 2);
  EXPECT_EQ(first["ops"][1]["type"], "del");
  EXPECT_EQ(first["ops"][1]["sequence"], 8);
  EXPECT_EQ(first["ops"][1]["key"]["hex"], "6200");
  EXPECT_EQ(first["ops"][1]["key"]["text"], "b\\x00");
  EXPECT_EQ(json["entries"][1]["offset"], 28);
  EXPECT_EQ(json["summary"]["puts"], 2);
  EXPECT_EQ(json["summary"]["damaged_ranges"], 0);
  EXPECT_FALSE(json.contains("error"));
}

TEST_F(ToolTest, DumpOfADamagedLogGoesOnAndExitsDamaged) {
  std::string log = SmallLog();
  log += std::string(log::kBlockSize - log.size(), '\0');
  log += SmallLog();
  log[log::kHeaderSize + 2] ^= 0x20;  // inside the first record
  const std::string path = dir_.File("000009.log");
  WriteFile(path, log);
  const ToolResult result = RunTool({"dump", path});
  EXPECT_EQ(result.exit_status, kDamaged) << result;
  EXPECT_THAT(result.out, HasSubstr("damage at offset 0, length 32768: "
                                    "checksum mismatch\n"));
  // The second block's records are still printed.
  EXPECT_THAT(result.out, HasSubstr("record at offset 32768"));
  EXPECT_THAT(result.err, HasSubstr("1 damaged range (32768 bytes), the "
                                    "first at offset 0: checksum mismatch"));
  const ToolResult json = RunTool({"dump", path, "--json"});
  EXPECT_EQ(json.exit_status, kDamaged) << json;
  const nlohmann::json document = nlohmann::json::parse(json.out);
  EXPECT_EQ(document["entries"][0]["kind"], "damage");
  EXPECT_EQ(document["entries"][0]["reason"], "checksum mismatch");
  EXPECT_EQ(document["entries"][0]["leveldb_reports"], true);
  EXPECT_TRUE(document.contains("error"));
}

// A fragment of type 5 (its checksum right) is where LevelDB's reader stops:
// the dump says so and counts what follows as not read.
TEST_F(ToolTest, DumpStopsAtLevelDBsEndOfFileMarker) {
  const std::string head = SmallLog();
  std::string marker = WriteLogBytes({"x"});
  marker[6] = 5;
  EncodeFixed32(marker.data(),
                crc32c::Mask(crc32c::Value(marker.data() + 6, 2)));
  const std::string path = dir_.File("000011.log");
  WriteFile(path, head + marker + SmallLog());
  const ToolResult result = RunTool({"dump", path});
  EXPECT_EQ(result.exit_status, kDamaged) << result;
  EXPECT_THAT(result.out,
              HasSubstr("end of log at offset " + std::to_string(head.size())));
  EXPECT_THAT(result.out, HasSubstr("batches: 2, puts: 2, dels: 1\n"));
  const ToolResult json = RunTool({"dump", path, "--json"});
  const nlohmann::json document = nlohmann::json::parse(json.out);
  EXPECT_EQ(document["entries"].back()["kind"], "end_of_log");
  EXPECT_EQ(document["summary"]["unread_bytes"],
            marker.size() + SmallLog().size());
}

TEST_F(ToolTest, DumpPrintsAManifestsEditsAndVersion) {
  const std::string path = dir_.File("MANIFEST-000002");
  WriteFile(path, SmallManifest());
  const ToolResult result = RunTool({"dump", path});
  ASSERT_EQ(result.exit_status, kSuccess) << result;
  EXPECT_THAT(result.out, HasSubstr("kind: MANIFEST\n"));
  EXPECT_THAT(
      result.out,
      HasSubstr("  comparator: 'leveldb.BytewiseComparator'\n"
                "  log number: 4\n"
                "  next file number: 6\n"
                "  last sequence: 10\n"
                "  new file: level 1, file 5, 1234 bytes, 'apple' @ 3 : "
                "put .. 'pear' @ 8 : put\n"));
  EXPECT_THAT(result.out,
              HasSubstr("version:\n  comparator: 'leveldb.BytewiseComparator'"
                        "\n  log number: 4, previous log number: 0, next file "
                        "number: 6, last sequence: 10\n  level 1: 1 file, 1234 "
                        "bytes\n    file 5, 1234 bytes"));
  const ToolResult json = RunTool({"dump", path, "--json"});
  ASSERT_EQ(json.exit_status, kSuccess) << json;
  const nlohmann::json document = nlohmann::json::parse(json.out);
  EXPECT_EQ(document["kind"], "manifest");
  EXPECT_EQ(document["entries"][0]["new_files"][0]["number"], 5);
  EXPECT_EQ(document["entries"][0]["new_files"][0]["smallest"]["user_key"],
            "apple");
  EXPECT_EQ(document["version"]["levels"][1]["files"][0]["size"], 1234);
  EXPECT_EQ(document["version"]["last_sequence"], 10);
}

TEST_F(ToolTest, DumpOfARocksDBManifestIsUnsupported) {
  std::string rocks;
  PutVarint32(&rocks, 1);
  PutLengthPrefixed(&rocks, "leveldb.BytewiseComparator");
  PutVarint32(&rocks, 200);  // column family
  PutVarint32(&rocks, 0);
  const std::string path = dir_.File("MANIFEST-000001");
  WriteFile(path, WriteLogBytes({rocks}));
  const ToolResult result = RunTool({"dump", path});
  EXPECT_EQ(result.exit_status, kUnsupported) << result;
  EXPECT_THAT(result.err, HasSubstr("RocksDB"));
}

TEST_F(ToolTest, DumpOfAnEmptyLogPrintsNoRecords) {
  const std::string path = dir_.File("000005.log");
  WriteFile(path, "");
  const ToolResult result = RunTool({"dump", path});
  ASSERT_EQ(result.exit_status, kSuccess) << result;
  EXPECT_THAT(result.out, HasSubstr("records: 0 (0 bytes)"));
}

TEST_F(ToolTest, DumpOfANonLogFileIsStillJudgedAsATable) {
  const std::string path = dir_.File("notes.txt");
  WriteFile(path, std::string(100, 'x'));
  const ToolResult result = RunTool({"dump", path});
  EXPECT_EQ(result.exit_status, kDamaged) << result;
  EXPECT_THAT(result.err, HasSubstr("not a table"));
}

}  // namespace
}  // namespace tool_test
}  // namespace bloomtable
