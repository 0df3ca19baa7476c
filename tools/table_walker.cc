#include "tools/table_walker.h"

#include <string>
#include <utility>
#include <vector>

#include "table/corruption.h"

namespace bloomtable {
namespace tool {

absl::Status TableWalker::Open(const std::string& path,
                               const FileOpener& open_file,
                               std::unique_ptr<TableWalker>* walker) {
  walker->reset();
  absl::StatusOr<uint64_t> size = CheckedTableFileSize(path);
  if (!size.ok()) return size.status();
  absl::StatusOr<std::unique_ptr<RandomAccessFile>> file = open_file(path);
  if (!file.ok()) return file.status();
  std::unique_ptr<TableWalker> opened(new TableWalker(*std::move(file), *size));
  absl::StatusOr<FooterContents> footer =
      ReadFooter(*opened->file_, *size, /*bytes_read=*/nullptr);
  if (!footer.ok()) return footer.status();
  opened->footer_ = *footer;
  absl::Status status = opened->ReadAfterFooter();
  *walker = std::move(opened);
  return status;
}

absl::Status TableWalker::ReadAfterFooter() {
  absl::Status status = ReadHandleBlock(
      footer().metaindex_handle(), "metaindex", &metaindex_block_, &metaindex_);
  if (!status.ok()) return status;
  stage_ = Stage::kMetaindex;
  // The metaindex (never compressed) tells whose compression numbering the
  // other blocks follow.
  numbering_ = CompressionNumberingOf(metaindex_);
  for (const MetaindexEntry& entry : metaindex_) {
    std::string_view policy_name;
    FilterLayout layout;
    const std::string_view kind =
        ParseFilterMetaindexKey(entry.key, &policy_name, &layout) ? "filter"
                                                                  : "meta";
    MetaBlock meta{entry, {}, {}, {}};
    status = ReadBlock(entry.handle, kind, &meta.summary, &meta.contents);
    if (!status.ok()) return status;
    if (kind == "filter" && layout == FilterLayout::kPartitioned) {
      status = ReadFilterPartitions(&meta);
      if (!status.ok()) return status;
    }
    meta_blocks_.push_back(std::move(meta));
  }
  stage_ = Stage::kMetaBlocks;
  status =
      ReadHandleBlock(footer().index_handle(), "index", &index_block_, &index_);
  if (!status.ok()) return status;
  stage_ = Stage::kIndex;
  return absl::OkStatus();
}

absl::Status TableWalker::ReadFilterPartitions(MetaBlock* meta) const {
  // A view of the top-level index's bytes, which meta->contents keeps: the
  // parsed block lives only in this call.
  BlockContents view;
  view.data = meta->contents.data;
  absl::StatusOr<std::shared_ptr<const Block>> top_level =
      ParseBlockAt(path(), "filter", meta->entry.handle, std::move(view));
  if (!top_level.ok()) return top_level.status();
  std::vector<std::pair<std::string, BlockHandle>> entries;
  absl::Status status = ForEachHandleEntry(
      path(), "filter", meta->entry.handle, **top_level,
      [&entries](std::string_view key, const BlockHandle& handle) {
        entries.emplace_back(std::string(key), handle);
      });
  if (!status.ok()) return status;
  for (auto& [separator, handle] : entries) {
    FilterPartitionBlock partition;
    partition.separator = std::move(separator);
    status = ReadBlock(handle, "filter partition", &partition.summary,
                       &partition.contents);
    if (!status.ok()) return status;
    meta->partitions.push_back(std::move(partition));
  }
  return absl::OkStatus();
}

absl::Status TableWalker::ReadBlock(const BlockHandle& handle,
                                    std::string_view kind,
                                    BlockSummary* summary,
                                    BlockContents* contents) const {
  ReadBlockOptions options;
  options.verify_checksum = true;
  options.readable_limit = footer_offset();
  options.numbering = numbering_;
  BlockReadReport report;
  absl::StatusOr<BlockContents> read =
      ReadBlockAt(*file_, handle, options, kind, &report);
  if (!read.ok()) return read.status();
  // ReadBlock checked the trailer; its first byte is the compression type.
  char type = 0;
  std::string_view type_byte;
  absl::Status status =
      file_->Read(handle.offset() + handle.size(), 1, &type_byte, &type);
  if (!status.ok()) return status;
  summary->handle = handle;
  summary->compression_type =
      type_byte.empty() ? 0 : static_cast<unsigned char>(type_byte[0]);
  summary->codec = report.codec;
  summary->raw_size = read->data.size();
  *contents = *std::move(read);
  return absl::OkStatus();
}

absl::Status TableWalker::ReadHandleBlock(
    const BlockHandle& handle, std::string_view kind, BlockSummary* summary,
    std::vector<MetaindexEntry>* entries) const {
  BlockContents contents;
  absl::Status status = ReadBlock(handle, kind, summary, &contents);
  if (!status.ok()) return status;
  absl::StatusOr<std::shared_ptr<const Block>> block =
      ParseBlockAt(path(), kind, handle, std::move(contents));
  if (!block.ok()) return block.status();
  return ForEachHandleEntry(
      path(), kind, handle, **block,
      [entries](std::string_view key, const BlockHandle& value) {
        entries->push_back(MetaindexEntry{std::string(key), value});
      });
}

absl::Status TableWalker::ReadDataBlock(
    size_t i, BlockSummary* summary,
    std::shared_ptr<const Block>* block) const {
  const BlockHandle& handle = index_[i].handle;
  BlockContents contents;
  absl::Status status = ReadBlock(handle, "data", summary, &contents);
  if (!status.ok()) return status;
  absl::StatusOr<std::shared_ptr<const Block>> parsed =
      ParseBlockAt(path(), "data", handle, std::move(contents));
  if (!parsed.ok()) return parsed.status();
  *block = *std::move(parsed);
  return absl::OkStatus();
}

absl::Status TableWalker::DataBlockError(size_t i,
                                         const absl::Status& status) const {
  return BlockError(path(), "data", index_[i].handle, status);
}

}  // namespace tool
}  // namespace bloomtable
