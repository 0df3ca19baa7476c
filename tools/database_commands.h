// The bloomtable tool's subcommands on a LevelDB database directory: each
// table subcommand that is given a directory where it takes a table file
// hands it to the function here (get, scan, stats, verify, dump). The
// directory is opened with Database::OpenReadOnly: nothing is written into
// it and no LOCK is taken.
//
// Exit statuses (exit_status.h) as for tables: a directory that holds no
// LevelDB database (no CURRENT, no MANIFEST-*) is kExitDamaged, "not a
// LevelDB database"; a database of another engine (RocksDB, Pebble) and a
// database whose comparator the tool does not know, for get and scan, are
// kExitUnsupported.

#ifndef BLOOMTABLE_TOOLS_DATABASE_COMMANDS_H_
#define BLOOMTABLE_TOOLS_DATABASE_COMMANDS_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "bloomtable/database.h"
#include "tools/cli.h"

namespace bloomtable {
namespace tool {

// True if `path` names a directory (following symbolic links).
bool IsDirectory(const std::string& path);

// Opens `dir` for the tool, with SalvageOptions::All() when --salvage is
// given; prints the database's warnings to standard error. A directory
// without CURRENT or any MANIFEST is DataLoss ("not a LevelDB database
// directory"). Its errors are reported as a file's (ReportFileError).
absl::StatusOr<std::unique_ptr<Database>> OpenDatabaseForTool(
    const std::string& dir, const DatabaseOptions& options = {});

// Reports an error met reading the open database `db` in `dir` on standard
// error and returns its exit status (FailedPrecondition from a database
// whose comparator is unknown is kExitUnsupported).
int ReportDatabaseError(const std::string& dir, const Database& db,
                        const absl::Status& status);

// `get DIR KEY` and `get DIR --key_file F`: `keys` already decoded.
int RunDatabaseGet(const CommandLine& command_line,
                   const std::vector<std::string>& keys, bool from_file);
int RunDatabaseScan(const CommandLine& command_line);
int RunDatabaseStats(const CommandLine& command_line);
// Verifies the database `dir`, printing one line per file, and with
// `filters_dir` (not empty) each table's sidecar filter there; returns the
// exit status as `verify` does for files.
int RunDatabaseVerify(const std::string& dir, const std::string& filters_dir);

// The options get and scan open a database with: --filters.
DatabaseOptions ToolDatabaseOptions();
int RunDatabaseDump(const CommandLine& command_line);

}  // namespace tool
}  // namespace bloomtable

#endif  // BLOOMTABLE_TOOLS_DATABASE_COMMANDS_H_
