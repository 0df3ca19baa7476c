// Database::ApproximateSplitKeys: cuts the key space into ranges of about
// equal bytes from what the view knows without reading a data block.

#include <string>
#include <vector>

#include "bloomtable/database.h"
#include "db/database_rep.h"
#include "table/format.h"
#include "util/key_splits.h"

namespace bloomtable {
namespace {

// Each range's share of the bytes is cut this finely: a table at most a
// share large counts as two points (its smallest and largest keys, half of
// its bytes each), which places a cut at most half a share from where its
// index would, and needs no table opened; a larger table counts block by
// block, from its index. 16 keeps the ranges within about 1/16 of their
// share of each other.
constexpr uint64_t kPointsPerRange = 16;

}  // namespace

absl::StatusOr<std::vector<std::string>> Database::ApproximateSplitKeys(
    size_t parts) const {
  const Rep& r = *rep_;
  if (r.user_comparator == nullptr) return r.NotOrdered();
  if (parts <= 1) return std::vector<std::string>();
  uint64_t total = 0;
  for (const DatabaseTableFile& file : r.all_tables) total += file.size;
  for (const LogView::Record& record : r.log_view.records()) {
    total += record.internal_key.size() + record.value.size();
  }
  const uint64_t share = total / (parts * kPointsPerRange);

  KeySplitter splitter;
  for (const DatabaseTableFile& file : r.all_tables) {
    if (file.size <= share) {
      splitter.Add(ExtractUserKey(file.smallest), file.size / 2);
      splitter.Add(ExtractUserKey(file.largest), file.size - file.size / 2);
      continue;
    }
    absl::StatusOr<std::shared_ptr<const Table>> table = r.tables.Open(file);
    if (!table.ok()) return table.status();
    for (const TableBlockInfo& block : (*table)->IndexEntries()) {
      splitter.Add(ExtractUserKey(block.separator),
                   block.size + kBlockTrailerSize);
    }
  }
  // The log view's records, sorted, in runs of about a share.
  uint64_t run = 0;
  const std::vector<LogView::Record>& records = r.log_view.records();
  for (size_t i = 0; i < records.size(); ++i) {
    run += records[i].internal_key.size() + records[i].value.size();
    if (run > share || i + 1 == records.size()) {
      splitter.Add(ExtractUserKey(records[i].internal_key), run);
      run = 0;
    }
  }
  return splitter.Cut(parts, *r.user_comparator);
}

}  // namespace bloomtable
