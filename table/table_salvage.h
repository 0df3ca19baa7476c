// Reading what a damaged table file still holds, for salvage
// (docs/DESIGN.md, "Salvage"): every entry of every data block that passes
// its checksum, or whose checksum one repaired byte makes pass
// (util/crc32c_repair.h), and for each block that does neither, a problem
// naming its offset and what was wrong. A table whose footer or index
// block cannot be read (a truncated file, a damaged footer) is walked from
// its first byte instead: each block is found by its trailer's checksum
// (the bytes from where the previous block ended up to a trailer whose
// CRC32C matches them), and the blocks whose entries are all internal keys
// are its data blocks. Nothing is returned that no checksum vouches for.
//
// The file is read whole into memory. Pure function of the file's bytes;
// safe from any thread.

#ifndef BLOOMTABLE_TABLE_TABLE_SALVAGE_H_
#define BLOOMTABLE_TABLE_TABLE_SALVAGE_H_

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "bloomtable/file.h"

namespace bloomtable {

struct TableSalvageOptions {
  // The most a compressed block may decompress to
  // (Options::max_uncompressed_block_size).
  size_t max_uncompressed_block_size = 64 << 20;
};

// Calls `entry` for each entry read (an internal key, its value, and the
// offset of its data block), in file order, and appends to `problems` one
// line per damaged stretch skipped or repaired ("at offset O: ..."). Errors:
// only the file's own (it could not be read).
absl::Status SalvageTable(
    const RandomAccessFile& file, uint64_t file_size,
    const TableSalvageOptions& options,
    const std::function<void(std::string_view key, std::string_view value,
                             uint64_t block_offset)>& entry,
    std::vector<std::string>* problems);

}  // namespace bloomtable

#endif  // BLOOMTABLE_TABLE_TABLE_SALVAGE_H_
