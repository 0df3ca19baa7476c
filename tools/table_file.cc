#include "tools/table_file.h"

#include <utility>

#include "table/table_structure.h"
#include "tools/filter_policies.h"

namespace bloomtable {
namespace tool {

Options ReadingOptions(bool internal_keys) {
  Options options;
  options.key_format =
      internal_keys ? KeyFormat::kLevelDBInternal : KeyFormat::kPlain;
  std::vector<std::shared_ptr<const FilterPolicy>> policies =
      KnownFilterPolicies();
  if (!policies.empty()) {
    options.filter_policy = policies.front();
    options.extra_filter_policies.assign(policies.begin() + 1, policies.end());
  }
  return options;
}

absl::StatusOr<uint64_t> CheckedTableFileSize(const std::string& path) {
  absl::StatusOr<uint64_t> size = GetFileSize(path);
  if (!size.ok()) return size.status();
  absl::Status status = CheckTableFileSize(path, *size);
  if (!status.ok()) return status;
  return size;
}

absl::StatusOr<OpenedTable> OpenTableFile(const std::string& path,
                                          bool internal_keys,
                                          const FileOpener& open_file) {
  absl::StatusOr<uint64_t> size = CheckedTableFileSize(path);
  if (!size.ok()) return size.status();
  absl::StatusOr<std::unique_ptr<RandomAccessFile>> file = open_file(path);
  if (!file.ok()) return file.status();
  Options options = ReadingOptions(internal_keys);
  absl::StatusOr<std::unique_ptr<Table>> table =
      Table::Open(options, *std::move(file), *size);
  if (!table.ok()) return table.status();
  // A prefix filter is used only with the extractor it names: if that is a
  // built-in one, open the table again with it.
  const ScanFilterInfo& scan_filters = (*table)->scan_filter_info();
  if (scan_filters.prefix_loaded && !scan_filters.prefix_in_use) {
    options.prefix_extractor =
        NewPrefixExtractorFromName(scan_filters.prefix_extractor);
    if (options.prefix_extractor != nullptr) {
      file = OpenRandomAccessFile(path);
      if (!file.ok()) return file.status();
      table = Table::Open(options, *std::move(file), *size);
      if (!table.ok()) return table.status();
    }
  }
  OpenedTable opened;
  opened.table = *std::move(table);
  opened.file_size = *size;
  return opened;
}

}  // namespace tool
}  // namespace bloomtable
