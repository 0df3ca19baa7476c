// The bloomtable engine: our table files, read through the public API.
//
// Fill splits the write stream into `tables` consecutive runs (newest last,
// like memtable flushes), sorts each run and writes it as one table
// NNNNNN.ldb (higher numbers are newer), synced when finished (fdatasync, the
// rule of every table-level engine's bulk build). A lookup then asks the tables
// newest first, skipping a table whose key range excludes the key (as LevelDB
// and RocksDB do for level-0 files), and stops at the first that has the key.
// With one table (or EngineOptions::bloomtable_single_table) a lookup is a
// single Table::Get call. MultiGet asks the tables newest first with
// Table::MultiGet, passing on to the next table only the keys still missing.
//
// Every table file is opened with pread (OpenRandomAccessFile) or, with
// EngineOptions::mmap_reads, mapped (OpenMmapRandomAccessFile), and read
// through NewCountingRandomAccessFile (one shared FileReadCounters) and, with
// --io_latency_us, NewDelayedRandomAccessFile.
// Every table shares one LRU block cache of --cache_size bytes, as LevelDB's
// and RocksDB's do; a data block not in it is read from the file (which the
// operating system's page cache serves).

#include <algorithm>
#include <chrono>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "bloomtable/cache.h"
#include "bloomtable/comparator.h"
#include "bloomtable/file.h"
#include "bloomtable/table.h"
#include "bloomtable/table_builder.h"
#include "db_bench/bloomtable_env.h"
#include "db_bench/directory.h"
#include "db_bench/engine.h"
#include "db_bench/merging_iterator.h"
#include "db_bench/table_file_info.h"

namespace bloomtable {
namespace db_bench {
namespace {

constexpr char kTableSuffix[] = ".ldb";

class BloomtableEngine final : public Engine {
 public:
  explicit BloomtableEngine(const EngineOptions& options)
      : options_(options),
        num_tables_(
            options.bloomtable_single_table ? 1 : std::max(1, options.tables)),
        setup_(options) {
    read_options_.verify_checksums = options.verify_checksums;
  }

  std::string name() const override {
    return options_.bloomtable_single_table ? "bloomtable_single"
                                            : "bloomtable";
  }

  absl::Status Fill(const FillInput& input, Progress* progress) override;
  absl::Status OpenExisting() override;

  absl::Status Get(std::string_view key, std::string* value) const override {
    if (tables_.size() == 1) {
      return tables_.front().table->Get(read_options_, key, value);
    }
    for (const OpenTable& open : tables_) {
      if (key < open.smallest || key > open.largest) continue;
      absl::Status status = open.table->Get(read_options_, key, value);
      if (!absl::IsNotFound(status)) return status;
    }
    return absl::NotFoundError("");
  }

  void MultiGet(const std::vector<std::string_view>& keys,
                std::vector<absl::Status>* statuses,
                std::vector<std::string>* values) const override;
  bool HasNativeMultiGet() const override { return true; }

  // The bounds go down to every table's iterator, which asks the table's
  // range and prefix filters before it reads a block.
  std::unique_ptr<EngineIterator> NewScan(
      std::string_view lower, std::string_view upper) const override {
    ReadOptions scan_options = read_options_;
    scan_options.iterate_lower_bound = std::string(lower);
    scan_options.iterate_upper_bound = std::string(upper);
    std::unique_ptr<EngineIterator> scan;
    if (tables_.size() == 1) {
      scan = std::make_unique<BloomtableIterator<Iterator>>(
          tables_.front().table->NewIterator(scan_options));
    } else {
      std::vector<std::unique_ptr<Iterator>> children;
      children.reserve(tables_.size());
      for (const OpenTable& open : tables_) {
        if (upper <= open.smallest || lower > open.largest) continue;
        children.push_back(open.table->NewIterator(scan_options));
      }
      scan = std::make_unique<BloomtableIterator<MergingIterator>>(
          std::make_unique<MergingIterator>(BytewiseComparator(),
                                            std::move(children)));
    }
    scan->SeekToFirst();
    return scan;
  }

  std::unique_ptr<EngineIterator> NewIterator() const override {
    std::vector<std::unique_ptr<Iterator>> children;
    children.reserve(tables_.size());
    for (const OpenTable& open : tables_) {
      children.push_back(open.table->NewIterator(read_options_));
    }
    return std::make_unique<BloomtableIterator<MergingIterator>>(
        std::make_unique<MergingIterator>(BytewiseComparator(),
                                          std::move(children)));
  }

