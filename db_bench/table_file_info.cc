#include "db_bench/table_file_info.h"

#include <memory>
#include <string_view>
#include <vector>

#include "bloomtable/file.h"
#include "table/format.h"
#include "table/scan_filters.h"
#include "table/table_structure.h"
#include "util/string_util.h"

namespace bloomtable {
namespace db_bench {

absl::StatusOr<TableFileInfo> ReadTableFileInfo(const std::string& path) {
  TableFileInfo info;
  absl::StatusOr<uint64_t> size = GetFileSize(path);
  if (!size.ok()) return size.status();
  info.file_size = *size;
  absl::StatusOr<std::unique_ptr<RandomAccessFile>> file =
      OpenRandomAccessFile(path);
  if (!file.ok()) return file.status();

  absl::StatusOr<FooterContents> footer =
      ReadFooter(**file, info.file_size, /*bytes_read=*/nullptr);
  if (!footer.ok()) return footer.status();
  ReadBlockOptions read_options;
  read_options.readable_limit = info.file_size - Footer::kEncodedLength;
  absl::StatusOr<std::vector<MetaindexEntry>> metaindex =
      ReadMetaindex(**file, footer->footer, read_options, /*report=*/nullptr);
  if (!metaindex.ok()) return metaindex.status();
  for (const MetaindexEntry& entry : *metaindex) {
    // Point filters and scan filters (a prefix filter, a range filter)
    // alike: what the table holds in memory for its filters.
    std::string_view policy_name;
    FilterLayout layout = FilterLayout::kPerBlock;
    const bool point_filter =
        ParseFilterMetaindexKey(entry.key, &policy_name, &layout);
    if (!point_filter && !StartsWith(entry.key, kPrefixFilterMetaPrefix) &&
        !StartsWith(entry.key, kRangeFilterMetaPrefix)) {
      continue;
    }
    if (info.filter_key.empty()) info.filter_key = entry.key;
    info.filter_bytes += entry.handle.size();
    if (point_filter && layout == FilterLayout::kPartitioned) {
      // The top-level index and every partition it names.
      absl::StatusOr<BlockContents> contents = ReadBlockAt(
          **file, entry.handle, read_options, "filter", /*report=*/nullptr);
      if (!contents.ok()) return contents.status();
      absl::StatusOr<std::shared_ptr<const Block>> top_level =
          ParseBlockAt(path, "filter", entry.handle, *std::move(contents));
      if (!top_level.ok()) return top_level.status();
      absl::Status status = ForEachHandleEntry(
          path, "filter", entry.handle, **top_level,
          [&info](std::string_view, const BlockHandle& partition) {
            info.filter_bytes += partition.size();
          });
      if (!status.ok()) return status;
    }
  }

  absl::StatusOr<BlockContents> index =
      ReadBlockAt(**file, footer->footer.index_handle(), read_options, "index",
                  /*report=*/nullptr);
  if (!index.ok()) return index.status();
  info.index_bytes = index->data.size();
  return info;
}

absl::StatusOr<StorageSummary> StorageOfFiles(
    const std::vector<std::string>& paths) {
  StorageSummary summary;
  uint64_t filter_bytes = 0;
  for (const std::string& path : paths) {
    absl::StatusOr<TableFileInfo> info = ReadTableFileInfo(path);
    if (absl::IsNotFound(info.status())) continue;
    if (!info.ok()) return info.status();
    ++summary.table_files;
    summary.table_bytes += info->file_size;
    filter_bytes += info->filter_bytes;
  }
  summary.filter_bytes = filter_bytes;
  return summary;
}

}  // namespace db_bench
}  // namespace bloomtable
