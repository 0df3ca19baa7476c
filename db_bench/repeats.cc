#include "db_bench/repeats.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace bloomtable {
namespace db_bench {

std::vector<size_t> RotatedOrder(size_t groups, int run, int runs) {
  std::vector<size_t> order(groups);
  if (groups == 0) return order;
  const size_t shift =
      runs > 0 ? (static_cast<size_t>(run) * groups / runs) % groups : 0;
  for (size_t i = 0; i < groups; ++i) order[i] = (i + shift) % groups;
  return order;
}

double Median(std::vector<double> values) {
  values.erase(std::remove_if(values.begin(), values.end(),
                              [](double v) { return std::isnan(v); }),
               values.end());
  if (values.empty()) return std::numeric_limits<double>::quiet_NaN();
  std::sort(values.begin(), values.end());
  const size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

namespace {

// The medians of each figure over `runs`.
RunFigures MedianFigures(const std::vector<RunFigures>& runs) {
  auto median_of = [&runs](double RunFigures::*field) {
    std::vector<double> values;
    for (const RunFigures& run : runs) values.push_back(run.*field);
    return Median(values);
  };
  RunFigures median;
  median.micros_per_op = median_of(&RunFigures::micros_per_op);
  median.p50_micros = median_of(&RunFigures::p50_micros);
  median.p99_micros = median_of(&RunFigures::p99_micros);
  median.ops_per_second = median_of(&RunFigures::ops_per_second);
  median.mb_per_second = median_of(&RunFigures::mb_per_second);
  median.wall_seconds = median_of(&RunFigures::wall_seconds);
  return median;
}

BenchmarkResult MergeResult(const std::vector<const BenchmarkResult*>& runs) {
  std::vector<RunFigures> figures;
  for (const BenchmarkResult* run : runs) figures.push_back(run->Figures());
  const RunFigures median = MedianFigures(figures);
  // The run nearest the median stands for the counts.
  const BenchmarkResult* representative = runs.front();
  for (const BenchmarkResult* run : runs) {
    if (std::abs(run->micros_per_op - median.micros_per_op) <
        std::abs(representative->micros_per_op - median.micros_per_op)) {
      representative = run;
    }
  }
  BenchmarkResult merged = *representative;
  // Times measured once per fill or open (Table::Open's, the sidecars'
  // builds): the median of the runs that measured them, with their range.
  const auto merge_time =
      [&](std::optional<double> MemorySummary::*time,
          std::optional<std::pair<double, double>> MemorySummary::*range) {
        std::vector<double> times;
        for (const BenchmarkResult* run : runs) {
          if (run->memory && (*run->memory).*time) {
            times.push_back(*((*run->memory).*time));
          }
        }
        if (!merged.memory || times.empty()) return;
        (*merged.memory).*time = Median(times);
        const auto [low, high] =
            std::minmax_element(times.begin(), times.end());
        (*merged.memory).*range = std::make_pair(*low, *high);
      };
  merge_time(&MemorySummary::open_micros, &MemorySummary::open_micros_range);
  merge_time(&MemorySummary::sidecar_build_micros_1_thread,
             &MemorySummary::sidecar_build_micros_1_thread_range);
  merge_time(&MemorySummary::sidecar_build_micros_2_threads,
             &MemorySummary::sidecar_build_micros_2_threads_range);
  merged.micros_per_op = median.micros_per_op;
  merged.p50_micros = median.p50_micros;
  merged.p99_micros = median.p99_micros;
  merged.ops_per_second = median.ops_per_second;
  merged.mb_per_second = median.mb_per_second;
  merged.wall_seconds = median.wall_seconds;
  merged.runs = figures;
  return merged;
}

}  // namespace

std::vector<ConfigReport> MergeRuns(
    const std::vector<std::vector<ConfigReport>>& runs) {
  if (runs.empty()) return {};
  if (runs.size() == 1) return runs.front();
  std::vector<ConfigReport> merged = runs.back();
  for (size_t c = 0; c < merged.size(); ++c) {
    ConfigReport& config = merged[c];
    for (const std::vector<ConfigReport>& run : runs) {
      if (config.error.empty() && !run[c].error.empty()) {
        config.error = run[c].error;
      }
    }
    for (size_t k = 0; k < config.results.size(); ++k) {
      const BenchmarkResult& last = runs.back()[c].results[k];
      if (last.kind == BenchmarkKind::kStats) continue;
      std::vector<const BenchmarkResult*> matching;
      for (const std::vector<ConfigReport>& run : runs) {
        const std::vector<BenchmarkResult>& results = run[c].results;
        if (k < results.size() && results[k].kind == last.kind &&
            results[k].threads == last.threads) {
          matching.push_back(&results[k]);
        }
      }
      config.results[k] = MergeResult(matching);
    }
  }
  return merged;
}

}  // namespace db_bench
}  // namespace bloomtable