  EngineCounters Counters() const override {
    EngineCounters counters = setup_.Counters();
    counters.has_block_cache_counters = true;
    for (const OpenTable& open : tables_) {
      const TableStats stats = open.table->GetStats();
      // Scans ask the scan filters: they count as filter queries too.
      counters.filter_checks += stats.filter_checks +
                                stats.prefix_filter_checks +
                                stats.range_filter_checks;
      counters.filter_negatives += stats.filter_negatives +
                                   stats.prefix_filter_negatives +
                                   stats.range_filter_negatives;
      counters.block_cache_hits += stats.block_cache_hits;
      counters.block_cache_misses += stats.block_cache_misses;
      if (HasFilter(*open.table)) counters.has_filter_counters = true;
    }
    return counters;
  }

  MemorySummary Memory() const override;
  absl::StatusOr<StorageSummary> Storage() const override;
  std::string StatsText() const override;

  // The delay is part of each file's wrapper, fixed at open (after every
  // fill), so it already applies to reads only.
  void SetReadLatency(bool) override {}

 private:
  struct OpenTable {
    std::string path;
    std::unique_ptr<Table> table;
    // The table's key range, for skipping it without a lookup.
    std::string smallest;
    std::string largest;
    // Bytes of the filter the table holds in memory (0 if none in use).
    uint64_t filter_bytes = 0;
  };

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

  // A point, prefix or range filter is in use.
  static bool HasFilter(const Table& table) {
    return table.filter_info().in_use ||
           table.scan_filter_info().prefix_loaded ||
           table.scan_filter_info().range_in_use;
  }

  std::string TablePath(int number) const {
    return absl::StrFormat("%s/%06d%s", options_.dir, number, kTableSuffix);
  }

  absl::Status BuildTable(const std::string& path, const FillInput& input,
                          absl::Span<const uint64_t> sorted_entries,
                          Progress* progress) const;
  // Opens every table file in the directory, newest first.
  absl::Status OpenTables();

