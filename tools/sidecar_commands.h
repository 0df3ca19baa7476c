// The bloomtable tool's reading of sidecar filter files
// (bloomtable/sidecar.h, docs/FORMAT.md "Sidecar filter files"): dump and
// verify of one file, told by its magic number, and verify DIR --filters
// SIDECAR_DIR, which checks each table's sidecar against the table.

#ifndef BLOOMTABLE_TOOLS_SIDECAR_COMMANDS_H_
#define BLOOMTABLE_TOOLS_SIDECAR_COMMANDS_H_

#include <string>

#include "absl/status/status.h"
#include "bloomtable/database.h"
#include "tools/table_file.h"

namespace bloomtable {
namespace tool {

// Whether the file at `path` begins with the sidecar magic number.
bool IsSidecarFile(const std::string& path, const FileOpener& open_file);

// Checks the sidecar file at `path`: its magic, version, checksum and
// structure, and that each filter parses with a policy the tool knows.
// DataLoss (placed at offset 0: the checksum covers the whole file) or
// Unimplemented, or the file's own error.
absl::Status VerifySidecarFile(const std::string& path);

// Prints the sidecar file at `path` (--json: one document); returns the
// exit status.
int DumpSidecarFile(const std::string& path, bool json);

// For each table of `db` (the database in `dir`), checks its sidecar in
// `filters_dir`: present, sound, bound to the table, and answering "maybe"
// for every user key the table holds. Prints one line per table's sidecar
// (OK, MISSING, STALE: why, CORRUPT ..., ERROR: ...); returns the worst exit
// status: a sidecar that is missing or stale is ignored by readers and
// does not fail it, one that is damaged or rejects a key of its table does.
int VerifyDatabaseSidecars(const std::string& dir,
                           const std::string& filters_dir, const Database& db);

}  // namespace tool
}  // namespace bloomtable

#endif  // BLOOMTABLE_TOOLS_SIDECAR_COMMANDS_H_
