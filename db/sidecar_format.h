// The sidecar filter file (docs/FORMAT.md, "Sidecar filter files"): a
// bloomtable filter of one table's keys, kept outside the database, with
// what binds it to that table and a checksum of its own.
//
//   "btsidecr"                      8 bytes, the magic number
//   fixed32 version                 1
//   binding:
//     uint8    kind                 1 a table of a database, 2 a table file
//     varint64 file number          0 for kind 2
//     varint64 file size            the MANIFEST's record (kind 1)
//     48 bytes footer               the table's last 48 bytes
//     5 bytes  index trailer        the index block's type and masked CRC
//     varint32 M, M x 5 bytes       the trailer of each meta block the
//                                   metaindex names, in its order
//     length-prefixed smallest      the MANIFEST's smallest and largest
//     length-prefixed largest       internal keys (kind 2: empty)
//   uint8    key kind               0 plain keys, 1 user keys of internal keys
//   varint64 entries                entries the table holds
//   varint64 keys                   distinct keys in the filters
//   length-prefixed settings        how it was built, as text ("policy=...
//                                   bits_per_key=..."): an incremental build
//                                   rebuilds a sidecar whose settings differ
//   varint32 S, S x section:
//     uint8    type                 1 point filter, 2 prefix filter block,
//                                   3 range filter
//     length-prefixed name          the policy's or range filter's name
//     varint64 length, bytes        what the builder produced
//   fixed32 masked CRC32C           of every byte before it
//
// Decoding treats its input as hostile: the checksum is checked first, every
// length against the bytes that remain, and nothing is allocated from a
// count. Pure functions: safe from any thread.

#ifndef BLOOMTABLE_DB_SIDECAR_FORMAT_H_
#define BLOOMTABLE_DB_SIDECAR_FORMAT_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace bloomtable {

// "btsidecr" as a little-endian fixed64: the file's first 8 bytes.
inline constexpr uint64_t kSidecarMagic = 0x7263656469737462ull;
inline constexpr uint32_t kSidecarVersion = 1;
// Magic, version, and the checksum at the end.
inline constexpr size_t kSidecarMinSize = 8 + 4 + 4;
// A table's footer and a block trailer, as the binding records them.
inline constexpr size_t kSidecarFooterSize = 48;
inline constexpr size_t kSidecarTrailerSize = 5;

enum class SidecarTableKind : uint8_t {
  kDatabaseTable = 1,  // bound by file number and the MANIFEST's keys too
  kTableFile = 2,      // a table file on its own: no MANIFEST
};

enum class SidecarSectionType : uint8_t {
  kPointFilter = 1,   // FilterPolicy::CreateFilter over the distinct keys
  kPrefixFilter = 2,  // a prefix filter block (table/prefix_filter_block.h)
  kRangeFilter = 3,   // a range filter (filter/range_filter.h)
};

// What proves that a sidecar belongs to a table file, without reading the
// table whole: its size and footer, the checksums of its index block and of
// every meta block (a filter block's covers every key), and for a table of a
// database its number and the key range the MANIFEST records.
struct SidecarBinding {
  SidecarTableKind kind = SidecarTableKind::kDatabaseTable;
  uint64_t file_number = 0;
  uint64_t file_size = 0;
  std::string footer;                      // kSidecarFooterSize bytes
  std::string index_trailer;               // kSidecarTrailerSize bytes
  std::vector<std::string> meta_trailers;  // kSidecarTrailerSize bytes each
  std::string smallest;                    // internal keys (kind 1)
  std::string largest;

  bool operator==(const SidecarBinding& other) const;
  bool operator!=(const SidecarBinding& other) const {
    return !(*this == other);
  }
};

struct SidecarSection {
  SidecarSectionType type = SidecarSectionType::kPointFilter;
  std::string name;
  std::string data;
};

struct SidecarContents {
  SidecarBinding binding;
  bool internal_keys = false;  // keys are the user keys of internal keys
  uint64_t entries = 0;        // entries of the table
  uint64_t keys = 0;           // distinct keys in the filters
  std::string settings;        // how it was built (SidecarSettings)
  std::vector<SidecarSection> sections;
};

// The section of `type`, or null.
const SidecarSection* FindSidecarSection(const SidecarContents& contents,
                                         SidecarSectionType type);

// The whole file.
std::string EncodeSidecar(const SidecarContents& contents);

// DataLoss for bytes that are not a whole, intact sidecar file (too short,
// bad magic, checksum mismatch, a length past the end, bytes left over);
// Unimplemented for a later version or an unknown table kind. Sections of
// an unknown type are skipped.
absl::StatusOr<SidecarContents> DecodeSidecar(std::string_view file);

}  // namespace bloomtable

#endif  // BLOOMTABLE_DB_SIDECAR_FORMAT_H_
