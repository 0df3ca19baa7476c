// ReadTableFileInfo learns, from a table file in LevelDB's format (ours, or a
// LevelDB database's .ldb file), what db_bench reports about its storage: the
// file size, the filter blocks the metaindex names (so that "filter bits per
// key as stored" is measured from the file rather than assumed) and the size
// of the index block once uncompressed (what a reader holds in memory).
//
// Reads the footer, the metaindex and the index block (checksums verified).

#ifndef BLOOMTABLE_DB_BENCH_TABLE_FILE_INFO_H_
#define BLOOMTABLE_DB_BENCH_TABLE_FILE_INFO_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "db_bench/engine.h"

namespace bloomtable {
namespace db_bench {

struct TableFileInfo {
  uint64_t file_size = 0;
  // The first filter's metaindex key ("filter.<name>", "fullfilter.<name>",
  // "prefixfilter.<name>" or "rangefilter.<name>"), or empty if the table
  // has no filter.
  std::string filter_key;
  // Bytes of every filter block, point and scan filters, trailers excluded
  // (0 without a filter); for a partitioned filter, its top-level index and
  // every partition.
  uint64_t filter_bytes = 0;
  // Bytes of the index block as a reader holds it: uncompressed, trailer
  // excluded.
  uint64_t index_bytes = 0;
};

// DataLoss for a damaged file; InvalidArgument for another format; the
// file's own errors.
absl::StatusOr<TableFileInfo> ReadTableFileInfo(const std::string& path);

// The table files at `paths`: how many, their bytes and their filter blocks'
// bytes (shape left empty). Files that a compaction removed meanwhile
// (NotFound) are skipped.
absl::StatusOr<StorageSummary> StorageOfFiles(
    const std::vector<std::string>& paths);

}  // namespace db_bench
}  // namespace bloomtable

#endif  // BLOOMTABLE_DB_BENCH_TABLE_FILE_INFO_H_
