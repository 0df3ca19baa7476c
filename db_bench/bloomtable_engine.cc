// The bloomtable engine: one table file of ours, read through the public
// API. Fill writes the sorted entries with TableBuilder to 000001.ldb,
// synced when finished (fdatasync, the rule of every table-level engine's
// bulk build); a lookup is one Table::Get, a batch one Table::MultiGet, a
// scan the table's iterator with the range as its bounds (which asks the
// range and prefix filters before it reads a block). The file is opened
// with pread or, with EngineOptions::mmap_reads, mapped, and wrapped by
// BloomtableSetup (bloomtable_env.h), whose block cache the table uses.

#include <chrono>
#include <utility>

#include "absl/strings/str_format.h"
#include "bloomtable/file.h"
#include "bloomtable/table.h"
#include "bloomtable/table_builder.h"
#include "db_bench/bloomtable_env.h"
#include "db_bench/directory.h"
#include "db_bench/engine.h"
#include "db_bench/table_file_info.h"

namespace bloomtable {
namespace db_bench {
namespace {

class BloomtableEngine final : public Engine {
 public:
  explicit BloomtableEngine(const EngineOptions& options)
      : options_(options), path_(options.dir + "/000001.ldb"), setup_(options) {
    read_options_.verify_checksums = options.verify_checksums;
  }

  std::string name() const override { return "bloomtable"; }

  absl::Status Fill(const FillInput& input, Progress* progress) override;
  absl::Status OpenExisting() override;

  absl::Status Get(std::string_view key, std::string* value) const override {
    return table_->Get(read_options_, key, value);
  }

  void MultiGet(const std::vector<std::string_view>& keys,
                std::vector<absl::Status>* statuses,
                std::vector<std::string>* values) const override {
    std::vector<absl::StatusOr<std::string>> results =
        table_->MultiGet(read_options_, keys);
    statuses->resize(keys.size());
    values->resize(keys.size());
    for (size_t i = 0; i < keys.size(); ++i) {
      (*statuses)[i] = results[i].status();
      if (results[i].ok()) (*values)[i] = *std::move(results[i]);
    }
  }
  bool HasNativeMultiGet() const override { return true; }

  // Readers keep one PinnedValue: GetPinned is Table::Get into it.
  std::unique_ptr<EngineReader> NewReader() const override {
    return std::make_unique<PinningReader<Table, ReadOptions>>(
        this, table_.get(), read_options_);
  }
  bool HasPinnedGet() const override { return true; }

  std::unique_ptr<EngineIterator> NewScan(
      std::string_view lower, std::string_view upper) const override {
    ReadOptions scan_options = read_options_;
    scan_options.iterate_lower_bound = std::string(lower);
    scan_options.iterate_upper_bound = std::string(upper);
    auto scan = std::make_unique<PeerIterator<Iterator>>(
        table_->NewIterator(scan_options));
    scan->SeekToFirst();
    return scan;
  }

  std::unique_ptr<EngineIterator> NewIterator() const override {
    return std::make_unique<PeerIterator<Iterator>>(
        table_->NewIterator(read_options_));
  }

  EngineCounters Counters() const override {
    EngineCounters counters = setup_.Counters();
    if (table_ == nullptr) return counters;
    const TableStats stats = table_->GetStats();
    // Scans ask the scan filters: they count as filter queries too.
    counters.has_filter_counters = table_->filter_info().in_use ||
                                   table_->scan_filter_info().prefix_loaded ||
                                   table_->scan_filter_info().range_in_use;
    counters.filter_checks = stats.filter_checks + stats.prefix_filter_checks +
                             stats.range_filter_checks;
    counters.filter_negatives = stats.filter_negatives +
                                stats.prefix_filter_negatives +
                                stats.range_filter_negatives;
    counters.has_block_cache_counters = true;
    counters.block_cache_hits = stats.block_cache_hits;
    counters.block_cache_misses = stats.block_cache_misses;
    return counters;
  }

  MemorySummary Memory() const override;

  absl::StatusOr<StorageSummary> Storage() const override {
    absl::StatusOr<StorageSummary> summary = StorageOfFiles({path_});
    if (summary.ok()) summary->shape = "1 table";
    return summary;
  }