  const EngineOptions options_;
  const int num_tables_;
  ReadOptions read_options_;
  const BloomtableSetup setup_;
  std::vector<OpenTable> tables_;  // newest first
  // Table::Open's time for every table at the last OpenTables.
  double open_micros_ = 0;
};

absl::Status BloomtableEngine::Fill(const FillInput& input,
                                    Progress* progress) {
  tables_.clear();
  absl::Status status = RecreateDirectory(options_.dir);
  if (!status.ok()) return status;
  const size_t n = input.order.size();
  for (int t = 0; t < num_tables_; ++t) {
    // Run t holds the writes [t*n/N, (t+1)*n/N): what a memtable would hold
    // between two flushes.
    const size_t begin = n * t / num_tables_;
    const size_t end = n * (t + 1) / num_tables_;
    const std::vector<uint64_t> run =
        SortedEntries(input.order.subspan(begin, end - begin));
    status = BuildTable(TablePath(t + 1), input, run, progress);
    if (!status.ok()) return status;
  }
  return OpenTables();
}

absl::Status BloomtableEngine::BuildTable(
    const std::string& path, const FillInput& input,
    absl::Span<const uint64_t> sorted_entries, Progress* progress) const {
  absl::StatusOr<std::unique_ptr<WritableFile>> file = NewWritableFile(path);
  if (!file.ok()) return file.status();
  TableBuilder builder(TableOptions(), file->get());
  absl::Status status =
      PutEntries(input, sorted_entries, progress,
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
  return status;
}

absl::Status BloomtableEngine::OpenExisting() { return OpenTables(); }

absl::Status BloomtableEngine::OpenTables() {
  tables_.clear();
  absl::StatusOr<std::vector<std::string>> paths =
      ListFiles(options_.dir, kTableSuffix);
  if (!paths.ok()) return paths.status();
  if (paths->empty()) {
    return absl::NotFoundError(options_.dir + ": no table files");
  }
  const Options table_options = TableOptions();
  open_micros_ = 0;
  // Names are zero-padded numbers: reverse name order is newest first.
  for (auto it = paths->rbegin(); it != paths->rend(); ++it) {
    absl::StatusOr<uint64_t> size = GetFileSize(*it);
    if (!size.ok()) return size.status();
    absl::StatusOr<std::unique_ptr<RandomAccessFile>> file =
        options_.mmap_reads ? OpenMmapRandomAccessFile(*it)
                            : OpenRandomAccessFile(*it);
    if (!file.ok()) return file.status();
    const auto open_start = std::chrono::steady_clock::now();
    absl::StatusOr<std::unique_ptr<Table>> table =
        Table::Open(table_options, setup_.Wrap(*std::move(file)), *size);
    open_micros_ += std::chrono::duration<double, std::micro>(
                        std::chrono::steady_clock::now() - open_start)
                        .count();
    if (!table.ok()) return table.status();
    OpenTable open;
    open.path = *it;
    open.table = std::move(*table);
    std::unique_ptr<Iterator> iter = open.table->NewIterator(read_options_);
    iter->SeekToFirst();
    if (iter->Valid()) open.smallest = std::string(iter->key());
    iter->SeekToLast();
    if (iter->Valid()) open.largest = std::string(iter->key());
    if (!iter->status().ok()) return iter->status();
    if (HasFilter(*open.table)) {
      absl::StatusOr<TableFileInfo> info = ReadTableFileInfo(open.path);
      if (!info.ok()) return info.status();
      open.filter_bytes = info->filter_bytes;
    }
    tables_.push_back(std::move(open));
  }
  return absl::OkStatus();
}

void BloomtableEngine::MultiGet(const std::vector<std::string_view>& keys,
                                std::vector<absl::Status>* statuses,
                                std::vector<std::string>* values) const {
  const size_t n = keys.size();
  statuses->assign(n, absl::NotFoundError(""));
  values->resize(n);
  // The keys not found yet, by their index in `keys`.
  std::vector<size_t> missing(n);
  for (size_t i = 0; i < n; ++i) missing[i] = i;
  std::vector<size_t> still_missing;
  std::vector<size_t> asked;
  std::vector<std::string_view> batch;
  for (const OpenTable& open : tables_) {
    if (missing.empty()) break;
    batch.clear();
    asked.clear();
    still_missing.clear();
    for (size_t i : missing) {
      if (tables_.size() > 1 &&
          (keys[i] < open.smallest || keys[i] > open.largest)) {
        still_missing.push_back(i);
      } else {
        asked.push_back(i);
        batch.push_back(keys[i]);
      }
    }
    if (!batch.empty()) {
      std::vector<absl::StatusOr<std::string>> results =
          open.table->MultiGet(read_options_, batch);
      for (size_t k = 0; k < asked.size(); ++k) {
        const size_t i = asked[k];
        if (results[k].ok()) {
          (*values)[i] = *std::move(results[k]);
          (*statuses)[i] = absl::OkStatus();
        } else if (absl::IsNotFound(results[k].status())) {
          still_missing.push_back(i);
        } else {
          // An error in a newer table hides the older ones, as in Get.
          (*statuses)[i] = results[k].status();
        }
      }
    }
    missing.swap(still_missing);
  }
}

MemorySummary BloomtableEngine::Memory() const {
  MemorySummary memory = setup_.CacheMemory(
      "filter: the filter blocks' sizes (as stored, uncompressed); index: "
      "Table::ApproximateMemoryUsage minus the filters (index blocks and the "
      "table objects); block cache: Cache::usage; open: Table::Open's time "
      "for every table, files in the page cache");
  uint64_t table_bytes = 0;
  uint64_t filter_bytes = 0;
  for (const OpenTable& open : tables_) {
    table_bytes += open.table->ApproximateMemoryUsage();
    filter_bytes += open.filter_bytes;
  }
  memory.filter_bytes = filter_bytes;
  memory.index_bytes =
      table_bytes > filter_bytes ? table_bytes - filter_bytes : 0;
  memory.engine_bytes = table_bytes;
  memory.engine_bytes_name = "Table::ApproximateMemoryUsage";
  memory.open_micros = open_micros_;
  return memory;
}

absl::StatusOr<StorageSummary> BloomtableEngine::Storage() const {
  std::vector<std::string> paths;
  for (const OpenTable& open : tables_) paths.push_back(open.path);
  absl::StatusOr<StorageSummary> summary = StorageOfFiles(paths);
  if (summary.ok()) {
    summary->shape =
        tables_.size() == 1
            ? "1 table"
            : absl::StrCat(tables_.size(), " tables, newest first");
  }
  return summary;
}

std::string BloomtableEngine::StatsText() const {
  std::string text;
  for (const OpenTable& open : tables_) {
    const TableStats stats = open.table->GetStats();
    const TableFilterInfo& filter = open.table->filter_info();
    std::string filter_text = "none";
    if (!filter.metaindex_key.empty()) {
      filter_text =
          filter.in_use
              ? filter.metaindex_key
              : absl::StrCat(filter.metaindex_key,
                             " (not in use: ", filter.unused_reason, ")");
    }
    absl::StrAppendFormat(
        &text,
        "%s: filter %s; filter checks %d, negatives %d; data block reads "
        "%d, bytes read %d, checksum failures %d\n",
        open.path, filter_text, stats.filter_checks, stats.filter_negatives,
        stats.data_block_reads, stats.bytes_read, stats.checksum_failures);
  }
  return text;
}

}  // namespace

std::unique_ptr<Engine> NewBloomtableEngine(const EngineOptions& options) {
  return std::make_unique<BloomtableEngine>(options);
}

}  // namespace db_bench
}  // namespace bloomtable
