// Draws a db_bench report (the JSON that ReportJson makes) with gnuplot
// (Debian's gnuplot-nox, installed by third_party/install_deps.sh):
//   - left: measured false-positive rate against the filter bits per key
//     stored in the tables, one colour per engine and filter, filled marks
//     for readmissing and open marks for readnearmiss, beside the
//     information-theoretic floor 2^-b (log scale; a rate of 0 cannot be
//     drawn there and is left out);
//   - right: table-file reads per lookup for each configuration and read
//     benchmark.
// A path ending in .png gives a PNG; anything else an SVG.

#ifndef BLOOMTABLE_DB_BENCH_PLOT_H_
#define BLOOMTABLE_DB_BENCH_PLOT_H_

#include <string>

#include "absl/status/status.h"
#include "nlohmann/json.hpp"

namespace bloomtable {
namespace db_bench {

// The gnuplot script, data inline, that draws `report` into `output_path`.
std::string PlotScript(const nlohmann::json& report,
                       const std::string& output_path);

// Runs gnuplot on PlotScript. NotFound if gnuplot is not installed; Internal
// if it fails.
absl::Status WritePlot(const nlohmann::json& report,
                       const std::string& output_path);

}  // namespace db_bench
}  // namespace bloomtable

#endif  // BLOOMTABLE_DB_BENCH_PLOT_H_
