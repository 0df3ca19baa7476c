// The parts of a table file that every reader reads first, in this order:
// the footer, the metaindex, the meta blocks it names (the filter), the
// index; then data blocks. Table::Open, the bloomtable tool and db_bench all
// read them through these functions, so that a file is judged, and its
// damage worded (table/corruption.h), one way.
//
// Plain functions over a RandomAccessFile: safe from any thread that may
// read the file.

#ifndef BLOOMTABLE_TABLE_TABLE_STRUCTURE_H_
#define BLOOMTABLE_TABLE_TABLE_STRUCTURE_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "bloomtable/file.h"
#include "bloomtable/options.h"
#include "table/block.h"
#include "table/format.h"

namespace bloomtable {

// Metaindex key prefixes of the three filter layouts: "filter.<policy name>"
// (LevelDB's per-block filter block), "fullfilter.<policy name>" and
// "partitionedfilter.<policy name>" (the partitions' top-level index).
inline constexpr std::string_view kPerBlockFilterPrefix = "filter.";
inline constexpr std::string_view kWholeTableFilterPrefix = "fullfilter.";
inline constexpr std::string_view kPartitionedFilterPrefix =
    "partitionedfilter.";

// DataLoss naming `file` if `file_size` cannot hold a table: an empty file,
// or one shorter than a footer ("not a table").
absl::Status CheckTableFileSize(std::string_view file, uint64_t file_size);

struct FooterContents {
  Footer footer;
  // False if the bytes between the two handles and the magic number are not
  // all zero, as every LevelDB writer leaves them (readers ignore them).
  bool padding_is_zero = true;
};

// Reads the last Footer::kEncodedLength bytes of the file and checks them:
// CheckTableFileSize, the magic number (InvalidArgument for a RocksDB
// block-based table), the handles, and CheckFooterLayout. Damage is a
// CorruptionAt the footer's offset. `*bytes_read` (may be null) is set to the
// bytes the file returned.
absl::StatusOr<FooterContents> ReadFooter(const RandomAccessFile& file,
                                          uint64_t file_size,
                                          uint64_t* bytes_read);

// ReadBlock, with its errors placed by BlockError as the `kind` block.
absl::StatusOr<BlockContents> ReadBlockAt(const RandomAccessFile& file,
                                          const BlockHandle& handle,
                                          const ReadBlockOptions& options,
                                          std::string_view kind,
                                          BlockReadReport* report);

// Block::Parse of the `kind` block read at `handle`, errors placed likewise.
absl::StatusOr<std::shared_ptr<const Block>> ParseBlockAt(
    std::string_view file, std::string_view kind, const BlockHandle& handle,
    BlockContents contents);

// Decodes every entry of `block`, the `kind` block ("metaindex", "index") at
// `handle`, as a key mapping to a block handle, and calls `visit` (if set)
// for each in order. Damage (an entry that does not decode, or a value that
// is not a block handle) is a CorruptionAt the block.
absl::Status ForEachHandleEntry(
    std::string_view file, std::string_view kind, const BlockHandle& handle,
    const Block& block,
    const std::function<void(std::string_view key, const BlockHandle& value)>&
        visit);

// A metaindex entry: a meta block's name and where it is.
struct MetaindexEntry {
  std::string key;
  BlockHandle handle;
};

// Reads, parses and decodes the metaindex block of a table whose footer is
// `footer`. Errors as ReadBlockAt, ParseBlockAt and ForEachHandleEntry.
absl::StatusOr<std::vector<MetaindexEntry>> ReadMetaindex(
    const RandomAccessFile& file, const Footer& footer,
    const ReadBlockOptions& options, BlockReadReport* report);

// Whether `metaindex_key` names a filter; if so sets its policy name and
// layout.
bool ParseFilterMetaindexKey(std::string_view metaindex_key,
                             std::string_view* policy_name,
                             FilterLayout* layout);

}  // namespace bloomtable

#endif  // BLOOMTABLE_TABLE_TABLE_STRUCTURE_H_
