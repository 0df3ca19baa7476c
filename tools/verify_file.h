// `verify`'s check of one table file, shared by `verify FILE` and `verify
// DIR` (which checks every live table of a database this way).

#ifndef BLOOMTABLE_TOOLS_VERIFY_FILE_H_
#define BLOOMTABLE_TOOLS_VERIFY_FILE_H_

#include <string>

#include "absl/status/status.h"
#include "tools/table_file.h"

namespace bloomtable {
namespace tool {

struct Verdict {
  // OK, or the first damage (placed at an offset, table/corruption.h), or
  // the file's error.
  absl::Status status;
  // Sound, read without --internal_keys, and its keys look like a LevelDB
  // database's.
  bool keys_look_internal = false;
};

// Reads every block of the table at `path`, checking checksums, structure,
// key order and every key's filter answer.
Verdict VerifyFile(const std::string& path, bool internal_keys,
                   const FileOpener& open_file);

}  // namespace tool
}  // namespace bloomtable

#endif  // BLOOMTABLE_TOOLS_VERIFY_FILE_H_
