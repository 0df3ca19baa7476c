#include "db_bench/filter_bench_report.h"

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "absl/strings/str_format.h"
#include "db_bench/text_table.h"

namespace bloomtable {

std::string LayoutName(const FilterBenchRow& row) {
  return absl::StrFormat("%d x %d", row.num_filters, row.keys_per_filter);
}

const FilterBenchRow* FindBaseline(const std::vector<FilterBenchRow>& rows,
                                   const FilterBenchRow& row) {
  for (const FilterBenchRow& other : rows) {
    if (other.filter == row.baseline && other.num_keys == row.num_keys &&
        other.num_filters == row.num_filters &&
        other.bits_per_key == row.bits_per_key) {
      return &other;
    }
  }
  return nullptr;
}

void PrintTable(const std::vector<FilterBenchRow>& rows) {
  const std::vector<std::string> header = {
      "filter",       "layout",         "bpk",          "bits/key",
      "build ns/key", "present ns",     "absent ns",    "absent dep ns",
      "FP% random",   "FP% near",       "FP% formula",  "FP% 2^-b",
      "build x/base", "present x/base", "absent x/base"};
  db_bench::TextTable table(header, /*text_columns=*/1);
  for (const FilterBenchRow& row : rows) {
    const FilterBenchRow* base = FindBaseline(rows, row);
    auto ratio = [&](double ours, double theirs) {
      return base == nullptr ? std::string("-")
                             : absl::StrFormat("%.2f", ours / theirs);
    };
    table.AddRow({
        row.filter + (row.same_bytes_as_baseline ? "" : " (BYTES DIFFER)") +
            (row.false_negatives ? " (FALSE NEGATIVES)" : ""),
        LayoutName(row),
        absl::StrFormat("%d", row.bits_per_key),
        absl::StrFormat("%.2f", row.filter_bits_per_key),
        absl::StrFormat("%.1f", row.build_ns_per_key),
        absl::StrFormat("%.1f", row.present_ns_per_probe),
        absl::StrFormat("%.1f", row.absent_ns_per_probe),
        absl::StrFormat("%.1f", row.absent_dependent_ns_per_probe),
        absl::StrFormat("%.3f", 100 * row.fp_random),
        absl::StrFormat("%.3f", 100 * row.fp_near_miss),
        absl::StrFormat("%.3f", 100 * row.fp_expected),
        absl::StrFormat("%.4f", 100 * row.fp_floor),
        ratio(row.build_ns_per_key, base ? base->build_ns_per_key : 0),
        ratio(row.present_ns_per_probe, base ? base->present_ns_per_probe : 0),
        ratio(row.absent_ns_per_probe, base ? base->absent_ns_per_probe : 0),
    });
  }
  std::printf("%s", table.Render().c_str());
}

nlohmann::json RowsToJson(const std::vector<FilterBenchRow>& rows,
                          int repeats) {
  nlohmann::json results = nlohmann::json::array();
  for (const FilterBenchRow& row : rows) {
    nlohmann::json entry = {
        {"filter", row.filter},
        {"policy", row.policy},
        {"baseline", row.baseline},
        {"num_keys", row.num_keys},
        {"num_filters", row.num_filters},
        {"keys_per_filter", row.keys_per_filter},
        {"bits_per_key", row.bits_per_key},
        {"filter_bits_per_key", row.filter_bits_per_key},
        {"build_ns_per_key", row.build_ns_per_key},
        {"present_probe_ns", row.present_ns_per_probe},
        {"absent_probe_ns", row.absent_ns_per_probe},
        {"absent_dependent_probe_ns", row.absent_dependent_ns_per_probe},
        {"absent_probe_ns_range", {row.absent_ns_min, row.absent_ns_max}},
        {"absent_dependent_probe_ns_range",
         {row.absent_dependent_ns_min, row.absent_dependent_ns_max}},
        {"fp_rate_random", row.fp_random},
        {"fp_rate_near_miss", row.fp_near_miss},
        {"fp_rate_formula", row.fp_expected},
        {"fp_rate_floor", row.fp_floor},
        {"same_bytes_as_baseline", row.same_bytes_as_baseline},
        {"false_negatives", row.false_negatives},
    };
    if (const FilterBenchRow* base = FindBaseline(rows, row)) {
      entry["build_ratio_to_baseline"] =
          row.build_ns_per_key / base->build_ns_per_key;
      entry["present_ratio_to_baseline"] =
          row.present_ns_per_probe / base->present_ns_per_probe;
      entry["absent_ratio_to_baseline"] =
          row.absent_ns_per_probe / base->absent_ns_per_probe;
    }
    results.push_back(entry);
  }
  return nlohmann::json{{"repeats", repeats}, {"results", results}};
}

}  // namespace bloomtable
