// LogReader over logs written by the library's LogWriter (LevelDB's format;
// tests/compat/leveldb_log_manifest_test.cc reads the real LevelDB's).

#include "bloomtable/log_reader.h"

#include <string>
#include <vector>

#include "db/log_format.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/log_test_util.h"
#include "util/coding.h"
#include "util/crc32c.h"

namespace bloomtable {
namespace {

using Kind = LogEntry::Kind;
using ::testing::ElementsAre;

std::string Bytes(size_t n, char seed) {
  std::string s;
  for (size_t i = 0; i < n; ++i) s.push_back(static_cast<char>(seed + i * 7));
  return s;
}

TEST(LogReader, EmptyFileHasNoEntries) {
  EXPECT_TRUE(ReadLogEntries("").empty());
}

TEST(LogReader, SmallRecordsComeBackWithTheirOffsets) {
  const std::string log = WriteLogBytes({"one", "", "three33"});
  const std::vector<LogEntry> entries = ReadLogEntries(log);
  ASSERT_EQ(entries.size(), 3u);
  EXPECT_EQ(entries[0].offset, 0u);
  EXPECT_EQ(entries[0].length, 7u + 3);
  EXPECT_EQ(entries[1].offset, 10u);
  EXPECT_EQ(entries[1].length, 7u);
  EXPECT_EQ(entries[2].offset, 17u);
  EXPECT_THAT(RecordPayloads(entries), ElementsAre("one", "", "three33"));
  EXPECT_EQ(entries[0].fragments, 1);
}

TEST(LogReader, RecordSpanningBlocksIsJoinedFromItsFragments) {
  const std::string big = Bytes(100000, 'a');
  const std::string log = WriteLogBytes({"x", big, "y"});
  const std::vector<LogEntry> entries = ReadLogEntries(log);
  ASSERT_EQ(entries.size(), 3u);
  EXPECT_EQ(entries[1].payload, big);
  // 100000 bytes need a FIRST, two MIDDLE and a LAST fragment.
  EXPECT_EQ(entries[1].fragments, 4);
  EXPECT_EQ(entries[1].offset, 8u);
  EXPECT_EQ(entries[2].payload, "y");
}

TEST(LogReader, BlockTrailerIsPadding) {
  // Leaves 3 bytes in the first block: too few for a header.
  const std::string first(log::kBlockSize - log::kHeaderSize - 3, 'f');
  const std::string log = WriteLogBytes({first, "next"});
  const std::vector<LogEntry> entries = ReadLogEntries(log);
  ASSERT_EQ(entries.size(), 3u);
  EXPECT_EQ(entries[1].kind, Kind::kPadding);
  EXPECT_EQ(entries[1].offset, log::kBlockSize - 3);
  EXPECT_EQ(entries[1].length, 3u);
  EXPECT_EQ(entries[2].offset, log::kBlockSize);
  EXPECT_EQ(entries[2].payload, "next");
}

TEST(LogReader, RecordStartingNearABlockEndIsSplit) {
  const std::string first(log::kBlockSize - log::kHeaderSize - 10, 'f');
  const std::string second(100, 's');
  // 10 bytes are left in the first block: the second record's FIRST
  // fragment takes them (3 payload bytes), its LAST the next block.
  const std::string log = WriteLogBytes({first, second});
  const std::vector<LogEntry> entries = ReadLogEntries(log);
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries[1].fragments, 2);
  EXPECT_EQ(entries[1].payload, second);
}

TEST(LogReader, ZeroFilledTailIsOnePaddingEntry) {
  // A writer that preallocated or mapped the file leaves zeros after its
  // data, across whole blocks.
  std::string log = WriteLogBytes({"a", "b"});
  const size_t data = log.size();
  log.append(2 * log::kBlockSize + 100 - data, '\0');
  const std::vector<LogEntry> entries = ReadLogEntries(log);
  ASSERT_EQ(entries.size(), 3u);
  EXPECT_EQ(entries[2].kind, Kind::kPadding);
  EXPECT_EQ(entries[2].offset, data);
  EXPECT_EQ(entries[2].offset + entries[2].length, log.size());
}

TEST(LogReader, ChecksumMismatchCostsTheRestOfTheBlock) {
  const std::string filler(log::kBlockSize / 4, 'z');
  std::vector<std::string> records = {"r0",   filler, filler,
                                      filler, filler, "last"};
  std::string log = WriteLogBytes(records);
  // Flip a payload byte of the first record.
  log[log::kHeaderSize] ^= 0x01;
  const std::vector<LogEntry> entries = ReadLogEntries(log);
  ASSERT_GE(entries.size(), 2u);
  EXPECT_EQ(entries[0].kind, Kind::kDamage);
  EXPECT_EQ(entries[0].offset, 0u);
  EXPECT_EQ(entries[0].length, log::kBlockSize);
  EXPECT_EQ(entries[0].reason, "checksum mismatch");
  // The fourth filler began in the first block: its other fragments are
  // damage too; the records that start in the second block are intact.
  const std::vector<std::string> payloads = RecordPayloads(entries);
  ASSERT_FALSE(payloads.empty());
  EXPECT_EQ(payloads.back(), "last");
  for (const LogEntry& entry : entries) {
    if (entry.kind == Kind::kDamage && entry.offset > 0) {
      EXPECT_EQ(entry.reason, "last fragment without a first fragment");
    }
  }
}

TEST(LogReader, UncheckedReadingTakesTheDamagedRecord) {
  std::string log = WriteLogBytes({"abc"});
  log[log::kHeaderSize] = 'X';
  const std::vector<LogEntry> entries =
      ReadLogEntries(log, /*verify_checksums=*/false);
  EXPECT_THAT(RecordPayloads(entries), ElementsAre("Xbc"));
}

TEST(LogReader, TornTailIsDamageAtTheEnd) {
  std::string log = WriteLogBytes({"kept", "lost in a crash"});
  log.resize(log.size() - 4);
  const std::vector<LogEntry> entries = ReadLogEntries(log);
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries[0].payload, "kept");
  EXPECT_EQ(entries[1].kind, Kind::kDamage);
  EXPECT_EQ(entries[1].reason, "truncated record at end of file");
}

