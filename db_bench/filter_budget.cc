#include "db_bench/filter_budget.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <vector>

#include "absl/strings/str_cat.h"
#include "db_bench/directory.h"
#include "db_bench/engine.h"
#include "db_bench/filter_registry.h"
#include "db_bench/progress.h"

namespace bloomtable {
namespace db_bench {
namespace {

// Stored within this fraction of the target is close enough.
constexpr double kTolerance = 0.002;
constexpr int kMaxEvaluations = 12;
// The range searched (the plan accepts up to 100 bits per key).
constexpr double kMinBits = 0.5;
constexpr double kMaxBits = 100;

// The table-level engine whose builder writes `engine`'s filter.
// (The iterator engines: always built, and their builders are the ones the
// peer's other engines use.)
std::string BuilderEngine(const std::string& engine) {
  const EngineEntry* entry = FindEngine(engine);
  if (UsesLevelDBBloom(engine) || engine == "leveldb+bloomtable") {
    return "leveldb_table_iterator";
  }
  if (entry != nullptr && entry->family == "rocksdb") {
    return "rocksdb_sst_iterator";
  }
  return "bloomtable";
}

bool TakesWholeBits(const std::string& filter) {
  absl::StatusOr<const FilterEntry*> entry = FindFilter(filter);
  return entry.ok() ? !(*entry)->fractional_bits : filter == "leveldb_bloom";
}

}  // namespace

absl::StatusOr<BitsForBudget> FindBitsForStoredBudget(
    double target, bool whole_bits,
    const std::function<absl::StatusOr<double>(double bits)>& stored_at) {
  std::map<double, double> tried;  // bits per key -> stored bits per key
  // Whole numbers, or hundredths (finer settings than RocksDB's millibits
  // change the stored size by less than the tolerance).
  auto clamp = [whole_bits](double bits) {
    bits = std::clamp(bits, whole_bits ? 1.0 : kMinBits, kMaxBits);
    return whole_bits ? std::round(bits) : std::round(bits * 100) / 100;
  };
  auto nearest = [&tried, target] {
    auto best = tried.begin();
    for (auto it = tried.begin(); it != tried.end(); ++it) {
      if (std::abs(it->second - target) < std::abs(best->second - target)) {
        best = it;
      }
    }
    return best;
  };
  // Evaluates `bits` unless tried; false if it was.
  absl::Status status;
  auto evaluate = [&](double bits) {
    if (tried.count(bits) > 0 || !status.ok()) return false;
    absl::StatusOr<double> stored = stored_at(bits);
    if (!stored.ok()) {
      status = stored.status();
      return false;
    }
    tried[bits] = *stored;
    return true;
  };
  double bits = clamp(target);
  evaluate(bits);
  while (status.ok() && static_cast<int>(tried.size()) < kMaxEvaluations) {
    const auto best = nearest();
    if (std::abs(best->second - target) <= kTolerance * target) break;
    // Secant through the nearest point below the target and the nearest
    // above; with points on one side only, through the best and the origin.
    auto below = tried.end();
    auto above = tried.end();
    for (auto it = tried.begin(); it != tried.end(); ++it) {
      if (it->second < target) below = it;
      if (it->second >= target && above == tried.end()) above = it;
    }
    double next;
    if (below != tried.end() && above != tried.end() &&
        above->second > below->second) {
      next = below->first + (target - below->second) *
                                (above->first - below->first) /
                                (above->second - below->second);
    } else {
      next = best->first * target / std::max(best->second, 1e-9);
    }
    if (evaluate(clamp(next))) continue;
    // The secant repeats a point: with whole bits, try the neighbour of the
    // best towards the target, then stop.
    if (!whole_bits) break;
    const double step = best->second < target ? 1 : -1;
    if (!evaluate(clamp(best->first + step))) break;
  }
  if (!status.ok()) return status;
  const auto best = nearest();
  return BitsForBudget{best->first, best->second};
}

absl::Status CalibrateStoredBits(const PlanFlags& flags,
                                 const std::string& scratch_dir,
                                 BenchPlan* plan) {
  const uint64_t entries = std::min<uint64_t>(plan->num, kCalibrationEntries);
  const KeyGenerator keys(flags.key_size, entries);
  // The values' seed does not matter for sizes; any fixed one will do.
  const ValueGenerator values(flags.value_size, flags.compression_ratio, 301);
  std::vector<uint64_t> order(entries);
  for (uint64_t j = 0; j < entries; ++j) order[j] = j;
  // "builder filter layout target" -> bits per key, shared by the stores
  // that need the same (leveldb and leveldb_table, every I/O path, ...).
  std::map<std::string, double> found;
  for (ConfigPlan& config : plan->configs) {
    if (config.target_stored_bits <= 0) continue;
    const std::string builder = BuilderEngine(config.engine);
    const std::string key =
        absl::StrCat(builder, " ", config.filter, " ", config.filter_layout,
                     " ", config.target_stored_bits);
    auto it = found.find(key);
    if (it == found.end()) {
      // The configuration's own filter (leveldb+bloomtable: bloomtable's
      // policy through the adapter), built by `builder`'s table builder.
      ConfigPlan trial = config;
      trial.engine_options.dir = scratch_dir;
      const auto stored_at = [&](double bits) -> absl::StatusOr<double> {
        absl::Status status = ApplyFilterBits(bits, &trial);
        if (!status.ok()) return status;
        std::unique_ptr<Engine> engine =
            NewEngine(builder, trial.engine_options);
        if (engine == nullptr) {
          return absl::FailedPreconditionError(builder + " was not built");
        }
        Progress progress(absl::StrCat("[calibrating ", key, "]"), entries);
        status = engine->Fill(FillInput{&keys, &values, order}, &progress);
        if (!status.ok()) return status;
        absl::StatusOr<StorageSummary> storage = engine->Storage();
        if (!storage.ok()) return storage.status();
        if (!storage->filter_bytes || *storage->filter_bytes == 0) {
          return absl::InternalError(key + ": the table has no filter");
        }
        return *storage->filter_bytes * 8.0 / entries;
      };
      absl::StatusOr<BitsForBudget> budget = FindBitsForStoredBudget(
          config.target_stored_bits, TakesWholeBits(config.filter), stored_at);
      RemoveDirectory(scratch_dir).IgnoreError();
      if (!budget.ok()) return budget.status();
      std::printf(
          "calibration: %s %s%s: bits_per_key %.3g stores %.2f bits/key "
          "(target %g, %llu keys)\n",
          builder.c_str(), config.filter.c_str(),
          config.filter_layout.empty()
              ? ""
              : absl::StrCat(" (", config.filter_layout, ")").c_str(),
          budget->bits_per_key, budget->stored_bits_per_key,
          config.target_stored_bits, static_cast<unsigned long long>(entries));
      std::fflush(stdout);
      it = found.emplace(key, budget->bits_per_key).first;
    }
    absl::Status status = ApplyFilterBits(it->second, &config);
    if (!status.ok()) return status;
  }
  return absl::OkStatus();
}

}  // namespace db_bench
}  // namespace bloomtable
