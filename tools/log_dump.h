// `bloomtable dump` for LevelDB's log files: a write-ahead log (each
// record's offset, sequence, count and operations) or a MANIFEST (each
// version edit, then the version they give). Damaged ranges are printed
// where they lie and the dump goes on; the exit status is then 3 (4 for a
// read error, 5 for RocksDB's batch or edit tags), with one line on standard
// error, as for a damaged table.

#ifndef BLOOMTABLE_TOOLS_LOG_DUMP_H_
#define BLOOMTABLE_TOOLS_LOG_DUMP_H_

#include <cstdint>
#include <string>

#include "bloomtable/db_files.h"
#include "bloomtable/file.h"
#include "tools/output_format.h"

namespace bloomtable {
namespace tool {

// Dumps `file` (of `file_size` bytes, at `path`), whose content is `kind`
// (kWriteAheadLog or kManifest), as text, as one JSON document, or as JSON
// Lines: a line of kind "log" or "manifest" (file, file_size), one per
// entry as the document's entries, then "summary", "version" (a MANIFEST)
// and, on damage, "error". Returns the exit status.
int DumpLogFile(const std::string& path, const RandomAccessFile& file,
                uint64_t file_size, LogContents kind, OutputFormat format);

}  // namespace tool
}  // namespace bloomtable

#endif  // BLOOMTABLE_TOOLS_LOG_DUMP_H_
