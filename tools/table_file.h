// Opening a table file for the bloomtable tool, with the checks that give
// each kind of wrong file its own message: a missing file and a directory
// (I/O errors), an empty file and a file too short for a footer (not a
// table), and whatever Table::Open finds.

#ifndef BLOOMTABLE_TOOLS_TABLE_FILE_H_
#define BLOOMTABLE_TOOLS_TABLE_FILE_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "bloomtable/file.h"
#include "bloomtable/options.h"
#include "bloomtable/table.h"

namespace bloomtable {
namespace tool {

// How the tool opens a file for reading: OpenRandomAccessFile, or in tests a
// function that wraps the file (to inject read errors).
using FileOpener =
    std::function<absl::StatusOr<std::unique_ptr<RandomAccessFile>>(
        const std::string& path)>;

// Options for reading: every known filter policy, and internal keys if
// `internal_keys`.
Options ReadingOptions(bool internal_keys);

// The size of the table file at `path`, after checking that it is a regular
// file (errors name the path: NotFound, a directory, ...) and long enough to
// hold a footer (DataLoss "empty file" or "too short", naming the path).
absl::StatusOr<uint64_t> CheckedTableFileSize(const std::string& path);

struct OpenedTable {
  std::unique_ptr<Table> table;
  uint64_t file_size = 0;
};

// Opens the table at `path` with `open_file`, with every known filter policy
// and, if the table has a prefix filter of a built-in extractor, that
// extractor. Errors are as CheckedTableFileSize's, the file's own, and
// Table::Open's (DataLoss, Unimplemented for an unsupported table).
absl::StatusOr<OpenedTable> OpenTableFile(const std::string& path,
                                          bool internal_keys,
                                          const FileOpener& open_file);

}  // namespace tool
}  // namespace bloomtable

#endif  // BLOOMTABLE_TOOLS_TABLE_FILE_H_
