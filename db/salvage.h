// What the database view reads in salvage mode (SalvageOptions, docs/
// DESIGN.md "Salvage") beyond what it reads as LevelDB does: tables read
// whole past their damaged blocks into the view's in-memory records, the
// leftover files' records, and a version made from the directory's files
// when the MANIFEST gives none. Used by database.cc at open; every function
// appends one warning per thing it skipped, repaired or recovered, naming
// the file and the offset, and counts them in `*events`.

#ifndef BLOOMTABLE_DB_SALVAGE_H_
#define BLOOMTABLE_DB_SALVAGE_H_

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "bloomtable/comparator.h"
#include "bloomtable/database.h"
#include "bloomtable/db_version.h"
#include "bloomtable/write_batch.h"
#include "db/log_view.h"

namespace bloomtable {

// Adds a leftover log's write batch operations to `out` as records of
// status kLeftover (those at or below `snapshot`), each with the file name
// and the offset of the log record holding its batch.
class LeftoverRecordCollector final : public WriteBatchHandler {
 public:
  LeftoverRecordCollector(std::vector<VersionRecord>* out,
                          const std::string& file, uint64_t offset,
                          uint64_t snapshot)
      : out_(out), file_(file), offset_(offset), snapshot_(snapshot) {}
  void Put(uint64_t sequence, std::string_view key,
           std::string_view value) override;
  void Delete(uint64_t sequence, std::string_view key) override;

 private:
  void Add(uint64_t sequence, std::string_view key, bool deletion,
           std::string_view value);

  std::vector<VersionRecord>* const out_;
  const std::string& file_;
  const uint64_t offset_;
  const uint64_t snapshot_;
};

// The table (.ldb, .sst) and log files of `dir` whose numbers are not in
// the live sets, by number.
struct LeftoverFiles {
  std::map<uint64_t, std::string> tables;
  std::map<uint64_t, std::string> logs;
};
LeftoverFiles FindLeftoverFiles(const std::string& dir,
                                const std::set<uint64_t>& live_tables,
                                const std::set<uint64_t>& live_logs);

// A version for a directory whose MANIFEST gives none: every table file at
// level 0 (sizes from the files, no key ranges), every log live, the
// comparator named as `comparator` (null: bytewise), as leveldb::RepairDB
// treats the directory. `why` is the MANIFEST's error, for the warning.
DatabaseVersion VersionFromDirectory(const std::string& dir,
                                     const Comparator* comparator);

// Reads the table `name` of `dir` past its damage (table/table_salvage.h)
// and adds its entries to `view` as records of the source `name`.
void SalvageTableInto(const std::string& dir, const std::string& name,
                      LogView* view, std::vector<std::string>* warnings,
                      uint64_t* events);

// The records of the leftover `files` of `dir` (tables read as
// SalvageTableInto reads them, logs with salvage's log reader), with
// status kLeftover.
void SalvageLeftovers(const std::string& dir, const LeftoverFiles& files,
                      std::vector<VersionRecord>* records,
                      std::vector<std::string>* warnings, uint64_t* events);

}  // namespace bloomtable

#endif  // BLOOMTABLE_DB_SALVAGE_H_
