// LogReader's decisions about fragment chains, on logs assembled fragment by
// fragment: a FULL or FIRST fragment that arrives while a chain is pending
// ends that chain as damage (LevelDB's reader drops it the same way), a
// MIDDLE or LAST fragment with no chain pending is damage, and a chain whose
// next fragment sits in a damaged block is never joined across the damage.
// Whatever the layout, the records read back are exactly records that were
// written whole: never a payload glued from two chains.

#include <string>
#include <vector>

#include "bloomtable/log_reader.h"
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
using ::testing::IsEmpty;

// One fragment of `type` with a valid checksum.
std::string Fragment(log::RecordType type, const std::string& payload) {
  std::string fragment(log::kHeaderSize, '\0');
  fragment[4] = static_cast<char>(payload.size() & 0xff);
  fragment[5] = static_cast<char>(payload.size() >> 8);
  fragment[6] = static_cast<char>(type);
  fragment += payload;
  EncodeFixed32(fragment.data(), crc32c::Mask(crc32c::Value(
                                     fragment.data() + 6, 1 + payload.size())));
  return fragment;
}

std::string First(const std::string& p) { return Fragment(log::kFirstType, p); }
std::string Middle(const std::string& p) {
  return Fragment(log::kMiddleType, p);
}
std::string Last(const std::string& p) { return Fragment(log::kLastType, p); }
std::string Full(const std::string& p) { return Fragment(log::kFullType, p); }

// The kinds of the entries, in order.
std::vector<Kind> Kinds(const std::vector<LogEntry>& entries) {
  std::vector<Kind> kinds;
  for (const LogEntry& entry : entries) kinds.push_back(entry.kind);
  return kinds;
}

TEST(LogFragmentChain, FullFragmentDropsThePendingChain) {
  const std::string log = First("A") + Full("B") + Last("C");
  const std::vector<LogEntry> entries = ReadLogEntries(log);
  // "AC" was never written: the FIRST without its LAST is damage, B is the
  // only record, and the LAST has no chain to end.
  EXPECT_THAT(RecordPayloads(entries), ElementsAre("B"));
  ASSERT_THAT(Kinds(entries),
              ElementsAre(Kind::kDamage, Kind::kRecord, Kind::kDamage));
  EXPECT_EQ(entries[0].offset, 0u);
  EXPECT_EQ(entries[0].length, log::kHeaderSize + 1);
  EXPECT_EQ(entries[0].reason, "partial record without end");
  EXPECT_EQ(entries[1].offset, log::kHeaderSize + 1);
  EXPECT_EQ(entries[1].fragments, 1);
  EXPECT_EQ(entries[2].reason, "last fragment without a first fragment");
}

TEST(LogFragmentChain, FullFragmentDropsAChainWithMiddles) {
  const std::string log = First("A") + Middle("M") + Full("B") + Middle("N") +
                          Last("C") + Full("D");
  const std::vector<LogEntry> entries = ReadLogEntries(log);
  EXPECT_THAT(RecordPayloads(entries), ElementsAre("B", "D"));
  EXPECT_THAT(Kinds(entries),
              ElementsAre(Kind::kDamage, Kind::kRecord, Kind::kDamage,
                          Kind::kDamage, Kind::kRecord));
  // The dropped chain spans both of its fragments.
  EXPECT_EQ(entries[0].length, 2 * (log::kHeaderSize + 1));
}

TEST(LogFragmentChain, FirstFragmentDropsThePendingChain) {
  const std::string log = First("A") + First("B") + Last("C");
  const std::vector<LogEntry> entries = ReadLogEntries(log);
  EXPECT_THAT(RecordPayloads(entries), ElementsAre("BC"));
  ASSERT_THAT(Kinds(entries), ElementsAre(Kind::kDamage, Kind::kRecord));
  EXPECT_EQ(entries[0].length, log::kHeaderSize + 1);
  EXPECT_EQ(entries[0].reason, "partial record without end");
  EXPECT_EQ(entries[1].offset, log::kHeaderSize + 1);
  EXPECT_EQ(entries[1].fragments, 2);
}

TEST(LogFragmentChain, MiddleWithoutFirstIsDamage) {
  const std::string log = Full("A") + Middle("M") + Full("B");
  const std::vector<LogEntry> entries = ReadLogEntries(log);
  EXPECT_THAT(RecordPayloads(entries), ElementsAre("A", "B"));
  ASSERT_THAT(Kinds(entries),
              ElementsAre(Kind::kRecord, Kind::kDamage, Kind::kRecord));
  EXPECT_EQ(entries[1].reason, "middle fragment without a first fragment");
  EXPECT_EQ(entries[1].length, log::kHeaderSize + 1);
}

TEST(LogFragmentChain, MiddleAndLastWithoutFirstAreNotJoined) {
  // A MIDDLE then a LAST with no FIRST before them: neither starts a chain,
  // so "MC" must not come back.
  const std::string log = Middle("M") + Last("C") + Full("D");
  const std::vector<LogEntry> entries = ReadLogEntries(log);
  EXPECT_THAT(RecordPayloads(entries), ElementsAre("D"));
  ASSERT_THAT(Kinds(entries),
              ElementsAre(Kind::kDamage, Kind::kDamage, Kind::kRecord));
  EXPECT_EQ(entries[0].reason, "middle fragment without a first fragment");
  EXPECT_EQ(entries[1].reason, "last fragment without a first fragment");
}

