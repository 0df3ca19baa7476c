// Every truncation and every flipped byte of a small write-ahead log and of
// a small MANIFEST: the readers report damage or return the right records,
// never a record that was not written, and always account for every byte.

#include <algorithm>
#include <iterator>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "bloomtable/db_version.h"
#include "bloomtable/log_reader.h"
#include "bloomtable/version_edit.h"
#include "bloomtable/write_batch.h"
#include "gtest/gtest.h"
#include "table/internal_key.h"
#include "tests/log_test_util.h"

namespace bloomtable {
namespace {

// Write batches as a LevelDB writer would log them, one of them larger than
// a block so that it is split across the first block boundary.
std::vector<std::string> Batches() {
  std::vector<std::string> batches;
  uint64_t sequence = 1;
  for (int i = 0; i < 6; ++i) {
    std::vector<WriteOp> ops;
    for (int j = 0; j <= i; ++j) {
      WriteOp op;
      op.type = (i + j) % 3 == 0 ? WriteOpType::kDelete : WriteOpType::kPut;
      op.key = "key" + std::to_string(i * 10 + j);
      if (op.type == WriteOpType::kPut) op.value = std::string(20 + j, 'v');
      ops.push_back(op);
    }
    // ops[1] of batch 3 is a put.
    if (i == 3) ops[1].value = std::string(33000, 'B');
    batches.push_back(EncodeWriteBatch(sequence, ops));
    sequence += ops.size();
  }
  return batches;
}

// Offset of each record as written -> its payload.
std::map<uint64_t, std::string> Written(const std::vector<std::string>& all) {
  std::map<uint64_t, std::string> written;
  for (const LogEntry& entry : ReadLogEntries(WriteLogBytes(all))) {
    written[entry.offset] = entry.payload;
  }
  return written;
}

// Checks the entries of `bytes` (a damaged copy of a log whose records are
// `written`): each record returned is the one written at its offset.
// Returns the number of records.
size_t CheckDamagedLog(const std::string& bytes,
                       const std::map<uint64_t, std::string>& written,
                       const std::string& what) {
  size_t records = 0;
  for (const LogEntry& entry : ReadLogEntries(bytes)) {
    if (entry.kind != LogEntry::Kind::kRecord) continue;
    ++records;
    auto found = written.find(entry.offset);
    if (found == written.end() || found->second != entry.payload) {
      ADD_FAILURE() << what << ": a record at " << entry.offset
                    << " that was not written";
      continue;
    }
  }
  return records;
}

// The records of the first `size` bytes of `file` (a truncated copy, without
// copying): each must be the one written at its offset, and the entries must
// cover the `size` bytes exactly.
size_t CheckTruncatedLog(const RandomAccessFile& file, uint64_t size,
                         const std::map<uint64_t, std::string>& written) {
  LogReader reader(&file, size);
  LogEntry entry;
  uint64_t covered = 0;
  size_t records = 0;
  while (reader.Next(&entry)) {
    EXPECT_EQ(entry.offset, covered) << size;
    covered += entry.length;
    if (entry.kind != LogEntry::Kind::kRecord) continue;
    ++records;
    auto found = written.find(entry.offset);
    EXPECT_TRUE(found != written.end() && found->second == entry.payload)
        << "truncated at " << size << ": a record at " << entry.offset
        << " that was not written";
  }
  EXPECT_TRUE(reader.status().ok());
  EXPECT_EQ(covered, size);
  return records;
}

TEST(LogDamage, EveryTruncationGivesAPrefixOfTheRecords) {
  const std::vector<std::string> batches = Batches();
  const std::string log = WriteLogBytes(batches);
  ASSERT_GT(log.size(), 32768u);
  const std::map<uint64_t, std::string> written = Written(batches);
  // Where each record ends: a truncation keeps exactly those ending at or
  // before it.
  std::vector<uint64_t> ends;
  for (auto it = written.begin(); it != written.end(); ++it) {
    auto next = std::next(it);
    ends.push_back(next == written.end() ? log.size() : next->first);
  }
  std::unique_ptr<RandomAccessFile> file = NewMemoryRandomAccessFile(log);
  for (size_t n = 0; n <= log.size(); ++n) {
    const size_t whole = static_cast<size_t>(
        std::upper_bound(ends.begin(), ends.end(), n) - ends.begin());
    ASSERT_EQ(CheckTruncatedLog(*file, n, written), whole) << n;
  }
}

TEST(LogDamage, EveryFlippedByteLosesRecordsButInventsNone) {
  const std::vector<std::string> batches = Batches();
  const std::string log = WriteLogBytes(batches);
  const std::map<uint64_t, std::string> written = Written(batches);
  std::string damaged = log;
  for (size_t i = 0; i < log.size(); ++i) {
    damaged[i] = static_cast<char>(log[i] ^ 0x10);
    const size_t records =
        CheckDamagedLog(damaged, written, "byte " + std::to_string(i));
    ASSERT_LT(records, batches.size()) << "flipped byte " << i;
    damaged[i] = log[i];
  }
}

std::string IKey(const std::string& user_key, uint64_t sequence) {
  std::string key;
  AppendInternalKey(&key, user_key, sequence, ValueType::kValue);
  return key;
}

std::vector<std::string> Edits() {
  std::vector<std::string> records;
  for (uint64_t i = 0; i < 5; ++i) {
    VersionEdit edit;
    if (i == 0) edit.comparator = "leveldb.BytewiseComparator";
    edit.log_number = 3 + i;
    edit.next_file_number = 10 + i;
    edit.last_sequence = 100 * i;
    VersionEdit::NewFile added;
    added.level = static_cast<int>(i % kNumLevels);
    added.file.number = 20 + i;
    added.file.size = 1000 + i;
    added.file.smallest = IKey("a" + std::to_string(i), i);
    added.file.largest = IKey("b" + std::to_string(i), i);
    edit.new_files.push_back(added);
    if (i > 1) edit.deleted_files.push_back({0, 20});
    std::string record;
    edit.EncodeTo(&record);
    records.push_back(record);
  }
  return records;
}

void CheckDamagedManifest(const std::string& bytes,
                          const std::map<uint64_t, std::string>& written,
                          const std::string& what) {
  std::unique_ptr<RandomAccessFile> file = NewMemoryRandomAccessFile(bytes);
  absl::StatusOr<ManifestContents> contents = ReadManifest(*file, bytes.size());
  ASSERT_TRUE(contents.ok()) << what << ": " << contents.status();
  for (const ManifestEdit& edit : contents->edits) {
    auto found = written.find(edit.offset);
    ASSERT_NE(found, written.end()) << what;
    std::string encoded;
    edit.edit.EncodeTo(&encoded);
    EXPECT_EQ(encoded, found->second) << what;
  }
  // Every edit before the first damage was applied, and only those.
  EXPECT_LE(contents->edits.size(), written.size()) << what;
}

TEST(ManifestDamage, EveryTruncationAndFlippedByte) {
  const std::vector<std::string> edits = Edits();
  const std::string manifest = WriteLogBytes(edits);
  const std::map<uint64_t, std::string> written = Written(edits);
  for (size_t n = 0; n <= manifest.size(); ++n) {
    CheckDamagedManifest(manifest.substr(0, n), written,
                         "truncated at " + std::to_string(n));
  }
  std::string damaged = manifest;
  for (size_t i = 0; i < manifest.size(); ++i) {
    for (unsigned char mask : {0x01, 0x80}) {
      damaged[i] = static_cast<char>(manifest[i] ^ mask);
      CheckDamagedManifest(damaged, written, "byte " + std::to_string(i));
      damaged[i] = manifest[i];
    }
  }
}

}  // namespace
}  // namespace bloomtable
