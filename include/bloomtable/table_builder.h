// TableBuilder writes a sorted table file in LevelDB's format (FORMAT.md).
//
// Call order: (Add)* (Finish | Abandon). Keys must be added in strictly
// increasing order of options.comparator. The builder is single-threaded.
// It keeps a sticky status: once a call fails (a file error, or a key out of
// order, which is InvalidArgument), every later Add and Finish returns that
// status and only Abandon is useful.
//
// Every table it writes can be read back: no block passes the 4 GiB a reader
// accepts. A data block is ended early rather than let an entry take it
// past that. Two entries are refused instead, with InvalidArgument, before
// anything is written and without changing the builder (the status is not
// sticky: the caller may go on, or Finish): one too large for any block
// (its key and value together near 4 GiB), and one whose index entry could
// take the index block past 4 GiB (the table is full: Finish it and start
// another). A per-block filter that would pass 4 GiB stops there: the data
// blocks after it are read without a filter.
//
// Finish writes the last blocks and the footer but neither syncs nor closes
// the file: durability is the caller's (WritableFile::Sync, then Close).

#ifndef BLOOMTABLE_INCLUDE_BLOOMTABLE_TABLE_BUILDER_H_
#define BLOOMTABLE_INCLUDE_BLOOMTABLE_TABLE_BUILDER_H_

#include <cstdint>
#include <memory>
#include <string_view>

#include "absl/status/status.h"
#include "bloomtable/file.h"
#include "bloomtable/options.h"

namespace bloomtable {

class TableBuilderTestPeer;

class TableBuilder {
 public:
  // Writes to `*file`, which must outlive the builder. Options are copied.
  TableBuilder(const Options& options, WritableFile* file);
  TableBuilder(const TableBuilder&) = delete;
  TableBuilder& operator=(const TableBuilder&) = delete;
  // REQUIRES: Finish or Abandon was called.
  ~TableBuilder();

  absl::Status Add(std::string_view key, std::string_view value);
  absl::Status Finish();
  void Abandon();

  // The first error met, or OK.
  absl::Status status() const;
  uint64_t NumEntries() const;
  // Bytes written so far; after Finish, the size of the whole file.
  uint64_t FileSize() const;

 private:
  friend class TableBuilderTestPeer;  // lowers the size limits in tests

  struct Rep;
  std::unique_ptr<Rep> rep_;
};

}  // namespace bloomtable

#endif  // BLOOMTABLE_INCLUDE_BLOOMTABLE_TABLE_BUILDER_H_
