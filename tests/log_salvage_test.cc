// LogReader::Options::salvage: where LevelDB's reader gives up the rest of
// a block, a fragment with one damaged byte (payload, type, checksum or
// length) is repaired, and after other damage the reader reads on at the
// next whole fragment; such records are LogEntry::recovered. Without it,
// the reader is LevelDB's (log_reader_test.cc).

#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "bloomtable/file.h"
#include "bloomtable/log_reader.h"
#include "db/log_writer.h"
#include "gtest/gtest.h"
#include "tests/log_test_util.h"

namespace bloomtable {
namespace {

std::vector<std::string> Records() {
  std::vector<std::string> records;
  for (int i = 0; i < 6; ++i) {
    records.push_back(
        absl::StrCat("record ", i, " ", std::string(40 + i, 'x')));
  }
  return records;
}

// The offset of record `i`'s header in WriteLogBytes(Records()).
size_t HeaderOf(int i) {
  size_t offset = 0;
  for (int j = 0; j < i; ++j) offset += 7 + Records()[j].size();
  return offset;
}

struct Read {
  std::vector<std::string> payloads;
  std::vector<bool> recovered;
  int damaged = 0;
};

Read ReadAll(const std::string& bytes, bool salvage) {
  std::unique_ptr<RandomAccessFile> file = NewMemoryRandomAccessFile(bytes);
  LogReader::Options options;
  options.salvage = salvage;
  LogReader reader(file.get(), bytes.size(), options);
  Read read;
  LogEntry entry;
  while (reader.Next(&entry)) {
    if (entry.kind == LogEntry::Kind::kRecord) {
      read.payloads.push_back(entry.payload);
      read.recovered.push_back(entry.recovered);
    } else if (entry.kind == LogEntry::Kind::kDamage) {
      ++read.damaged;
    }
  }
  EXPECT_TRUE(reader.status().ok());
  return read;
}

TEST(LogSalvage, OneDamagedPayloadByteIsRepaired) {
  std::string bytes = WriteLogBytes(Records());
  bytes[HeaderOf(2) + 7 + 10] ^= 0x40;
  const Read leveldb = ReadAll(bytes, false);
  // LevelDB's reader loses record 2 and the rest of the block.
  const std::vector<std::string> records = Records();
  EXPECT_EQ(leveldb.payloads,
            std::vector<std::string>(records.begin(), records.begin() + 2));
  const Read salvaged = ReadAll(bytes, true);
  EXPECT_EQ(salvaged.payloads, Records());
  EXPECT_EQ(salvaged.recovered,
            (std::vector<bool>{false, false, true, true, true, true}));
  EXPECT_EQ(salvaged.damaged, 0);
}

TEST(LogSalvage, ADamagedLengthTypeOrChecksumByteIsRepaired) {
  for (size_t in_header : {0u, 3u, 4u, 5u, 6u}) {
    SCOPED_TRACE(in_header);
    std::string bytes = WriteLogBytes(Records());
    bytes[HeaderOf(1) + in_header] ^= 0x01;
    const Read salvaged = ReadAll(bytes, true);
    EXPECT_EQ(salvaged.payloads, Records());
    EXPECT_TRUE(salvaged.recovered[1]);
  }
}

TEST(LogSalvage, AfterDamageItReadsOnAtTheNextWholeFragment) {
  std::string bytes = WriteLogBytes(Records());
  // Two damaged bytes: no single-byte repair explains them.
  bytes[HeaderOf(3) + 7 + 1] ^= 0x11;
  bytes[HeaderOf(3) + 7 + 20] ^= 0x22;
  const Read salvaged = ReadAll(bytes, true);
  std::vector<std::string> expected = Records();
  expected.erase(expected.begin() + 3);
  EXPECT_EQ(salvaged.payloads, expected);
  EXPECT_EQ(salvaged.recovered,
            (std::vector<bool>{false, false, false, true, true}));
  EXPECT_EQ(salvaged.damaged, 1);
  // LevelDB's reader: records 3 to 5 lost.
  EXPECT_EQ(ReadAll(bytes, false).payloads.size(), 3u);
}

TEST(LogSalvage, AnUndamagedLogReadsAsLevelDBReadsIt) {
  const std::string bytes = WriteLogBytes(Records());
  const Read salvaged = ReadAll(bytes, true);
  EXPECT_EQ(salvaged.payloads, Records());
  EXPECT_EQ(salvaged.recovered, std::vector<bool>(6, false));
}

}  // namespace
}  // namespace bloomtable
