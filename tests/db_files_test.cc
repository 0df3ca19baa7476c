// Database file names, and telling a log from a MANIFEST by content.

#include "bloomtable/db_files.h"

#include <string>

#include "bloomtable/version_edit.h"
#include "bloomtable/write_batch.h"
#include "gtest/gtest.h"
#include "tests/log_test_util.h"

namespace bloomtable {
namespace {

TEST(DbFileNames, ParsesEveryKind) {
  struct Case {
    const char* name;
    DbFileType type;
    uint64_t number;
  };
  for (const Case& c : {Case{"000012.log", DbFileType::kLog, 12},
                        Case{"000012.ldb", DbFileType::kTable, 12},
                        Case{"7.sst", DbFileType::kTable, 7},
                        Case{"MANIFEST-000003", DbFileType::kManifest, 3},
                        Case{"CURRENT", DbFileType::kCurrent, 0},
                        Case{"LOCK", DbFileType::kLock, 0},
                        Case{"LOG", DbFileType::kInfoLog, 0},
                        Case{"LOG.old", DbFileType::kInfoLog, 0},
                        Case{"000009.dbtmp", DbFileType::kTemp, 9}}) {
    const std::optional<DbFileName> parsed = ParseDbFileName(c.name);
    ASSERT_TRUE(parsed.has_value()) << c.name;
    EXPECT_EQ(parsed->type, c.type) << c.name;
    EXPECT_EQ(parsed->number, c.number) << c.name;
  }
}

TEST(DbFileNames, RejectsOtherNames) {
  for (const char* name :
       {"", "CURRENT.bak", "MANIFEST-", "MANIFEST-12a", ".log", "x12.log",
        "12.log.bak", "-1.ldb", "99999999999999999999999.ldb", "LOCK2"}) {
    EXPECT_FALSE(ParseDbFileName(name).has_value()) << name;
  }
}

TEST(DbFileNames, MakesLevelDBsNames) {
  EXPECT_EQ(LogFileName(5), "000005.log");
  EXPECT_EQ(TableFileName(1234567), "1234567.ldb");
  EXPECT_EQ(SstTableFileName(42), "000042.sst");
  EXPECT_EQ(ManifestFileName(1), "MANIFEST-000001");
}

LogContents Identify(const std::string& bytes) {
  std::unique_ptr<RandomAccessFile> file = NewMemoryRandomAccessFile(bytes);
  return IdentifyLogContents(*file, bytes.size()).value();
}

TEST(IdentifyLogContents, TellsALogFromAManifest) {
  VersionEdit edit;
  edit.comparator = "leveldb.BytewiseComparator";
  std::string record;
  edit.EncodeTo(&record);
  EXPECT_EQ(Identify(WriteLogBytes({record})), LogContents::kManifest);
  WriteOp put;
  put.key = "k";
  put.value = "v";
  EXPECT_EQ(Identify(WriteLogBytes({EncodeWriteBatch(1, {put})})),
            LogContents::kWriteAheadLog);
  EXPECT_EQ(Identify(""), LogContents::kEmptyLog);
  EXPECT_EQ(Identify(std::string(1000, '\0')), LogContents::kEmptyLog);
  EXPECT_EQ(Identify("this is a text file, not a log\n"),
            LogContents::kNotALog);
  EXPECT_EQ(Identify(WriteLogBytes({"neither a batch nor an edit"})),
            LogContents::kNotALog);
}

TEST(IdentifyLogContents, BatchWhoseFirstByteIsARocksDBEditTagIsALog) {
  // Sequence 0x6264: its first byte, 100, is a tag only RocksDB's MANIFESTs
  // hold; the record decodes whole as a batch, so it is a log.
  WriteOp put;
  put.key = "k";
  EXPECT_EQ(Identify(WriteLogBytes({EncodeWriteBatch(0x6264, {put})})),
            LogContents::kWriteAheadLog);
}

}  // namespace
}  // namespace bloomtable
