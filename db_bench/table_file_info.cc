#include "db_bench/table_file_info.h"

#include <memory>
#include <string_view>

#include "bloomtable/comparator.h"
#include "bloomtable/file.h"
#include "table/block.h"
#include "table/format.h"

namespace bloomtable {
namespace db_bench {
namespace {

bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

}  // namespace

absl::StatusOr<TableFileInfo> ReadTableFileInfo(const std::string& path) {
  TableFileInfo info;
  absl::StatusOr<uint64_t> size = GetFileSize(path);
  if (!size.ok()) return size.status();
  info.file_size = *size;
  if (info.file_size < Footer::kEncodedLength) {
    return absl::DataLossError(path + ": shorter than a table footer");
  }
  absl::StatusOr<std::unique_ptr<RandomAccessFile>> file =
      OpenRandomAccessFile(path);
  if (!file.ok()) return file.status();

  const uint64_t footer_offset = info.file_size - Footer::kEncodedLength;
  char footer_scratch[Footer::kEncodedLength];
  std::string_view footer_bytes;
  absl::Status status = (*file)->Read(footer_offset, Footer::kEncodedLength,
                                      &footer_bytes, footer_scratch);
  if (!status.ok()) return status;
  Footer footer;
  status = footer.DecodeFrom(footer_bytes);
  if (!status.ok()) return status;

  ReadBlockOptions read_options;
  read_options.readable_limit = footer_offset;
  absl::StatusOr<BlockContents> contents =
      ReadBlock(**file, footer.metaindex_handle(), read_options, nullptr);
  if (!contents.ok()) return contents.status();
  absl::StatusOr<std::shared_ptr<const Block>> metaindex =
      Block::Parse(std::move(*contents));
  if (!metaindex.ok()) return metaindex.status();

  BlockIter iter(BytewiseComparator(), metaindex->get());
  for (iter.SeekToFirst(); iter.Valid(); iter.Next()) {
    // Point filters and scan filters (a prefix filter, a range filter)
    // alike: what the table holds in memory for its filters.
    if (!StartsWith(iter.key(), "filter.") &&
        !StartsWith(iter.key(), "fullfilter.") &&
        !StartsWith(iter.key(), "prefixfilter.") &&
        !StartsWith(iter.key(), "rangefilter.")) {
      continue;
    }
    std::string_view value = iter.value();
    BlockHandle handle;
    status = handle.DecodeFrom(&value);
    if (!status.ok()) return status;
    if (info.filter_key.empty()) info.filter_key = std::string(iter.key());
    info.filter_bytes += handle.size();
  }
  if (!iter.status().ok()) return iter.status();

  absl::StatusOr<BlockContents> index =
      ReadBlock(**file, footer.index_handle(), read_options, nullptr);
  if (!index.ok()) return index.status();
  info.index_bytes = index->data.size();
  return info;
}

}  // namespace db_bench
}  // namespace bloomtable
