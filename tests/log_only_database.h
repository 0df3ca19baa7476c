// Writes a small LevelDB database directory by hand for tests: a MANIFEST
// naming a comparator and one live log holding one write batch (no
// tables), as LevelDB leaves a database it has not yet flushed.
//
// Test-only code.

#ifndef BLOOMTABLE_TESTS_LOG_ONLY_DATABASE_H_
#define BLOOMTABLE_TESTS_LOG_ONLY_DATABASE_H_

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "bloomtable/file.h"
#include "bloomtable/version_edit.h"
#include "bloomtable/write_batch.h"
#include "db/log_writer.h"
#include "gtest/gtest.h"

namespace bloomtable {
namespace test {

inline void WriteLogRecords(const std::string& path,
                            const std::vector<std::string>& records) {
  absl::StatusOr<std::unique_ptr<WritableFile>> file = NewWritableFile(path);
  ASSERT_TRUE(file.ok()) << file.status();
  LogWriter writer(file->get());
  for (const std::string& record : records) {
    ASSERT_TRUE(writer.AddRecord(record).ok());
  }
  ASSERT_TRUE((*file)->Close().ok());
}

// `dir` (which exists) gets CURRENT, MANIFEST-000002 and 000003.log, whose
// one batch (sequence 1) puts each (key, value) of `entries` in order.
inline void WriteLogOnlyDatabase(
    const std::string& dir, const std::string& comparator,
    const std::vector<std::pair<std::string, std::string>>& entries) {
  std::vector<WriteOp> ops;
  for (const auto& [key, value] : entries) {
    WriteOp op;
    op.key = key;
    op.value = value;
    ops.push_back(op);
  }
  WriteLogRecords(dir + "/000003.log", {EncodeWriteBatch(1, ops)});
  VersionEdit edit;
  edit.comparator = comparator;
  edit.log_number = 3;
  edit.prev_log_number = 0;
  edit.next_file_number = 4;
  edit.last_sequence = 0;
  std::string record;
  edit.EncodeTo(&record);
  WriteLogRecords(dir + "/MANIFEST-000002", {record});
  absl::StatusOr<std::unique_ptr<WritableFile>> current =
      NewWritableFile(dir + "/CURRENT");
  ASSERT_TRUE(current.ok()) << current.status();
  ASSERT_TRUE((*current)->Append("MANIFEST-000002\n").ok());
  ASSERT_TRUE((*current)->Close().ok());
}

}  // namespace test
}  // namespace bloomtable

#endif  // BLOOMTABLE_TESTS_LOG_ONLY_DATABASE_H_
