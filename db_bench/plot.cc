#include "db_bench/plot.h"

#include <stdio.h>
#include <sys/wait.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "db_bench/report.h"

namespace bloomtable {
namespace db_bench {
namespace {

// Distinct colours for up to eight series (then they repeat).
constexpr const char* kColours[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e",
                                    "#9467bd", "#8c564b", "#e377c2", "#17becf"};

// The read benchmarks drawn in the right-hand panel, in this order.
constexpr const char* kReadBenchmarks[] = {
    "readrandom", "multireadrandom", "readmissing", "readnearmiss",
    "readhot",    "readseq",         "seekrandom"};

// gnuplot strings are in double quotes; keep labels free of quotes and
// backslashes rather than escape them.
std::string Quote(std::string text) {
  std::replace(text.begin(), text.end(), '"', '\'');
  std::replace(text.begin(), text.end(), '\\', '/');
  return absl::StrCat("\"", text, "\"");
}

std::string SeriesName(const nlohmann::json& config) {
  std::string name = absl::StrCat(config.value("engine", "?"), " ",
                                  config.value("filter", "?"));
  if (config.contains("filter_layout") && config["filter_layout"].is_string()) {
    absl::StrAppend(&name, " (", config["filter_layout"].get<std::string>(),
                    ")");
  }
  return name;
}

const nlohmann::json* FindResult(const nlohmann::json& config,
                                 const std::string& benchmark) {
  if (!config.contains("results")) return nullptr;
  for (const nlohmann::json& result : config["results"]) {
    if (result.value("benchmark", "") == benchmark) return &result;
  }
  return nullptr;
}

struct FpPoint {
  double bits;
  double fp;
};

}  // namespace

std::string PlotScript(const nlohmann::json& report,
                       const std::string& output_path) {
  const nlohmann::json empty = nlohmann::json::array();
  const nlohmann::json& configs =
      report.contains("configs") ? report["configs"] : empty;

  // Left panel: per series (engine + filter + layout), per workload.
  // The same store at several cache sizes has the same filter: draw the
  // first size's.
  const nlohmann::json settings = report.contains("settings")
                                      ? report["settings"]
                                      : nlohmann::json::object();
  std::vector<uint64_t> cache_sizes;
  if (settings.contains("cache_sizes") && settings["cache_sizes"].is_array()) {
    for (const nlohmann::json& size : settings["cache_sizes"]) {
      if (size.is_number_unsigned())
        cache_sizes.push_back(size.get<uint64_t>());
    }
  }
  if (cache_sizes.empty()) {
    cache_sizes.push_back(settings.value("cache_size", uint64_t{0}));
  }
  auto cache_size_of = [&cache_sizes](const nlohmann::json& config) {
    return config.value("cache_size", cache_sizes.front());
  };
  std::vector<std::string> series;
  std::map<std::string, std::map<std::string, std::vector<FpPoint>>> points;
  double max_bits = 0;
  for (const nlohmann::json& config : configs) {
    if (config.value("filter", "none") == "none") continue;
    if (cache_size_of(config) != cache_sizes.front()) continue;
    if (!config.contains("storage") || !config["storage"].is_object()) continue;
    const nlohmann::json& bits = config["storage"]["filter_bits_per_key"];
    if (!bits.is_number()) continue;
    const std::string name = SeriesName(config);
    if (std::find(series.begin(), series.end(), name) == series.end()) {
      series.push_back(name);
    }
    for (const char* workload : {"readmissing", "readnearmiss"}) {
      const nlohmann::json* result = FindResult(config, workload);
      if (result == nullptr || !(*result)["false_positive_rate"].is_number()) {
        continue;
      }
      const double fp = (*result)["false_positive_rate"].get<double>();
      if (fp <= 0) continue;  // not drawable on a log scale
      points[name][workload].push_back({bits.get<double>(), fp});
      max_bits = std::max(max_bits, bits.get<double>());
    }
  }

  // Right panel: reads per lookup, one row per configuration.
  std::vector<std::string> benchmarks;
  for (const char* benchmark : kReadBenchmarks) {
    for (const nlohmann::json& config : configs) {
      if (FindResult(config, benchmark) != nullptr) {
        benchmarks.push_back(benchmark);
        break;
      }
    }
  }

  std::string script;
  const bool png = output_path.size() >= 4 &&
                   output_path.compare(output_path.size() - 4, 4, ".png") == 0;
  absl::StrAppend(&script,
                  png ? "set terminal pngcairo size 1600,640 noenhanced "
                        "font 'sans,11'\n"
                      : "set terminal svg size 1600,640 dynamic noenhanced "
                        "font 'sans,12' background '#ffffff'\n",
                  "set output ", Quote(output_path), "\n",
                  "set datafile missing '-'\n");

  // Data blocks.
  for (size_t s = 0; s < series.size(); ++s) {
    for (const char* workload : {"readmissing", "readnearmiss"}) {
      std::vector<FpPoint> data = points[series[s]][workload];
      std::sort(
          data.begin(), data.end(),
          [](const FpPoint& a, const FpPoint& b) { return a.bits < b.bits; });
      absl::StrAppend(&script, "$fp_", s, "_", workload, " << EOD\n");
      for (const FpPoint& p : data) {
        absl::StrAppendFormat(&script, "%.4f %.8g\n", p.bits, p.fp);
      }
      absl::StrAppend(&script, "EOD\n");
    }
  }
  double max_reads = 0;
  absl::StrAppend(&script, "$reads << EOD\n");
  for (const nlohmann::json& config : configs) {
    std::string label = absl::StrCat(config.value("engine", "?"), " ",
                                     config.value("filter_label", "?"));
    if (cache_sizes.size() > 1) {
      absl::StrAppend(&label, " ", CacheSizeLabel(cache_size_of(config)));
    }
    std::string row = Quote(label);
    for (const std::string& benchmark : benchmarks) {
      const nlohmann::json* result = FindResult(config, benchmark);
      if (result != nullptr && (*result)["reads_per_op"].is_number()) {
        const double reads = (*result)["reads_per_op"].get<double>();
        max_reads = std::max(max_reads, reads);
        absl::StrAppendFormat(&row, " %.6g", reads);
      } else {
        row += " -";
      }
    }
    absl::StrAppend(&script, row, "\n");
  }
  absl::StrAppend(&script, "EOD\n");

  std::string cache_text;
  for (uint64_t size : cache_sizes) {
    absl::StrAppend(&cache_text, cache_text.empty() ? "" : ", ",
                    CacheSizeLabel(size));
  }
  absl::StrAppend(
      &script, "set multiplot layout 1,2 title ",
      Quote(absl::StrFormat(
          "db_bench: %d keys, %d reads per thread, %d-byte blocks, "
          "%s block cache, %d table(s) per lookup",
          settings.value("num", uint64_t{0}),
          settings.value("reads", uint64_t{0}), settings.value("block_size", 0),
          cache_text, settings.value("tables", 1))),
      "\n");

  // Left panel. The y axis reaches down to the floor at the right edge, but
  // no lower than 1e-5 (10 per million).
  const double x_max = std::max(12.0, std::ceil(max_bits) + 2);
  const double y_min = std::max(
      1e-5, std::pow(10.0, std::floor(std::log10(std::pow(2.0, -x_max)))));
  absl::StrAppend(
      &script,
      "set title 'False-positive rate against filter bits per key (as "
      "stored)'\n",
      "set xlabel 'filter bits per key'\nset ylabel 'false-positive rate'\n",
      "set logscale y\nset format y '%g'\nset grid\n",
      absl::StrFormat("set xrange [0:%g]\nset yrange [%g:1]\n", x_max, y_min),
      "set key bottom left box opaque\n", "plot [b=0.5:", x_max,
      "] 2**(-b) with lines dt 2 lw 2 lc rgb '#555555' "
      "title 'floor 2^-b'");
  for (size_t s = 0; s < series.size(); ++s) {
    const char* colour = kColours[s % (sizeof(kColours) / sizeof(kColours[0]))];
    absl::StrAppend(
        &script, ", \\\n  $fp_", s,
        "_readmissing using 1:2 with linespoints pt 7 ps 1.5 lc rgb '", colour,
        "' title ", Quote(series[s] + ": readmissing"), ", \\\n  $fp_", s,
        "_readnearmiss using 1:2 with linespoints pt 6 ps 1.5 dt 3 "
        "lc rgb '",
        colour, "' title ", Quote(series[s] + ": readnearmiss"));
  }
  absl::StrAppend(&script, "\n");

  // Right panel.
  absl::StrAppend(
      &script,
      "unset logscale y\nset format y '%g'\nset autoscale x\nset xrange "
      "[*:*]\n",
      "set title 'Table-file reads per lookup'\nset xlabel ''\n",
      "set ylabel 'reads per lookup'\n",
      // Headroom above the tallest bar for the key.
      absl::StrFormat("set yrange [0:%g]\n", std::max(0.1, max_reads * 1.35)),
      "set style data histograms\nset style histogram clustered gap 1\n",
      "set style fill solid 0.85 border -1\nset boxwidth 0.9\n",
      "set xtics rotate by 30 right scale 0\nset key top right\n");
  if (benchmarks.empty() || configs.empty()) {
    absl::StrAppend(&script,
                    "set label 'no read benchmarks' at graph 0.5, "
                    "graph 0.5 center\nplot [0:1] -1 notitle\n");
  } else {
    absl::StrAppend(&script, "plot ");
    for (size_t b = 0; b < benchmarks.size(); ++b) {
      if (b > 0) absl::StrAppend(&script, ", \\\n  ");
      absl::StrAppend(&script, "$reads using ", b + 2, b == 0 ? ":xtic(1)" : "",
                      " title ", Quote(benchmarks[b]), " lc rgb '",
                      kColours[b % (sizeof(kColours) / sizeof(kColours[0]))],
                      "'");
    }
    absl::StrAppend(&script, "\n");
  }
  absl::StrAppend(&script, "unset multiplot\n");
  return script;
}

absl::Status WritePlot(const nlohmann::json& report,
                       const std::string& output_path) {
  const std::string script = PlotScript(report, output_path);
  FILE* gnuplot = popen("gnuplot", "w");
  if (gnuplot == nullptr) {
    return absl::InternalError("could not start gnuplot");
  }
  fwrite(script.data(), 1, script.size(), gnuplot);
  const int status = pclose(gnuplot);
  if (WIFEXITED(status) && WEXITSTATUS(status) == 127) {
    return absl::NotFoundError(
        "gnuplot not found: install gnuplot-nox (third_party/install_deps.sh)");
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    return absl::InternalError(
        absl::StrCat("gnuplot failed drawing ", output_path));
  }
  return absl::OkStatus();
}

}  // namespace db_bench
}  // namespace bloomtable
