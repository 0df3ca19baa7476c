// How a table file's damage is worded, wherever it is found: Table::Open and
// lookups, iterators, the bloomtable tool (verify, dump, stats, scan, get)
// and db_bench all report the same damage with the same words.
//
//   FILE: corrupt at offset N: WHAT
//
// N is the file offset of the block (or footer) the damage lies in, and WHAT
// names that block first: "metaindex block (size 48): checksum mismatch",
// "data block (size 3011): bad block: ...". The status is DataLoss and
// carries N as a payload, so that callers can place the damage without
// parsing the message (CorruptionOffset).
//
// Pure functions, safe from any thread.

#ifndef BLOOMTABLE_TABLE_CORRUPTION_H_
#define BLOOMTABLE_TABLE_CORRUPTION_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "table/format.h"

namespace bloomtable {

// DataLoss "FILE: corrupt at offset N: WHAT" (no "FILE: " if `file` is
// empty), with `offset` attached.
absl::Status CorruptionAt(std::string_view file, uint64_t offset,
                          std::string_view what);

// The offset of a status made by CorruptionAt, or nullopt for any other.
std::optional<uint64_t> CorruptionOffset(const absl::Status& status);

// The WHAT of a status made by CorruptionAt; else the whole message.
std::string_view CorruptionReason(const absl::Status& status);

// Places an error met reading or parsing the `kind` block ("index", "data",
// ...) at `handle` of `file`. DataLoss becomes
// CorruptionAt(file, offset, "KIND block (size S): MESSAGE"); an error that
// ReadBlock made about the block itself with another code (an unsupported
// block) becomes "FILE: KIND block at offset N (size S): MESSAGE" with its
// code; the file's own errors (I/O) are returned as they are.
absl::Status BlockError(std::string_view file, std::string_view kind,
                        const BlockHandle& handle, const absl::Status& status);

}  // namespace bloomtable

#endif  // BLOOMTABLE_TABLE_CORRUPTION_H_
