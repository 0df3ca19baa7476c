#include "db/table_set.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "bloomtable/file.h"
#include "util/posix_file.h"

namespace bloomtable {

TableSet::TableSet(std::string dir, Options options, size_t max_open, bool mmap,
                   const RandomAccessFileOptions& file_options,
                   std::function<std::unique_ptr<RandomAccessFile>(
                       std::unique_ptr<RandomAccessFile>)>
                       wrap)
    : dir_(std::move(dir)),
      options_(std::move(options)),
      max_open_(std::max<size_t>(max_open, 1)),
      mmap_(mmap),
      file_options_(file_options),
      wrap_(std::move(wrap)) {}

void TableSet::OmitOwnFilters(std::vector<uint64_t> numbers) {
  std::sort(numbers.begin(), numbers.end());
  without_filters_ = std::move(numbers);
  options_without_filters_ = options_;
  options_without_filters_.filter_policy = nullptr;
  options_without_filters_.extra_filter_policies.clear();
}

absl::StatusOr<std::shared_ptr<const Table>> TableSet::OpenFile(
    const std::string& name, std::optional<uint64_t> recorded_size,
    const Options& options) const {
  const std::string path = absl::StrCat(dir_, "/", name);
  // The size is the opened file's own: a file replaced meanwhile is either
  // the one read or an error, never a mix.
  absl::StatusOr<SizedRandomAccessFile> opened =
      OpenSizedRandomAccessFile(path, mmap_, file_options_);
  if (!opened.ok()) {
    if (absl::IsNotFound(opened.status())) {
      return absl::DataLossError(
          absl::StrCat(path, ": table listed in the MANIFEST is missing"));
    }
    return opened.status();
  }
  uint64_t size = opened->size;
  if (recorded_size.has_value()) {
    if (opened->size < *recorded_size) {
      return absl::DataLossError(absl::StrCat(path, ": table is shorter (",
                                              opened->size,
                                              " bytes) than the MANIFEST "
                                              "records (",
                                              *recorded_size, " bytes)"));
    }
    size = *recorded_size;
  }
  std::unique_ptr<RandomAccessFile> file = std::move(opened->file);
  if (wrap_) file = wrap_(std::move(file));
  absl::StatusOr<std::unique_ptr<Table>> table =
      Table::Open(options, std::move(file), size);
  if (!table.ok()) return table.status();
  return std::shared_ptr<const Table>(*std::move(table));
}

absl::StatusOr<std::shared_ptr<const Table>> TableSet::Open(
    const DatabaseTableFile& file) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto found = by_number_.find(file.number);
    if (found != by_number_.end()) {
      lru_.splice(lru_.begin(), lru_, found->second);
      return found->second->second;
    }
  }
  // Opened without the lock: two threads may open the same table at once;
  // the second one's copy replaces nothing and is dropped when unused.
  const bool own_filter = !std::binary_search(
      without_filters_.begin(), without_filters_.end(), file.number);
  absl::StatusOr<std::shared_ptr<const Table>> table = OpenFile(
      file.name, file.size, own_filter ? options_ : options_without_filters_);
  if (!table.ok()) return table.status();
  std::lock_guard<std::mutex> lock(mutex_);
  auto found = by_number_.find(file.number);
  if (found != by_number_.end()) return found->second->second;
  lru_.emplace_front(file.number, *table);
  by_number_[file.number] = lru_.begin();
  while (lru_.size() > max_open_) {
    by_number_.erase(lru_.back().first);
    lru_.pop_back();
  }
  return table;
}

void TableSet::PinVersion(std::vector<uint64_t> numbers) {
  std::sort(numbers.begin(), numbers.end());
  numbers.erase(std::unique(numbers.begin(), numbers.end()), numbers.end());
  if (numbers.size() > max_open_) return;
  pinned_numbers_ = std::move(numbers);
  pinned_owners_ =
      std::make_unique<std::shared_ptr<const Table>[]>(pinned_numbers_.size());
  pinned_tables_ =
      std::make_unique<std::atomic<const Table*>[]>(pinned_numbers_.size());
  for (size_t i = 0; i < pinned_numbers_.size(); ++i) {
    pinned_tables_[i].store(nullptr, std::memory_order_relaxed);
  }
}

absl::Status TableSet::OpenForLookup(const DatabaseTableFile& file,
                                     std::shared_ptr<const Table>* held,
                                     const Table** table) {
  const auto slot = std::lower_bound(pinned_numbers_.begin(),
                                     pinned_numbers_.end(), file.number);
  const bool pinned = slot != pinned_numbers_.end() && *slot == file.number;
  const size_t index = static_cast<size_t>(slot - pinned_numbers_.begin());
  if (pinned) {
    *table = pinned_tables_[index].load(std::memory_order_acquire);
    if (*table != nullptr) return absl::OkStatus();
  }
  absl::StatusOr<std::shared_ptr<const Table>> opened = Open(file);
  if (!opened.ok()) return opened.status();
  *held = *std::move(opened);
  *table = held->get();
  if (pinned) {
    // Kept here, not only in the LRU list (Database::OpenTable may open
    // files of no version, which could push it out).
    std::lock_guard<std::mutex> lock(mutex_);
    if (pinned_owners_[index] == nullptr) pinned_owners_[index] = *held;
    pinned_tables_[index].store(pinned_owners_[index].get(),
                                std::memory_order_release);
  }
  return absl::OkStatus();
}

absl::StatusOr<std::shared_ptr<const Table>> TableSet::OpenUnlisted(
    const std::string& name) const {
  return OpenFile(name, std::nullopt, options_);
}

size_t TableSet::open_tables() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return lru_.size();
}

void TableSet::ForEachOpen(
    const std::function<void(const Table&)>& visit) const {
  std::lock_guard<std::mutex> lock(mutex_);
  for (const auto& [number, table] : lru_) visit(*table);
}

}  // namespace bloomtable
