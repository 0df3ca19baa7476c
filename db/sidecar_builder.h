// Building the contents of one sidecar filter file (db/sidecar_format.h)
// from an open table: every entry is read in file order, its (user) key
// added once to the point filter and, as SidecarFilterOptions ask, to the
// prefix and range filters.
//
// Plain functions; a build uses only its own table and options, so builds
// of different tables may run on different threads at once.

#ifndef BLOOMTABLE_DB_SIDECAR_BUILDER_H_
#define BLOOMTABLE_DB_SIDECAR_BUILDER_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "bloomtable/filter_policy.h"
#include "bloomtable/sidecar.h"
#include "bloomtable/table.h"
#include "db/sidecar_format.h"

namespace bloomtable {

// The point filter's policy: options.filter_policy, or the default
// (whole-table Ribbon, 10 bits per key).
std::shared_ptr<const FilterPolicy> SidecarPolicy(
    const SidecarFilterOptions& options);

// What the build settings are, as the file records them: the policy's name
// and a fingerprint of its filters (the CRC32C of its filter over a fixed
// set of keys, which tells its parameters apart), the prefix extractor, the
// range filter's bits and range length (none when !bytewise: a range
// filter needs the bytewise order).
std::string SidecarSettings(const SidecarFilterOptions& options, bool bytewise);

// Reads every entry of `table` (data-block checksums verified, nothing
// cached) and builds the filters; the binding and the settings are the
// caller's to set. `internal_keys`: the table holds LevelDB
// internal keys, whose user keys are filtered. `progress` (may be null) is
// called with the keys read so far every 65,536 keys; when it returns false
// the build stops with Cancelled. Errors: the table's (DataLoss naming the
// block), DataLoss for an internal key shorter than its tag.
absl::StatusOr<SidecarContents> BuildSidecarContents(
    const Table& table, bool internal_keys, const SidecarFilterOptions& options,
    bool bytewise, const std::function<bool(uint64_t keys)>& progress);

}  // namespace bloomtable

#endif  // BLOOMTABLE_DB_SIDECAR_BUILDER_H_
