// LogWriter appends records to a file in LevelDB's log format
// (db/log_format.h, docs/FORMAT.md "Log files"): the writer behind the
// tests' logs and MANIFESTs and the fuzzers' seeds. Records larger than the
// rest of a block are split into FIRST, MIDDLE* and LAST fragments; fewer
// than 7 bytes left in a block are filled with zeros.
//
// Single-threaded, like the WritableFile it appends to, which must outlive
// it. Call order: (AddRecord)*. Once an append fails, every later call
// returns that error.

#ifndef BLOOMTABLE_DB_LOG_WRITER_H_
#define BLOOMTABLE_DB_LOG_WRITER_H_

#include <cstdint>
#include <string_view>

#include "absl/status/status.h"
#include "bloomtable/file.h"

namespace bloomtable {

class LogWriter {
 public:
  // Appends to `file`, which holds `initial_length` bytes already written
  // in the log format (0 for a new log).
  explicit LogWriter(WritableFile* file, uint64_t initial_length = 0);
  LogWriter(const LogWriter&) = delete;
  LogWriter& operator=(const LogWriter&) = delete;

  absl::Status AddRecord(std::string_view payload);

 private:
  absl::Status EmitFragment(int type, std::string_view fragment);

  WritableFile* const file_;
  size_t block_offset_;  // bytes used in the current block
  absl::Status status_;
};

}  // namespace bloomtable

#endif  // BLOOMTABLE_DB_LOG_WRITER_H_
