// Test helpers for logs: writing one in memory with the library's own
// LogWriter, and reading every entry back with a check that the entries
// cover the file exactly. Test-only code.

#ifndef BLOOMTABLE_TESTS_LOG_TEST_UTIL_H_
#define BLOOMTABLE_TESTS_LOG_TEST_UTIL_H_

#include <string>
#include <vector>

#include "bloomtable/file.h"
#include "bloomtable/log_reader.h"
#include "db/log_writer.h"
#include "gtest/gtest.h"

namespace bloomtable {

// The bytes of a log holding `records`, in order.
inline std::string WriteLogBytes(const std::vector<std::string>& records) {
  StringWritableFile file;
  LogWriter writer(&file);
  for (const std::string& record : records) {
    EXPECT_TRUE(writer.AddRecord(record).ok());
  }
  return file.contents();
}

// Every entry of the log `bytes`; fails the test unless they cover it
// exactly, in order, and the accounting adds up.
inline std::vector<LogEntry> ReadLogEntries(const std::string& bytes,
                                            bool verify_checksums = true) {
  std::unique_ptr<RandomAccessFile> file = NewMemoryRandomAccessFile(bytes);
  LogReader::Options options;
  options.verify_checksums = verify_checksums;
  LogReader reader(file.get(), bytes.size(), options);
  std::vector<LogEntry> entries;
  LogEntry entry;
  uint64_t covered = 0;
  while (reader.Next(&entry)) {
    EXPECT_EQ(entry.offset, covered);
    EXPECT_GT(entry.length, 0u);
    covered = entry.offset + entry.length;
    entries.push_back(entry);
  }
  EXPECT_TRUE(reader.status().ok()) << reader.status();
  EXPECT_EQ(covered, bytes.size());
  const LogAccounting& totals = reader.accounting();
  EXPECT_EQ(totals.record_bytes + totals.padding_bytes + totals.damaged_bytes +
                totals.unread_bytes,
            bytes.size());
  return entries;
}

inline std::vector<std::string> RecordPayloads(
    const std::vector<LogEntry>& entries) {
  std::vector<std::string> payloads;
  for (const LogEntry& entry : entries) {
    if (entry.kind == LogEntry::Kind::kRecord) {
      payloads.push_back(entry.payload);
    }
  }
  return payloads;
}

}  // namespace bloomtable

#endif  // BLOOMTABLE_TESTS_LOG_TEST_UTIL_H_
