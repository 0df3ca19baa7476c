// Reading what binds a sidecar filter to its table (db/sidecar_format.h):
// the table file's last 48 bytes (its footer), the trailer of its index
// block, and the trailers of its metaindex block and of every block the
// metaindex names, in that order. That is a few small reads at the end of
// the file, whatever its size; the metaindex is read whole and its checksum
// verified, since it says where the meta blocks are.
//
// A filter block's checksum covers every key of the table (LevelDB's filter
// holds each entry's user key), so a table rewritten with other keys but the
// same size, footer and index block is still told apart, as long as it has
// a filter; the MANIFEST's key range (recorded for a table of a database)
// tells apart tables whose first or last keys differ.
//
// Plain functions: safe from any thread that may read the file.

#ifndef BLOOMTABLE_DB_SIDECAR_BINDING_H_
#define BLOOMTABLE_DB_SIDECAR_BINDING_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "bloomtable/database.h"
#include "bloomtable/file.h"
#include "db/sidecar_format.h"

namespace bloomtable {

// The binding of the table stored in the first `file_size` bytes of `file`,
// as a table file on its own (kind kTableFile, no number, no keys). Errors:
// the table's damage as Table::Open words it (a footer or metaindex that
// does not read), the file's own errors.
absl::StatusOr<SidecarBinding> ReadTableFileBinding(
    const RandomAccessFile& file, uint64_t file_size);

// The binding of `table`, a table of the database in `dir`: its file read at
// the size the MANIFEST records, with its number and key range. Errors as
// ReadTableFileBinding's, and the file's (a missing table is NotFound).
absl::StatusOr<SidecarBinding> ReadDatabaseTableBinding(
    const std::string& dir, const DatabaseTableFile& table);

// Why a sidecar bound by `recorded` is not the filter of the table bound by
// `actual`, in a few words ("the file size differs", ...); empty when they
// match.
std::string BindingMismatch(const SidecarBinding& recorded,
                            const SidecarBinding& actual);

}  // namespace bloomtable

#endif  // BLOOMTABLE_DB_SIDECAR_BINDING_H_