TEST(LogReader, FragmentedRecordCutAtABlockBoundaryIsDamage) {
  std::string log = WriteLogBytes({"a", Bytes(50000, 'q')});
  log.resize(log::kBlockSize);
  const std::vector<LogEntry> entries = ReadLogEntries(log);
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries[1].kind, Kind::kDamage);
  EXPECT_EQ(entries[1].reason, "truncated record at end of file");
}

TEST(LogReader, UnknownTypeIsDamageAndReadingGoesOn) {
  std::string log = WriteLogBytes({"a"});
  // A fragment of type 9 with a valid checksum.
  std::string fragment = "\0\0\0\0\x02\0\x09zz";
  fragment.resize(9);
  fragment[4] = 2;
  fragment[6] = 9;
  fragment[7] = 'z';
  fragment[8] = 'z';
  EncodeFixed32(fragment.data(),
                crc32c::Mask(crc32c::Value(fragment.data() + 6, 3)));
  log += fragment + WriteLogBytes({"b"});
  const std::vector<LogEntry> entries = ReadLogEntries(log);
  ASSERT_EQ(entries.size(), 3u);
  EXPECT_EQ(entries[1].kind, Kind::kDamage);
  EXPECT_EQ(entries[1].reason, "unknown record type 9");
  EXPECT_EQ(entries[1].length, 9u);
  EXPECT_EQ(entries[2].payload, "b");
}

TEST(LogReader, TypeZeroHeaderWithAChecksumIsDamageToTheBlockEnd) {
  std::string log = WriteLogBytes({"a"});
  const size_t header = log.size();
  // Type 0, length 0, but checksum bytes set: not a preallocated zero.
  log += std::string("\xff\xff\x7f\x00\x00\x00\x00", 7) + "data";
  const std::vector<LogEntry> entries = ReadLogEntries(log);
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries[1].kind, Kind::kDamage);
  EXPECT_EQ(entries[1].offset, header);
  EXPECT_EQ(entries[1].reason, "record of reserved type 0");
}

