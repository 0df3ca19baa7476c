#include "tools/table_walker.h"

#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/strip.h"
#include "bloomtable/comparator.h"
#include "bloomtable/options.h"
#include "tools/exit_status.h"
#include "tools/table_file.h"
#include "tools/tool_errors.h"

namespace bloomtable {
namespace tool {
namespace {

// An error from table/format.cc's ReadBlock starts with the block's
// position, which the walker reports separately; keep only what went wrong.
std::string WhatWentWrong(const absl::Status& status,
                          const BlockHandle& handle) {
  const std::string position = absl::StrFormat(
      "block at offset %u (size %u): ", handle.offset(), handle.size());
  absl::string_view message = status.message();
  absl::ConsumePrefix(&message, position);
  return std::string(message);
}

absl::string_view ToAbsl(std::string_view view) {
  return absl::string_view(view.data(), view.size());
}

}  // namespace

WalkStatus TableWalker::Open(const std::string& path,
                             std::unique_ptr<TableWalker>* walker) {
  absl::StatusOr<uint64_t> size = CheckedTableFileSize(path);
  if (!size.ok()) return WalkStatus(size.status());
  absl::StatusOr<std::unique_ptr<RandomAccessFile>> file =
      OpenRandomAccessFile(path);
  if (!file.ok()) return WalkStatus(file.status());
  std::unique_ptr<TableWalker> opened(new TableWalker(*std::move(file), *size));
  WalkStatus status = opened->ReadFooter();
  if (!status.ok()) return status;
  status =
      opened->ReadHandleBlock(opened->footer_.metaindex_handle(), "metaindex",
                              &opened->metaindex_block_, &opened->metaindex_);
  if (!status.ok()) return status;
  for (const HandleEntry& entry : opened->metaindex_) {
    if (entry.key == kRocksDBPropertiesBlockName) {
      opened->numbering_ = CompressionNumbering::kRocksDB;
    }
  }
  status = opened->ReadHandleBlock(opened->footer_.index_handle(), "index",
                                   &opened->index_block_, &opened->index_);
  if (!status.ok()) return status;
  *walker = std::move(opened);
  return WalkStatus();
}

WalkStatus TableWalker::ReadFooter() {
  const uint64_t offset = footer_offset();
  char scratch[Footer::kEncodedLength];
  std::string_view bytes;
  absl::Status status =
      file_->Read(offset, Footer::kEncodedLength, &bytes, scratch);
  if (!status.ok()) return WalkStatus(status, offset);
  if (bytes.size() != Footer::kEncodedLength) {
    return WalkStatus(absl::DataLossError("footer: file shrank while read"),
                      offset);
  }
  status = footer_.DecodeFrom(bytes);
  if (!status.ok()) {
    // Footer errors say what they are ("not a table: bad magic number ...").
    return WalkStatus(status, offset);
  }
  // Everything before the magic that the two handles did not use is
  // padding, written as zeros.
  std::string canonical;
  footer_.EncodeTo(&canonical);
  footer_padding_is_zero_ =
      bytes.substr(0, Footer::kEncodedLength - 8) ==
      std::string_view(canonical).substr(0, Footer::kEncodedLength - 8);
  return WalkStatus();
}

WalkStatus TableWalker::ReadBlock(const BlockHandle& handle,
                                  std::string_view kind, BlockSummary* summary,
                                  BlockContents* contents) const {
  ReadBlockOptions options;
  options.verify_checksum = true;
  options.readable_limit = footer_offset();
  options.numbering = numbering_;
  BlockReadReport report;
  absl::StatusOr<BlockContents> read =
      bloomtable::ReadBlock(*file_, handle, options, &report);
  if (!read.ok()) {
    if (!absl::IsDataLoss(read.status()) &&
        !absl::IsUnimplemented(read.status())) {
      return WalkStatus(read.status(), handle.offset());
    }
    return WalkStatus(
        absl::Status(read.status().code(),
                     absl::StrCat(ToAbsl(kind), " block (size ", handle.size(),
                                  "): ", WhatWentWrong(read.status(), handle))),
        handle.offset());
  }
  // ReadBlock checked the trailer; its first byte is the compression type.
  char type = 0;
  std::string_view type_byte;
  absl::Status status =
      file_->Read(handle.offset() + handle.size(), 1, &type_byte, &type);
  if (!status.ok()) return WalkStatus(status, handle.offset());
  summary->handle = handle;
  summary->compression_type =
      type_byte.empty() ? 0 : static_cast<unsigned char>(type_byte[0]);
  summary->codec = report.codec;
  summary->raw_size = read->data.size();
  *contents = *std::move(read);
  return WalkStatus();
}

WalkStatus TableWalker::ReadHandleBlock(
    const BlockHandle& handle, std::string_view kind, BlockSummary* summary,
    std::vector<HandleEntry>* entries) const {
  BlockContents contents;
  WalkStatus status = ReadBlock(handle, kind, summary, &contents);
  if (!status.ok()) return status;
  const auto damage = [&](absl::string_view what) {
    return WalkStatus(
        absl::DataLossError(absl::StrCat(ToAbsl(kind), " block: ", what)),
        handle.offset());
  };
  absl::StatusOr<std::shared_ptr<const Block>> block =
      Block::Parse(std::move(contents));
  if (!block.ok()) return damage(block.status().message());
  BlockIter it(BytewiseComparator(), block->get());
  for (it.SeekToFirst(); it.Valid(); it.Next()) {
    std::string_view value = it.value();
    BlockHandle entry_handle;
    if (!entry_handle.DecodeFrom(&value).ok()) {
      return damage(
          absl::StrCat("entry ", entries->size(), " holds no block handle"));
    }
    entries->push_back(HandleEntry{std::string(it.key()), entry_handle});
  }
  if (!it.status().ok()) {
    return damage(absl::StrCat("after entry ", entries->size(), ": ",
                               it.status().message()));
  }
  return WalkStatus();
}

WalkStatus TableWalker::ReadDataBlock(
    size_t i, BlockSummary* summary,
    std::shared_ptr<const Block>* block) const {
  const BlockHandle& handle = index_[i].handle;
  BlockContents contents;
  WalkStatus status = ReadBlock(handle, "data", summary, &contents);
  if (!status.ok()) return status;
  absl::StatusOr<std::shared_ptr<const Block>> parsed =
      Block::Parse(std::move(contents));
  if (!parsed.ok()) {
    return WalkStatus(absl::DataLossError(absl::StrCat(
                          "data block: ", parsed.status().message())),
                      handle.offset());
  }
  *block = *std::move(parsed);
  return WalkStatus();
}

std::string DescribeWalkError(std::string_view path, const WalkStatus& status) {
  if (status.located() && ExitStatusFor(status.status()) == kExitDamaged) {
    return absl::StrFormat("%s: corrupt at offset %u: %s", ToAbsl(path),
                           status.offset(), status.status().message());
  }
  return DescribeFileError(path, status.status());
}

}  // namespace tool
}  // namespace bloomtable