 private:
  Options TableOptions() const {
    Options table_options;
    table_options.block_size = options_.block_size;
    table_options.compression =
        options_.snappy ? CompressionType::kSnappy : CompressionType::kNone;
    table_options.filter_policy = options_.bloomtable_policy;
    table_options.filter_layout = options_.bloomtable_layout;
    table_options.index_block_restart_interval =
        options_.bloomtable_index_block_restart_interval;
    table_options.extra_filter_policies = options_.bloomtable_known_policies;
    table_options.block_cache = setup_.block_cache();
    table_options.prefix_extractor = options_.bloomtable_prefix_extractor;
    table_options.range_filter_bits_per_key = options_.bloomtable_range_bits;
    return table_options;
  }

  const EngineOptions options_;
  const std::string path_;
  ReadOptions read_options_;
  const BloomtableSetup setup_;
  std::unique_ptr<Table> table_;
  // Bytes of the filters the table holds in memory (0 if none in use).
  uint64_t filter_bytes_ = 0;
  // Table::Open's time at the last open.
  double open_micros_ = 0;
};

absl::Status BloomtableEngine::Fill(const FillInput& input,
                                    Progress* progress) {
  table_.reset();
  absl::Status status = RecreateDirectory(options_.dir);
  if (!status.ok()) return status;
  absl::StatusOr<std::unique_ptr<WritableFile>> file = NewWritableFile(path_);
  if (!file.ok()) return file.status();
  TableBuilder builder(TableOptions(), file->get());
  status = PutEntries(input, SortedEntries(input.order), progress,
                      [&](std::string_view key, std::string_view value) {
                        return builder.Add(key, value);
                      });
  if (!status.ok()) {
    builder.Abandon();
    return status;
  }
  status = builder.Finish();
  if (status.ok()) status = (*file)->Sync();
  if (status.ok()) status = (*file)->Close();
  return status.ok() ? OpenExisting() : status;
}

absl::Status BloomtableEngine::OpenExisting() {
  table_.reset();
  absl::StatusOr<uint64_t> size = GetFileSize(path_);
  if (!size.ok()) return size.status();
  RandomAccessFileOptions file_options;
  file_options.use_direct_io = options_.direct_io;
  file_options.io_uring_queue_depth = options_.io_uring_depth;
  absl::StatusOr<std::unique_ptr<RandomAccessFile>> file =
      options_.mmap_reads
          ? OpenMmapRandomAccessFile(path_)
          : OpenRandomAccessFileWithOptions(path_, file_options);
  if (!file.ok()) return file.status();
  const auto open_start = std::chrono::steady_clock::now();
  absl::StatusOr<std::unique_ptr<Table>> table =
      Table::Open(TableOptions(), setup_.Wrap(*std::move(file)), *size);
  open_micros_ = std::chrono::duration<double, std::micro>(
                     std::chrono::steady_clock::now() - open_start)
                     .count();
  if (!table.ok()) return table.status();
  table_ = *std::move(table);
  filter_bytes_ = 0;
  if (Counters().has_filter_counters) {
    absl::StatusOr<TableFileInfo> info = ReadTableFileInfo(path_);
    if (!info.ok()) return info.status();
    filter_bytes_ = info->filter_bytes;
  }
  return absl::OkStatus();
}

MemorySummary BloomtableEngine::Memory() const {
  MemorySummary memory = setup_.CacheMemory(
      "filter: the filter blocks' sizes (as stored, uncompressed); index: "
      "Table::ApproximateMemoryUsage minus the filters (index blocks and the "
      "table objects); block cache: Cache::usage; open: Table::Open's time "
      "for every table, files in the page cache");
  const uint64_t table_bytes =
      table_ == nullptr ? 0 : table_->ApproximateMemoryUsage();
  memory.filter_bytes = filter_bytes_;
  memory.index_bytes =
      table_bytes > filter_bytes_ ? table_bytes - filter_bytes_ : 0;
  memory.engine_bytes = table_bytes;
  memory.engine_bytes_name = "Table::ApproximateMemoryUsage";
  memory.open_micros = open_micros_;
  return memory;
}

}  // namespace

std::unique_ptr<Engine> NewBloomtableEngine(const EngineOptions& options) {
  return std::make_unique<BloomtableEngine>(options);
}

}  // namespace db_bench
}  // namespace bloomtable