TEST(LogReader, DataAfterZeroPaddingInABlockIsDamage) {
  std::string log = WriteLogBytes({"a"});
  const size_t zeros = log.size();
  log += std::string(20, '\0') + WriteLogBytes({"b"});
  const std::vector<LogEntry> entries = ReadLogEntries(log);
  ASSERT_EQ(entries.size(), 3u);
  EXPECT_EQ(entries[1].kind, Kind::kPadding);
  EXPECT_EQ(entries[1].offset, zeros);
  EXPECT_EQ(entries[1].length, 20u);
  EXPECT_EQ(entries[2].kind, Kind::kDamage);
  EXPECT_EQ(entries[2].reason, "data after zero padding in the same block");
}

TEST(LogReader, NonZeroTrailerIsDamage) {
  const std::string first(log::kBlockSize - log::kHeaderSize - 3, 'f');
  std::string log = WriteLogBytes({first, "next"});
  log[log::kBlockSize - 2] = 'x';
  const std::vector<LogEntry> entries = ReadLogEntries(log);
  ASSERT_EQ(entries.size(), 3u);
  EXPECT_EQ(entries[1].kind, Kind::kDamage);
  EXPECT_EQ(entries[1].reason, "non-zero block trailer");
  EXPECT_EQ(entries[2].payload, "next");
}

TEST(LogReader, NextRecordPassesOverDamageAndCountsIt) {
  std::string log = WriteLogBytes({"a", "b"});
  log.resize(log.size() - 1);
  std::unique_ptr<RandomAccessFile> file = NewMemoryRandomAccessFile(log);
  LogReader reader(file.get(), log.size());
  LogEntry entry;
  ASSERT_TRUE(reader.NextRecord(&entry));
  EXPECT_EQ(entry.payload, "a");
  EXPECT_FALSE(reader.NextRecord(&entry));
  EXPECT_EQ(reader.accounting().records, 1u);
  EXPECT_EQ(reader.accounting().damaged_ranges, 1u);
  EXPECT_EQ(reader.accounting().damaged_bytes, 7u);
}

// One fragment of `type` holding `payload`, its checksum right.
std::string Fragment(int type, const std::string& payload) {
  std::string fragment(log::kHeaderSize, '\0');
  fragment[4] = static_cast<char>(payload.size() & 0xff);
  fragment[5] = static_cast<char>(payload.size() >> 8);
  fragment[6] = static_cast<char>(type);
  fragment += payload;
  EncodeFixed32(fragment.data(), crc32c::Mask(crc32c::Value(
                                     fragment.data() + 6, 1 + payload.size())));
  return fragment;
}

std::vector<Kind> Kinds(const std::vector<LogEntry>& entries) {
  std::vector<Kind> kinds;
  for (const LogEntry& entry : entries) kinds.push_back(entry.kind);
  return kinds;
}

// LevelDB's reader takes a fragment of type 5 as the end of the file: the
// marker and everything after it is one entry, and NextRecord stops there.
TEST(LogReader, TypeFiveEndsTheLog) {
  const std::string head = WriteLogBytes({"a"});
  const std::string log =
      head + Fragment(5, "marker") + WriteLogBytes({"b", "c"});
  const std::vector<LogEntry> entries = ReadLogEntries(log);
  EXPECT_THAT(Kinds(entries), ElementsAre(Kind::kRecord, Kind::kEndOfLog));
  EXPECT_EQ(entries[1].offset, head.size());
  EXPECT_EQ(entries[1].length, log.size() - head.size());
  EXPECT_THAT(entries[1].reason, ::testing::HasSubstr("type 5"));

  std::unique_ptr<RandomAccessFile> file = NewMemoryRandomAccessFile(log);
  LogReader reader(file.get(), log.size());
  LogEntry entry;
  ASSERT_TRUE(reader.NextRecord(&entry));
  EXPECT_EQ(entry.payload, "a");
  EXPECT_FALSE(reader.NextRecord(&entry));
  EXPECT_EQ(reader.accounting().unread_bytes, log.size() - head.size());
}

