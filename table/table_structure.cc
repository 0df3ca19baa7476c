#include "table/table_structure.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "bloomtable/comparator.h"
#include "table/corruption.h"
#include "util/string_util.h"

namespace bloomtable {

absl::Status CheckTableFileSize(std::string_view file, uint64_t file_size) {
  if (file_size == 0) {
    return absl::DataLossError(
        absl::StrCat(ToAbsl(file), ": empty file, not a table"));
  }
  if (file_size < Footer::kEncodedLength) {
    return absl::DataLossError(absl::StrFormat(
        "%s: not a table: %u bytes, shorter than a table's %u-byte footer",
        ToAbsl(file), file_size, Footer::kEncodedLength));
  }
  return absl::OkStatus();
}

absl::StatusOr<FooterContents> ReadFooter(const RandomAccessFile& file,
                                          uint64_t file_size,
                                          uint64_t* bytes_read) {
  if (bytes_read != nullptr) *bytes_read = 0;
  const std::string& name = file.name();
  absl::Status status = CheckTableFileSize(name, file_size);
  if (!status.ok()) return status;
  const uint64_t offset = file_size - Footer::kEncodedLength;
  char scratch[Footer::kEncodedLength];
  std::string_view bytes;
  status = file.Read(offset, Footer::kEncodedLength, &bytes, scratch);
  if (bytes_read != nullptr) *bytes_read = bytes.size();
  if (!status.ok()) return status;
  if (bytes.size() != Footer::kEncodedLength) {
    return CorruptionAt(
        name, offset,
        absl::StrFormat("footer: truncated read (%u of %u bytes)", bytes.size(),
                        Footer::kEncodedLength));
  }
  FooterContents contents;
  status = contents.footer.DecodeFrom(bytes);
  if (status.ok()) status = CheckFooterLayout(contents.footer, offset);
  if (absl::IsDataLoss(status)) {
    // Footer errors say what they are ("not a table: bad magic number").
    return CorruptionAt(name, offset, FromAbsl(status.message()));
  }
  if (!status.ok()) {
    return absl::Status(status.code(),
                        absl::StrCat(name, ": ", status.message()));
  }
  // Everything before the magic that the two handles did not use is
  // padding, written as zeros.
  std::string canonical;
  contents.footer.EncodeTo(&canonical);
  constexpr size_t kHandleArea = Footer::kEncodedLength - sizeof(uint64_t);
  contents.padding_is_zero = bytes.substr(0, kHandleArea) ==
                             std::string_view(canonical).substr(0, kHandleArea);
  return contents;
}

absl::StatusOr<BlockContents> ReadBlockAt(const RandomAccessFile& file,
                                          const BlockHandle& handle,
                                          const ReadBlockOptions& options,
                                          std::string_view kind,
                                          BlockReadReport* report) {
  absl::StatusOr<BlockContents> contents =
      ReadBlock(file, handle, options, report);
  if (!contents.ok()) {
    return BlockError(file.name(), kind, handle, contents.status());
  }
  return contents;
}

absl::StatusOr<std::shared_ptr<const Block>> ParseBlockAt(
    std::string_view file, std::string_view kind, const BlockHandle& handle,
    BlockContents contents) {
  absl::StatusOr<std::shared_ptr<const Block>> block =
      Block::Parse(std::move(contents));
  if (!block.ok()) return BlockError(file, kind, handle, block.status());
  return block;
}

absl::Status ForEachHandleEntry(
    std::string_view file, std::string_view kind, const BlockHandle& handle,
    const Block& block,
    const std::function<void(std::string_view key, const BlockHandle& value)>&
        visit) {
  // Only SeekToFirst and Next: the comparator is never asked.
  BlockIter iter(BytewiseComparator(), &block);
  uint64_t entries = 0;
  for (iter.SeekToFirst(); iter.Valid(); iter.Next(), ++entries) {
    std::string_view encoded = iter.value();
    BlockHandle value;
    if (!value.DecodeFrom(&encoded).ok()) {
      return BlockError(file, kind, handle,
                        absl::DataLossError(absl::StrCat(
                            "entry ", entries, " holds no block handle")));
    }
    if (visit) visit(iter.key(), value);
  }
  if (!iter.status().ok()) {
    return BlockError(file, kind, handle, iter.status());
  }
  return absl::OkStatus();
}

absl::StatusOr<std::vector<MetaindexEntry>> ReadMetaindex(
    const RandomAccessFile& file, const Footer& footer,
    const ReadBlockOptions& options, BlockReadReport* report) {
  const BlockHandle& handle = footer.metaindex_handle();
  absl::StatusOr<BlockContents> contents =
      ReadBlockAt(file, handle, options, "metaindex", report);
  if (!contents.ok()) return contents.status();
  absl::StatusOr<std::shared_ptr<const Block>> block =
      ParseBlockAt(file.name(), "metaindex", handle, *std::move(contents));
  if (!block.ok()) return block.status();
  std::vector<MetaindexEntry> entries;
  absl::Status status = ForEachHandleEntry(
      file.name(), "metaindex", handle, **block,
      [&entries](std::string_view key, const BlockHandle& value) {
        entries.push_back(MetaindexEntry{std::string(key), value});
      });
  if (!status.ok()) return status;
  return entries;
}

bool ParseFilterMetaindexKey(std::string_view metaindex_key,
                             std::string_view* policy_name,
                             FilterLayout* layout) {
  if (StartsWith(metaindex_key, kWholeTableFilterPrefix)) {
    *policy_name = metaindex_key.substr(kWholeTableFilterPrefix.size());
    *layout = FilterLayout::kWholeTable;
    return true;
  }
  if (StartsWith(metaindex_key, kPartitionedFilterPrefix)) {
    *policy_name = metaindex_key.substr(kPartitionedFilterPrefix.size());
    *layout = FilterLayout::kPartitioned;
    return true;
  }
  if (StartsWith(metaindex_key, kPerBlockFilterPrefix)) {
    *policy_name = metaindex_key.substr(kPerBlockFilterPrefix.size());
    *layout = FilterLayout::kPerBlock;
    return true;
  }
  return false;
}

}  // namespace bloomtable