TEST(LogFragmentChain, LastWithoutFirstAfterACompleteChain) {
  // The chain A+C is complete; a second LAST has nothing to end.
  const std::string log = First("A") + Last("C") + Last("X") + Full("D");
  const std::vector<LogEntry> entries = ReadLogEntries(log);
  EXPECT_THAT(RecordPayloads(entries), ElementsAre("AC", "D"));
  ASSERT_THAT(Kinds(entries),
              ElementsAre(Kind::kRecord, Kind::kDamage, Kind::kRecord));
  EXPECT_EQ(entries[1].reason, "last fragment without a first fragment");
}

TEST(LogFragmentChain, ChainIsNotJoinedAcrossADamagedBlock) {
  // A record of three blocks' worth: FIRST in block 0, MIDDLE filling block
  // 1, LAST in block 2. A flipped byte in block 1's payload fails its
  // checksum: the FIRST must not be joined with the LAST.
  const std::string big(2 * log::kBlockSize + 100, 'r');
  std::string log = WriteLogBytes({big, "after"});
  log[log::kBlockSize + log::kHeaderSize + 10] ^= 0x01;
  const std::vector<LogEntry> entries = ReadLogEntries(log);
  EXPECT_THAT(RecordPayloads(entries), ElementsAre("after"));
  for (const LogEntry& entry : entries) {
    if (entry.kind == Kind::kRecord) continue;
    EXPECT_EQ(entry.kind, Kind::kDamage);
  }
  ASSERT_GE(entries.size(), 3u);
  // The dropped FIRST is damage from the start of the file up to the
  // damaged fragment; the damaged block is damage of its own.
  EXPECT_EQ(entries[0].offset, 0u);
  EXPECT_EQ(entries[0].length, log::kBlockSize);
  EXPECT_EQ(entries[0].reason, "partial record without end");
  EXPECT_EQ(entries[1].offset, log::kBlockSize);
  EXPECT_EQ(entries[1].reason, "checksum mismatch");
}

TEST(LogFragmentChain, ChainIsNotJoinedAcrossADamagedBlockUnchecked) {
  // The same with checksums off: a fragment whose type byte was damaged into
  // an unknown type ends the pending chain, so the LAST in the next block
  // stays alone.
  const std::string big(2 * log::kBlockSize + 100, 'r');
  std::string log = WriteLogBytes({big, "after"});
  log[log::kBlockSize + 6] = 9;  // the MIDDLE's type: unknown
  const std::vector<LogEntry> entries =
      ReadLogEntries(log, /*verify_checksums=*/false);
  EXPECT_THAT(RecordPayloads(entries), ElementsAre("after"));
  ASSERT_GE(entries.size(), 4u);
  EXPECT_EQ(entries[0].reason, "partial record without end");
  EXPECT_EQ(entries[1].reason, "unknown record type 9");
  EXPECT_EQ(entries[2].reason, "last fragment without a first fragment");
}

TEST(LogFragmentChain, ChainAcrossABlockWithABadLengthIsDropped) {
  // Block 1's fragment claims more bytes than the block has: the chain
  // pending from block 0 is dropped, and block 2's LAST ends nothing.
  const std::string big(2 * log::kBlockSize + 100, 'r');
  std::string log = WriteLogBytes({big});
  log[log::kBlockSize + 4] = static_cast<char>(0xff);
  log[log::kBlockSize + 5] = static_cast<char>(0xff);
  const std::vector<LogEntry> entries = ReadLogEntries(log);
  EXPECT_THAT(RecordPayloads(entries), IsEmpty());
  ASSERT_EQ(entries.size(), 3u);
  EXPECT_EQ(entries[0].reason, "partial record without end");
  EXPECT_EQ(entries[1].reason, "bad record length 65535");
  EXPECT_EQ(entries[2].reason, "last fragment without a first fragment");
}

TEST(LogFragmentChain, TruncatedChainAtEndOfFileIsDamage) {
  const std::string log = Full("A") + First("B") + Middle("M");
  const std::vector<LogEntry> entries = ReadLogEntries(log);
  EXPECT_THAT(RecordPayloads(entries), ElementsAre("A"));
  ASSERT_THAT(Kinds(entries), ElementsAre(Kind::kRecord, Kind::kDamage));
  EXPECT_EQ(entries[1].reason, "truncated record at end of file");
  EXPECT_EQ(entries[1].length, 2 * (log::kHeaderSize + 1));
}

TEST(LogFragmentChain, NextRecordSkipsTheDroppedChain) {
  const std::string log = First("A") + Full("B") + Last("C") + Full("D");
  std::unique_ptr<RandomAccessFile> file = NewMemoryRandomAccessFile(log);
  LogReader reader(file.get(), log.size());
  std::vector<std::string> records;
  LogEntry entry;
  while (reader.NextRecord(&entry)) records.push_back(entry.payload);
  EXPECT_TRUE(reader.status().ok()) << reader.status();
  EXPECT_THAT(records, ElementsAre("B", "D"));
  EXPECT_EQ(reader.accounting().records, 2u);
  EXPECT_EQ(reader.accounting().damaged_ranges, 2u);
}

}  // namespace
}  // namespace bloomtable