// The checksum is checked before the type is read: a type-5 fragment whose
// checksum fails is damage, and reading goes on at the next block.
TEST(LogReader, TypeFiveWithABadChecksumIsDamage) {
  std::string marker = Fragment(5, "marker");
  marker[0] ^= 1;
  const std::string log = WriteLogBytes({"a"}) + marker;
  const std::vector<LogEntry> entries = ReadLogEntries(log);
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries[1].kind, Kind::kDamage);
  EXPECT_EQ(entries[1].reason, "checksum mismatch");
  EXPECT_TRUE(entries[1].leveldb_reports);
}

// A fragment of type 6 (LevelDB's bad-record marker) is skipped alone and
// silently; one of type 7 or 8 (or any unknown type) alone and reported; the
// records after it in the same block are read.
TEST(LogReader, TypesSixToEightAreSkippedAloneKeepingTheBlock) {
  for (int type : {6, 7, 8, 9, 255}) {
    SCOPED_TRACE(type);
    const std::string log =
        WriteLogBytes({"a"}) + Fragment(type, "odd") + WriteLogBytes({"b"});
    const std::vector<LogEntry> entries = ReadLogEntries(log);
    ASSERT_EQ(entries.size(), 3u);
    EXPECT_EQ(entries[1].kind, Kind::kDamage);
    EXPECT_EQ(entries[1].length, log::kHeaderSize + 3);
    EXPECT_EQ(entries[1].leveldb_reports, type != 6) << entries[1].reason;
    EXPECT_THAT(RecordPayloads(entries), ElementsAre("a", "b"));
  }
}

// Which damage LevelDB's reader reports (and so fails its MANIFEST
// recovery on) and which it passes over silently.
TEST(LogReader, SaysWhichDamageLevelDBReports) {
  auto only_damage = [](const std::string& log) {
    std::vector<LogEntry> damage;
    for (const LogEntry& entry : ReadLogEntries(log)) {
      if (entry.kind == Kind::kDamage) damage.push_back(entry);
    }
    EXPECT_EQ(damage.size(), 1u);
    return damage.empty() ? LogEntry() : damage[0];
  };
  std::string log = WriteLogBytes({"abc", "def"});
  log[log::kHeaderSize] ^= 1;  // a checksum mismatch
  EXPECT_TRUE(only_damage(log).leveldb_reports);

  log = WriteLogBytes({"abc", "def"});
  log.resize(log.size() - 1);  // a torn tail
  EXPECT_FALSE(only_damage(log).leveldb_reports);

  log = WriteLogBytes({"abc"}) + Fragment(log::kLastType, "x");
  EXPECT_TRUE(only_damage(log).leveldb_reports);  // no first fragment

  log = WriteLogBytes({"a"}) + std::string(10, '\0') + "junk";
  EXPECT_FALSE(only_damage(log).leveldb_reports);  // after zero padding

  // A FIRST fragment with bytes, then a FULL one: the broken record is
  // reported; after an empty FIRST fragment (an old writer's), it is not.
  log = Fragment(log::kFirstType, "part") + Fragment(log::kFullType, "whole");
  EXPECT_TRUE(only_damage(log).leveldb_reports);
  log = Fragment(log::kFirstType, "") + Fragment(log::kFullType, "whole");
  EXPECT_FALSE(only_damage(log).leveldb_reports);

  // A record broken by a type-6 fragment is reported, the fragment is not.
  const std::vector<LogEntry> entries =
      ReadLogEntries(Fragment(log::kFirstType, "part") + Fragment(6, "odd"));
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_TRUE(entries[0].leveldb_reports);
  EXPECT_FALSE(entries[1].leveldb_reports);
}

TEST(LogReader, FileShorterThanItsSizeIsAnError) {
  const std::string log = WriteLogBytes({"abc"});
  std::unique_ptr<RandomAccessFile> file = NewMemoryRandomAccessFile(log);
  LogReader reader(file.get(), log.size() + 100);
  LogEntry entry;
  EXPECT_FALSE(reader.Next(&entry));
  EXPECT_TRUE(absl::IsDataLoss(reader.status())) << reader.status();
}

}  // namespace
}  // namespace bloomtable
