// The bloomtable tool's exit statuses: a contract that scripts rely on
// (README, "Exit status"; docs/DESIGN.md, "The tool").

#ifndef BLOOMTABLE_TOOLS_EXIT_STATUS_H_
#define BLOOMTABLE_TOOLS_EXIT_STATUS_H_

namespace bloomtable {
namespace tool {

enum ExitStatus : int {
  kExitSuccess = 0,
  // `get`: the table holds no such key. Not an error.
  kExitKeyNotFound = 1,
  // Unknown subcommand or flag, a flag that does not apply to the
  // subcommand, a missing or bad argument.
  kExitUsage = 2,
  // A damaged file, a file that is not a table, bad `build` input; `verify`
  // when a file is unsound.
  kExitDamaged = 3,
  // An I/O error: a missing file, no permission, a failed write, a FIFO or
  // device where a file was expected. (A directory is read as a LevelDB
  // database: kExitDamaged if it holds none.)
  kExitIoError = 4,
  // Unsupported: a valid table this build cannot read (a RocksDB
  // block-based table, a compression type some writer uses that is not
  // implemented here, a block larger than the reader's limit).
  kExitUnsupported = 5,
  // `get` and `scan` of a database directory with --salvage: the output is
  // what could be read, but salvage skipped, repaired or recovered
  // something (the warnings on standard error name each): partial.
  kExitPartial = 6,
};

}  // namespace tool
}  // namespace bloomtable

#endif  // BLOOMTABLE_TOOLS_EXIT_STATUS_H_
