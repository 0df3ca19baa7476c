#include "db_bench/report.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "db_bench/text_table.h"

namespace bloomtable {
namespace db_bench {
namespace {

std::string FormatBits(double bits) { return absl::StrFormat("%g", bits); }

// "-" for a value that does not apply.
std::string Cell(bool present, const std::string& text) {
  return present ? text : "-";
}

double PerOp(uint64_t count, uint64_t ops) {
  return ops == 0 ? 0.0 : static_cast<double>(count) / ops;
}

std::optional<double> CacheHitRate(const BenchmarkResult& result) {
  const EngineCounters& counters = result.counters;
  const uint64_t lookups =
      counters.block_cache_hits + counters.block_cache_misses;
  if (!counters.has_block_cache_counters || lookups == 0) return std::nullopt;
  return static_cast<double>(counters.block_cache_hits) / lookups;
}

}  // namespace

std::string ConfigReport::FilterLabel() const {
  std::string label = filter == "none"
                          ? "none"
                          : absl::StrCat(filter, "/", FormatBits(bloom_bits));
  if (scan_filter != "none") absl::StrAppend(&label, "+", scan_filter);
  return label;
}

bool ConfigReport::HasFilter() const {
  return filter != "none" || scan_filter != "none";
}

std::string ConfigReport::Label() const {
  return absl::StrCat("[", engine, " ", FilterLabel(), ", ", io, ", cache ",
                      CacheSizeLabel(cache_size), "]");
}

uint64_t ConfigReport::Keys() const {
  if (storage && storage->entries > 0) return storage->entries;
  return keys_written;
}

const MemorySummary* ConfigReport::LastMemory() const {
  for (auto it = results.rbegin(); it != results.rend(); ++it) {
    if (it->memory) return &*it->memory;
  }
  return nullptr;
}

std::string CacheSizeLabel(uint64_t bytes) {
  constexpr struct {
    int shift;
    const char* suffix;
  } kUnits[] = {{30, "G"}, {20, "M"}, {10, "K"}};
  for (const auto& unit : kUnits) {
    const uint64_t size = uint64_t{1} << unit.shift;
    if (bytes >= size && bytes % size == 0) {
      return absl::StrCat(bytes / size, unit.suffix);
    }
  }
  return absl::StrCat(bytes);
}

std::optional<double> ConfigReport::FilterBitsPerKey() const {
  if (!storage || !storage->filter_bytes) return std::nullopt;
  const uint64_t keys = Keys();
  if (keys == 0) return std::nullopt;
  return *storage->filter_bytes * 8.0 / keys;
}

std::string BenchmarkLine(const BenchmarkResult& result) {
  std::string extra;
  if (result.bytes > 0) {
    absl::StrAppendFormat(&extra, " %6.1f MB/s", result.mb_per_second);
  }
  if (IsRead(result.kind)) {
    if (result.threads > 1) {
      absl::StrAppendFormat(&extra, " %d threads", result.threads);
    }
    absl::StrAppendFormat(&extra, " (%d of %d found)", result.found,
                          result.ops);
    absl::StrAppendFormat(&extra, " %.4f reads/op",
                          PerOp(result.counters.file_reads, result.ops));
    if (std::optional<double> fp = FalsePositiveRate(result)) {
      absl::StrAppendFormat(&extra, " fp %.3f%%", *fp * 100);
    }
    if (!std::isnan(result.p50_micros)) {
      absl::StrAppendFormat(&extra, " p50 %.3f p99 %.3f micros",
                            result.p50_micros, result.p99_micros);
    }
    if (result.errors > 0) {
      absl::StrAppendFormat(&extra, " %d errors, first: %s", result.errors,
                            result.first_error);
    }
  }
  return absl::StrFormat(
      "%-12s : %11.3f micros/op %d ops/sec;%s", BenchmarkName(result.kind),
      result.micros_per_op,
      static_cast<int64_t>(std::llround(result.ops_per_second)), extra);
}

namespace {

// The smallest and largest of a figure over the runs of a result.
std::pair<double, double> Range(const BenchmarkResult& result,
                                double RunFigures::*field) {
  double low = result.runs.front().*field;
  double high = low;
  for (const RunFigures& run : result.runs) {
    low = std::min(low, run.*field);
    high = std::max(high, run.*field);
  }
  return {low, high};
}

// "0.412-0.455": micros/op over the runs.
std::string RangeCell(const BenchmarkResult& result) {
  if (result.runs.size() < 2) return "-";
  const auto [low, high] = Range(result, &RunFigures::micros_per_op);
  return absl::StrFormat("%.3f-%.3f", low, high);
}

}  // namespace

std::string ComparisonTable(const std::vector<ConfigReport>& configs) {
  // Benchmarks in the order they first ran.
  std::vector<BenchmarkKind> kinds;
  bool show_threads = false;
  bool show_range = false;
  for (const ConfigReport& config : configs) {
    for (const BenchmarkResult& result : config.results) {
      if (result.kind == BenchmarkKind::kStats) continue;
      if (std::find(kinds.begin(), kinds.end(), result.kind) == kinds.end()) {
        kinds.push_back(result.kind);
      }
      show_threads |= IsRead(result.kind) && result.threads != 1;
      show_range |= result.runs.size() > 1;
    }
  }

  std::vector<std::string> header = {"benchmark", "level",  "engine",
                                     "filter",    "layout", "io"};
  const size_t text_columns = header.size();
  if (show_threads) header.push_back("threads");
  header.push_back("micros/op");
  if (show_range) header.push_back("range");
  for (const char* name :
       {"p50", "p99", "ops/s", "MB/s", "reads/op", "bytes/op", "FP %",
        "stored b/key", "cache hit %", "table MB"}) {
    header.push_back(name);
  }
  TextTable table(std::move(header), text_columns);

  for (BenchmarkKind kind : kinds) {
    if (kind != kinds.front()) table.AddSeparator();
    for (const ConfigReport& config : configs) {
      for (const BenchmarkResult& result : config.results) {
        if (result.kind != kind) continue;
        const bool read = IsRead(kind);
        const std::optional<double> fp = FalsePositiveRate(result);
        const std::optional<double> bits = config.FilterBitsPerKey();
        const std::optional<double> hit_rate = CacheHitRate(result);
        std::vector<std::string> row = {
            BenchmarkName(kind),
            config.level,
            config.engine,
            config.FilterLabel(),
            config.filter_layout.empty() ? "-" : config.filter_layout,
            config.io};
        if (show_threads) {
          row.push_back(Cell(read, absl::StrCat(result.threads)));
        }
        row.push_back(absl::StrFormat("%.3f", result.micros_per_op));
        if (show_range) row.push_back(RangeCell(result));
        for (std::string cell : {
                 Cell(read && !std::isnan(result.p50_micros),
                      absl::StrFormat("%.2f", result.p50_micros)),
                 Cell(read && !std::isnan(result.p99_micros),
                      absl::StrFormat("%.2f", result.p99_micros)),
                 absl::StrFormat("%.0f", result.ops_per_second),
                 absl::StrFormat("%.1f", result.mb_per_second),
                 Cell(read,
                      absl::StrFormat("%.4f", PerOp(result.counters.file_reads,
                                                    result.ops))),
                 Cell(read, absl::StrFormat(
                                "%.0f", PerOp(result.counters.file_bytes_read,
                                              result.ops))),
                 Cell(fp.has_value(),
                      absl::StrFormat("%.3f", fp.value_or(0) * 100)),
                 Cell(bits.has_value() && config.HasFilter(),
                      absl::StrFormat("%.2f", bits.value_or(0))),
                 Cell(hit_rate.has_value(),
                      absl::StrFormat("%.1f", hit_rate.value_or(0) * 100)),
                 Cell(config.storage.has_value(),
                      absl::StrFormat(
                          "%.1f", config.storage
                                      ? config.storage->table_bytes / 1048576.0
                                      : 0.0)),
             }) {
          row.push_back(std::move(cell));
        }
        table.AddRow(std::move(row));
      }
    }
  }
  return table.Render();
}

namespace {

std::optional<double> BytesPerKey(std::optional<uint64_t> bytes,
                                  uint64_t keys) {
  if (!bytes || keys == 0) return std::nullopt;
  return static_cast<double>(*bytes) / keys;
}

std::string BytesPerKeyCell(std::optional<uint64_t> bytes, uint64_t keys) {
  const std::optional<double> per_key = BytesPerKey(bytes, keys);
  return Cell(per_key.has_value(),
              absl::StrFormat("%.3f", per_key.value_or(0)));
}

}  // namespace

std::string MemoryTable(const std::vector<ConfigReport>& configs) {
  TextTable table(
      {"level", "engine", "filter", "io", "cache", "engine's own figure",
       "filter B/key", "index B/key", "own B/key", "cache used MB", "cache MB"},
      /*text_columns=*/6);
  bool any = false;
  for (const ConfigReport& config : configs) {
    const MemorySummary* memory = config.LastMemory();
    if (memory == nullptr) continue;
    any = true;
    const uint64_t keys = config.Keys();
    table.AddRow({
        config.level,
        config.engine,
        config.FilterLabel(),
        config.io,
        CacheSizeLabel(config.cache_size),
        memory->engine_bytes ? memory->engine_bytes_name : "-",
        BytesPerKeyCell(memory->filter_bytes, keys),
        BytesPerKeyCell(memory->index_bytes, keys),
        BytesPerKeyCell(memory->engine_bytes, keys),
        Cell(memory->block_cache_usage.has_value(),
             absl::StrFormat(
                 "%.1f", memory->block_cache_usage.value_or(0) / 1048576.0)),
        absl::StrFormat("%.1f", memory->block_cache_capacity / 1048576.0),
    });
  }
  return any ? table.Render() : "";
}

std::vector<std::string> CorrectnessProblems(
    const std::vector<ConfigReport>& configs) {
  std::vector<std::string> problems;
  for (const ConfigReport& config : configs) {
    if (!config.error.empty()) {
      problems.push_back(
          absl::StrCat(config.Label(), " stopped: ", config.error));
    }
    for (const BenchmarkResult& result : config.results) {
      if (!IsRead(result.kind)) continue;
      const std::string what = absl::StrCat(
          config.Label(), " ", BenchmarkName(result.kind),
          result.threads > 1 ? absl::StrCat(" (", result.threads, " threads)")
                             : "",
          ": ");
      const bool absent = ReadsAbsentKeys(result.kind);
      const bool point = result.kind != BenchmarkKind::kReadSeq;
      if (absent && result.found > 0) {
        problems.push_back(
            absl::StrCat(what, result.found, " absent keys reported present"));
      }
      if (!absent && point && result.not_found > 0) {
        problems.push_back(absl::StrCat(what, result.not_found,
                                        " present keys reported missing "
                                        "(false negatives)"));
      }
      if (result.wrong_values > 0) {
        problems.push_back(
            absl::StrCat(what, result.wrong_values, " wrong values"));
      }
      if (result.errors > 0) {
        problems.push_back(
            absl::StrCat(what, result.errors,
                         " lookup errors, first: ", result.first_error));
      }
    }
  }
  return problems;
}

namespace {

// null for a value that is absent (or not a finite number).
template <typename T>
nlohmann::json OrNull(const std::optional<T>& value) {
  if (!value) return nullptr;
  if constexpr (std::is_floating_point_v<T>) {
    if (!std::isfinite(*value)) return nullptr;
  }
  return *value;
}
nlohmann::json OrNull(double value) { return OrNull(std::optional(value)); }
nlohmann::json OrNull(const std::string& text) {
  return text.empty() ? nlohmann::json(nullptr) : nlohmann::json(text);
}

nlohmann::json RangeOrNull(
    const std::optional<std::pair<double, double>>& range) {
  if (!range) return nullptr;
  return {range->first, range->second};
}

nlohmann::json MemoryJson(const MemorySummary& memory, uint64_t keys) {
  return {
      {"filter_bytes", OrNull(memory.filter_bytes)},
      {"index_bytes", OrNull(memory.index_bytes)},
      {"engine_bytes", OrNull(memory.engine_bytes)},
      {"engine_bytes_name",
       memory.engine_bytes ? OrNull(memory.engine_bytes_name) : nullptr},
      {"filter_bytes_per_key", OrNull(BytesPerKey(memory.filter_bytes, keys))},
      {"index_bytes_per_key", OrNull(BytesPerKey(memory.index_bytes, keys))},
      {"engine_bytes_per_key", OrNull(BytesPerKey(memory.engine_bytes, keys))},
      {"block_cache_usage_bytes", OrNull(memory.block_cache_usage)},
      {"block_cache_capacity_bytes", memory.block_cache_capacity},
      {"sources", memory.sources},
      {"open_micros", OrNull(memory.open_micros)},
      {"open_file_reads", OrNull(memory.open_file_reads)},
      {"open_data_block_reads", OrNull(memory.open_data_block_reads)},
      {"open_micros_range", RangeOrNull(memory.open_micros_range)},
      {"sidecar_keys", OrNull(memory.sidecar_keys)},
      {"sidecar_bytes", OrNull(memory.sidecar_bytes)},
      {"sidecar_build_micros_1_thread",
       OrNull(memory.sidecar_build_micros_1_thread)},
      {"sidecar_build_micros_2_threads",
       OrNull(memory.sidecar_build_micros_2_threads)},
      {"sidecar_build_micros_1_thread_range",
       RangeOrNull(memory.sidecar_build_micros_1_thread_range)},
      {"sidecar_build_micros_2_threads_range",
       RangeOrNull(memory.sidecar_build_micros_2_threads_range)},
  };
}

nlohmann::json ResultJson(const ConfigReport& config,
                          const BenchmarkResult& result) {
  nlohmann::json r = {{"benchmark", BenchmarkName(result.kind)}};
  if (result.kind == BenchmarkKind::kStats) {
    r["stats"] = result.stats_text;
    return r;
  }
  r.update({{"ops", result.ops},
            {"threads", result.threads},
            {"wall_seconds", result.wall_seconds},
            {"micros_per_op", result.micros_per_op},
            {"p50_micros", OrNull(result.p50_micros)},
            {"p99_micros", OrNull(result.p99_micros)},
            {"ops_per_second", result.ops_per_second},
            {"mb_per_second", result.mb_per_second},
            {"bytes", result.bytes}});
  if (IsRead(result.kind)) {
    const EngineCounters& counters = result.counters;
    const bool filter = counters.has_filter_counters;
    r.update({
        {"found", result.found},
        {"not_found", result.not_found},
        {"wrong_values", result.wrong_values},
        {"errors", result.errors},
        {"first_error", OrNull(result.first_error)},
        {"file_reads", counters.file_reads},
        {"file_bytes_read", counters.file_bytes_read},
        {"reads_per_op", PerOp(counters.file_reads, result.ops)},
        {"bytes_read_per_op", PerOp(counters.file_bytes_read, result.ops)},
        {"filter_checks",
         filter ? nlohmann::json(counters.filter_checks) : nullptr},
        {"filter_negatives",
         filter ? nlohmann::json(counters.filter_negatives) : nullptr},
        {"filter_true_positives", OrNull(counters.filter_true_positives)},
        {"false_positive_rate", OrNull(FalsePositiveRate(result))},
    });
    if (counters.has_block_cache_counters) {
      r["block_cache_hits"] = counters.block_cache_hits;
      r["block_cache_misses"] = counters.block_cache_misses;
    }
    r["block_cache_hit_rate"] = OrNull(CacheHitRate(result));
    // Absent keys: the share of lookups whose data block (read on a
    // filter's "maybe") came from the block cache.
    if (ReadsAbsentKeys(result.kind) && counters.has_block_cache_counters) {
      r["absent_from_cache"] = PerOp(counters.block_cache_hits, result.ops);
    }
    r["memory"] = result.memory ? MemoryJson(*result.memory, config.Keys())
                                : nlohmann::json(nullptr);
    r["files_before"] = result.files_before;
    r["files_after"] = result.files_after;
  }
  if (result.runs.size() > 1) {
    nlohmann::json& runs = r["runs"] = nlohmann::json::array();
    for (const RunFigures& run : result.runs) {
      runs.push_back({{"micros_per_op", run.micros_per_op},
                      {"p50_micros", OrNull(run.p50_micros)},
                      {"p99_micros", OrNull(run.p99_micros)},
                      {"ops_per_second", run.ops_per_second},
                      {"mb_per_second", run.mb_per_second},
                      {"wall_seconds", run.wall_seconds}});
    }
    for (const auto& [name, field] :
         {std::pair{"micros_per_op", &RunFigures::micros_per_op},
          std::pair{"p50_micros", &RunFigures::p50_micros},
          std::pair{"p99_micros", &RunFigures::p99_micros},
          std::pair{"ops_per_second", &RunFigures::ops_per_second},
          std::pair{"mb_per_second", &RunFigures::mb_per_second}}) {
      const auto [low, high] = Range(result, field);
      r["range"][name] = {OrNull(low), OrNull(high)};
    }
  }
  return r;
}

}  // namespace

nlohmann::json ReportJson(const nlohmann::json& settings,
                          const std::vector<std::string>& notes,
                          const std::vector<ConfigReport>& configs) {
  nlohmann::json report = {{"settings", settings},
                           {"notes", notes},
                           {"problems", CorrectnessProblems(configs)},
                           {"configs", nlohmann::json::array()}};
  for (const ConfigReport& config : configs) {
    const EngineEntry* entry = FindEngine(config.engine);
    const MemorySummary* memory = config.LastMemory();
    nlohmann::json c = {
        {"engine", config.engine},
        {"level", config.level},
        {"call", entry != nullptr ? OrNull(entry->call) : nullptr},
        {"io", config.io},
        {"filter", config.filter},
        {"filter_label", config.FilterLabel()},
        {"bloom_bits", config.bloom_bits},
        {"scan_filter", config.scan_filter},
        {"stored_bits_per_key",
         config.HasFilter() ? OrNull(config.FilterBitsPerKey()) : nullptr},
        {"target_stored_bits", config.target_stored_bits > 0
                                   ? nlohmann::json(config.target_stored_bits)
                                   : nullptr},
        {"filter_layout", OrNull(config.filter_layout)},
        {"index_block_restart_interval",
         config.index_block_restart_interval > 0
             ? nlohmann::json(config.index_block_restart_interval)
             : nullptr},
        {"cache_size", config.cache_size},
        {"dir", config.dir},
        {"keys_written", config.keys_written},
        {"error", OrNull(config.error)},
        {"storage", nullptr},
        {"memory", memory != nullptr ? MemoryJson(*memory, config.Keys())
                                     : nlohmann::json(nullptr)},
        {"results", nlohmann::json::array()},
    };
    if (config.storage) {
      const StorageSummary& storage = *config.storage;
      c["storage"] = {
          {"table_files", storage.table_files},
          {"table_bytes", storage.table_bytes},
          {"entries",
           storage.entries > 0 ? nlohmann::json(storage.entries) : nullptr},
          {"filter_bytes", OrNull(storage.filter_bytes)},
          {"filter_bits_per_key", OrNull(config.FilterBitsPerKey())},
          {"shape", storage.shape},
      };
    }
    for (const BenchmarkResult& result : config.results) {
      c["results"].push_back(ResultJson(config, result));
    }
    report["configs"].push_back(std::move(c));
  }
  return report;
}

}  // namespace db_bench
}  // namespace bloomtable
