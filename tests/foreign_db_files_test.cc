// Logs and MANIFESTs written by other LevelDB implementations: goleveldb and
// the Java port (org.iq80.leveldb) wrote the directories in tests/data/ (see
// tests/data/generators/README.md), and each `.expected` file says what the
// writer wrote. bloomtable must read them exactly so: the same live tables on
// the same levels, and the live log's operations with their sequence
// numbers, in order, with no damage.

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "bloomtable/db_files.h"
#include "bloomtable/db_version.h"
#include "bloomtable/file.h"
#include "bloomtable/log_reader.h"
#include "bloomtable/options.h"
#include "bloomtable/table.h"
#include "bloomtable/write_batch.h"
#include "gtest/gtest.h"

namespace bloomtable {
namespace {

struct Expected {
  std::string comparator;
  std::vector<std::string> tables;  // "LEVEL NUMBER SIZE"
  std::vector<std::string> ops;     // "SEQUENCE put|del KEYHEX VALUEHEX"
};

Expected ReadExpected(const std::string& path) {
  Expected expected;
  std::ifstream in(path);
  EXPECT_TRUE(in.good()) << path;
  std::string line;
  while (std::getline(in, line)) {
    const size_t space = line.find(' ');
    const std::string kind = line.substr(0, space);
    const std::string rest = line.substr(space + 1);
    if (kind == "comparator") expected.comparator = rest;
    if (kind == "table") expected.tables.push_back(rest);
    if (kind == "op") expected.ops.push_back(rest);
  }
  return expected;
}

std::string Hex(std::string_view bytes) {
  return absl::BytesToHexString(absl::string_view(bytes.data(), bytes.size()));
}

void CheckDirectory(const std::string& name) {
  const std::string dir = std::string(BLOOMTABLE_TEST_DATA_DIR) + "/" + name;
  const Expected expected = ReadExpected(dir + ".expected");
  ASSERT_FALSE(expected.ops.empty());

  absl::StatusOr<DatabaseVersion> version = ReadVersion(dir);
  ASSERT_TRUE(version.ok()) << version.status();
  EXPECT_EQ(version->current, CurrentFileState::kValid);
  EXPECT_TRUE(version->manifest.damage.empty());
  EXPECT_TRUE(version->missing_tables.empty());
  const DbVersion& v = version->manifest.version;
  EXPECT_EQ(v.comparator, expected.comparator);
  std::vector<std::string> tables;
  for (int level = 0; level < kNumLevels; ++level) {
    for (const TableFileInfo& file : v.files[level]) {
      tables.push_back(absl::StrCat(level, " ", file.number, " ", file.size));
      // Each live table is there, opens, and has the size the MANIFEST says.
      const std::string path = dir + "/" + version->table_files.at(file.number);
      EXPECT_EQ(GetFileSize(path).value(), file.size) << path;
      absl::StatusOr<std::unique_ptr<Table>> table =
          Table::Open(Options(), OpenRandomAccessFile(path).value(), file.size);
      EXPECT_TRUE(table.ok()) << table.status();
    }
  }
  std::sort(tables.begin(), tables.end());
  std::vector<std::string> expected_tables = expected.tables;
  std::sort(expected_tables.begin(), expected_tables.end());
  EXPECT_EQ(tables, expected_tables);

  std::vector<std::string> ops;
  uint64_t last_sequence = 0;
  ASSERT_EQ(version->live_logs.size(), 1u);
  for (uint64_t number : version->live_logs) {
    const std::string path = dir + "/" + LogFileName(number);
    std::unique_ptr<RandomAccessFile> file = OpenRandomAccessFile(path).value();
    const uint64_t size = GetFileSize(path).value();
    EXPECT_EQ(IdentifyLogContents(*file, size).value(),
              LogContents::kWriteAheadLog);
    LogReader reader(file.get(), size);
    LogEntry entry;
    while (reader.Next(&entry)) {
      ASSERT_NE(entry.kind, LogEntry::Kind::kDamage) << entry.reason;
      if (entry.kind != LogEntry::Kind::kRecord) continue;
      absl::StatusOr<DecodedWriteBatch> batch = DecodeWriteBatch(entry.payload);
      ASSERT_TRUE(batch.ok()) << batch.status();
      for (const WriteOp& op : batch->ops) {
        const bool put = op.type == WriteOpType::kPut;
        ops.push_back(absl::StrCat(op.sequence, put ? " put " : " del ",
                                   Hex(op.key), " ", Hex(op.value)));
        last_sequence = op.sequence;
      }
    }
    EXPECT_TRUE(reader.status().ok()) << reader.status();
  }
  EXPECT_EQ(ops, expected.ops);
  // The log continues where the MANIFEST's last sequence left off.
  EXPECT_GT(last_sequence, v.last_sequence);
}

TEST(ForeignDbFiles, GoLevelDBDirectoryReadsAsWritten) {
  CheckDirectory("goleveldb_db");
}

TEST(ForeignDbFiles, JavaPortDirectoryReadsAsWritten) {
  CheckDirectory("java_leveldb_db");
}

TEST(ForeignDbFiles, GoLevelDBNumbersItsFirstManifestZero) {
  absl::StatusOr<DatabaseVersion> version =
      ReadVersion(std::string(BLOOMTABLE_TEST_DATA_DIR) + "/goleveldb_db");
  ASSERT_TRUE(version.ok()) << version.status();
  EXPECT_EQ(version->manifest_name, "MANIFEST-000000");
}

TEST(ForeignDbFiles, JavaPortNamesItsTablesSst) {
  absl::StatusOr<DatabaseVersion> version =
      ReadVersion(std::string(BLOOMTABLE_TEST_DATA_DIR) + "/java_leveldb_db");
  ASSERT_TRUE(version.ok()) << version.status();
  ASSERT_FALSE(version->table_files.empty());
  for (const auto& [number, name] : version->table_files) {
    EXPECT_EQ(name, SstTableFileName(number));
  }
}

}  // namespace
}  // namespace bloomtable
