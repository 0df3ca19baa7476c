// filter_bench: build and probe speed, space and false-positive rates of the
// filter policies, bloomtable's and LevelDB's side by side in the same run
// (README's Benchmarks section), as medians of --repeats runs. Layouts: one
// filter over all keys, and filters of --keys_per_filter keys probed in a
// random order, as lookups in a table would. Times are this thread's CPU
// time, and the implementations take turns in slices of 64Ki keys, so that
// other processes on a shared machine disturb all of them alike.
//
// Example: filter_bench --keys=100000,1000000 --repeats=5 --json=out.json

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <ctime>
#include <numeric>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "db_bench/bench_filters.h"
#include "db_bench/machine.h"
#include "db_bench/peers.h"
#include "db_bench/text_table.h"
#include "nlohmann/json.hpp"

ABSL_FLAG(std::vector<std::string>, bits_per_key,
          std::vector<std::string>({"6", "8", "10", "12", "16", "20"}),
          "Comma-separated bits per key to measure.");
ABSL_FLAG(std::vector<std::string>, keys, std::vector<std::string>({"1000000"}),
          "Comma-separated key counts. Each is one filter over all keys and, "
          "split by --keys_per_filter, many small filters.");
ABSL_FLAG(int, keys_per_filter, 100,
          "Keys per filter in the many-filters layout (LevelDB's per-2 KiB "
          "filters hold about 100).");
ABSL_FLAG(int, repeats, 3, "Timed runs per measurement; the median is shown.");
ABSL_FLAG(std::vector<std::string>, filters, std::vector<std::string>(),
          "Comma-separated filter rows to run (default: all compiled in).");
ABSL_FLAG(std::string, json, "", "Also write the results to this JSON file.");
ABSL_FLAG(uint64_t, seed, 301, "Seed of the random keys.");

namespace bloomtable {
namespace {

// Keys stored back to back in one buffer, so that generating a million of
// them costs no per-key allocation and probing them stays cache-friendly.
class KeySet {
 public:
  KeySet(size_t count, size_t key_length) : key_length_(key_length) {
    bytes_.resize(count * key_length);
  }
  char* mutable_key(size_t i) { return &bytes_[i * key_length_]; }
  std::vector<std::string_view> Views() const {
    std::vector<std::string_view> views;
    views.reserve(bytes_.size() / key_length_);
    for (size_t offset = 0; offset < bytes_.size(); offset += key_length_) {
      views.emplace_back(bytes_.data() + offset, key_length_);
    }
    return views;
  }

 private:
  size_t key_length_;
  std::string bytes_;
};

constexpr size_t kRandomKeyLength = 16;
constexpr size_t kDecimalKeyLength = 16;

KeySet RandomKeys(size_t count, std::mt19937_64& rng) {
  KeySet keys(count, kRandomKeyLength);
  for (size_t i = 0; i < count; ++i) {
    char* key = keys.mutable_key(i);
    for (size_t byte = 0; byte < kRandomKeyLength; byte += 8) {
      const uint64_t word = rng();
      for (size_t b = 0; b < 8; ++b)
        key[byte + b] = static_cast<char>(word >> (8 * b));
    }
  }
  return keys;
}

// Key j is the number 2j + parity as 16 zero-padded decimal digits.
KeySet NearMissKeys(size_t count, int parity) {
  KeySet keys(count, kDecimalKeyLength);
  for (size_t j = 0; j < count; ++j) {
    uint64_t value = 2 * j + parity;
    char* key = keys.mutable_key(j);
    for (size_t digit = kDecimalKeyLength; digit-- > 0;) {
      key[digit] = static_cast<char>('0' + value % 10);
      value /= 10;
    }
  }
  return keys;
}

// Probes in a random order, each with the filter it asks. The keys are
// copied back to back in probe order: a lookup's key is hot in the cache, so
// fetching it from a random place in memory must not be what is measured.
struct ProbeSet {
  KeySet keys{0, kRandomKeyLength};
  std::vector<uint32_t> filter_of_probe;
};

ProbeSet CopyInOrder(const std::vector<std::string_view>& keys,
                     const std::vector<uint32_t>& order, size_t key_length) {
  ProbeSet probes;
  probes.keys = KeySet(order.size(), key_length);
  for (size_t i = 0; i < order.size(); ++i) {
    std::string_view key = keys[order[i]];
    std::copy(key.begin(), key.end(), probes.keys.mutable_key(i));
  }
  return probes;
}

// Present-style probes, shuffled: key i goes to filter i / keys_per_filter.
ProbeSet ProbesOfOwnFilters(const std::vector<std::string_view>& keys,
                            size_t key_length, size_t keys_per_filter,
                            std::mt19937_64& rng) {
  std::vector<uint32_t> order(keys.size());
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin(), order.end(), rng);
  ProbeSet probes = CopyInOrder(keys, order, key_length);
  for (uint32_t i : order) {
    probes.filter_of_probe.push_back(
        static_cast<uint32_t>(i / keys_per_filter));
  }
  return probes;
}

// Absent random keys, in their own order, each to a uniformly chosen filter.
ProbeSet ProbesOfRandomFilters(const std::vector<std::string_view>& keys,
                               size_t key_length, size_t num_filters,
                               std::mt19937_64& rng) {
  std::vector<uint32_t> order(keys.size());
  std::iota(order.begin(), order.end(), 0);
  ProbeSet probes = CopyInOrder(keys, order, key_length);
  for (size_t i = 0; i < keys.size(); ++i) {
    probes.filter_of_probe.push_back(
        static_cast<uint32_t>(rng() % num_filters));
  }
  return probes;
}

double Median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const size_t middle = values.size() / 2;
  return values.size() % 2 == 1 ? values[middle]
                                : (values[middle - 1] + values[middle]) / 2;
}

// This thread's CPU time in nanoseconds. Filters are single-threaded CPU
// work, and on a shared machine the wall clock would also count the time
// other processes held the core; caches they disturb still count.
double ThreadCpuNanos() {
  timespec now;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return now.tv_sec * 1e9 + now.tv_nsec;
}

template <typename Function>
double TimeNanos(Function&& function) {
  const double start = ThreadCpuNanos();
  function();
  return ThreadCpuNanos() - start;
}

// One filter implementation's filters for one layout, built and stored the
// way a filter block stores them: back to back in one buffer.
struct BuiltFilters {
  std::string bytes;
  std::vector<size_t> offsets;  // filter f is [offsets[f], offsets[f + 1])

  std::vector<std::string_view> Views() const {
    std::vector<std::string_view> views;
    for (size_t f = 0; f + 1 < offsets.size(); ++f) {
      views.emplace_back(bytes.data() + offsets[f],
                         offsets[f + 1] - offsets[f]);
    }
    return views;
  }
};

// Appends filters [first_filter, end_filter) of the layout to `out`.
void BuildFilters(BenchFilter& filter, size_t num_keys, size_t keys_per_filter,
                  size_t first_filter, size_t end_filter, BuiltFilters* out) {
  for (size_t f = first_filter; f < end_filter; ++f) {
    const size_t begin = f * keys_per_filter;
    filter.AppendFilter(begin, std::min(num_keys, begin + keys_per_filter),
                        &out->bytes);
    out->offsets.push_back(out->bytes.size());
  }
}

void ClearFilters(BuiltFilters* out) {
  out->bytes.clear();  // keeps the capacity reserved by the caller
  out->offsets.assign(1, 0);
}

void BuildAll(BenchFilter& filter, size_t num_keys, size_t keys_per_filter,
              BuiltFilters* out) {
  ClearFilters(out);
  BuildFilters(filter, num_keys, keys_per_filter, 0,
               (num_keys + keys_per_filter - 1) / keys_per_filter, out);
}

// Timed loops are cut into slices of about this many keys, and the
// implementations take turns slice by slice, in an order that rotates: other
// processes' interference, which comes and goes within milliseconds, then
// falls on all of them alike. (A single filter is one slice.)
constexpr size_t kKeysPerSlice = size_t{1} << 16;

// Runs `slice_work(e, begin, end)` for every implementation e over the
// slices [begin, end) of [0, count), `units_per_slice` units each, and
// returns each implementation's total thread CPU time. `round` rotates the
// order of turns from one call to the next.
template <typename SliceWork>
std::vector<double> TimeInTurns(size_t num_entries, size_t count,
                                size_t units_per_slice, int round,
                                SliceWork&& slice_work) {
  const size_t slice = std::max<size_t>(1, units_per_slice);
  std::vector<double> total_ns(num_entries, 0);
  size_t turn = static_cast<size_t>(round);
  for (size_t begin = 0; begin < count; begin += slice, ++turn) {
    const size_t end = std::min(count, begin + slice);
    for (size_t i = 0; i < num_entries; ++i) {
      const size_t e = (turn + i) % num_entries;
      total_ns[e] += TimeNanos([&] { slice_work(e, begin, end); });
    }
  }
  return total_ns;
}

// Measures every implementation in `entries` for one key count, layout and
// bits_per_key, taking turns slice by slice (TimeInTurns).
std::vector<nlohmann::json> MeasureCase(
    const std::vector<BenchFilterEntry>& entries, size_t num_keys,
    size_t keys_per_filter, int bits_per_key, int repeats,
    const std::vector<std::string_view>& present,
    const ProbeSet& present_probes, const std::vector<std::string_view>& absent,
    const std::vector<std::string_view>& near_present,
    const std::vector<std::string_view>& near_absent, std::mt19937_64& rng) {
  const size_t num_filters = (num_keys + keys_per_filter - 1) / keys_per_filter;
  const ProbeSet absent_probes =
      ProbesOfRandomFilters(absent, kRandomKeyLength, num_filters, rng);
  const ProbeSet near_probes =
      ProbesOfOwnFilters(near_absent, kDecimalKeyLength, keys_per_filter, rng);
  const std::vector<std::string_view> present_probe_keys =
      present_probes.keys.Views();
  const std::vector<std::string_view> absent_probe_keys =
      absent_probes.keys.Views();

  std::vector<std::unique_ptr<BenchFilter>> filters;
  std::vector<BuiltFilters> built(entries.size());
  std::vector<bool> false_negatives(entries.size(), false);
  std::vector<std::vector<double>> build_ns(entries.size()),
      present_ns(entries.size()), absent_ns(entries.size());
  for (size_t e = 0; e < entries.size(); ++e) {
    filters.push_back(entries[e].make(bits_per_key));
    filters[e]->SetKeys(present);
    // Build once untimed to learn the size, then reserve and touch it, so
    // that timed builds measure the filter, not the string's growth.
    BuildAll(*filters[e], num_keys, keys_per_filter, &built[e]);
    const size_t size = built[e].bytes.size();
    built[e].bytes.assign(size + size / 8, '\0');
  }
  const size_t num_entries = entries.size();
  for (int r = 0; r < repeats; ++r) {
    for (BuiltFilters& out : built) ClearFilters(&out);
    // Slices of whole filters, about kKeysPerSlice keys' worth.
    const std::vector<double> totals =
        TimeInTurns(num_entries, num_filters, kKeysPerSlice / keys_per_filter,
                    r, [&](size_t e, size_t first_filter, size_t end_filter) {
                      BuildFilters(*filters[e], num_keys, keys_per_filter,
                                   first_filter, end_filter, &built[e]);
                    });
    for (size_t e = 0; e < num_entries; ++e) build_ns[e].push_back(totals[e]);
  }
  for (size_t e = 0; e < num_entries; ++e) {
    filters[e]->SetFilters(built[e].Views());
  }
  std::vector<size_t> present_matches(num_entries, 0);
  std::vector<size_t> absent_matches(num_entries, 0);
  auto time_probes = [&](const ProbeSet& probes,
                         const std::vector<std::string_view>& probe_keys,
                         int round, std::vector<size_t>* matches) {
    for (size_t e = 0; e < num_entries; ++e) {
      filters[e]->SetProbes(probe_keys);
      (*matches)[e] = 0;
    }
    return TimeInTurns(num_entries, probe_keys.size(), kKeysPerSlice, round,
                       [&](size_t e, size_t begin, size_t end) {
                         (*matches)[e] += filters[e]->CountMayMatch(
                             probes.filter_of_probe, begin, end);
                       });
  };
  // The dependent chain over the absent probes, as many as there are.
  std::vector<std::vector<double>> absent_dependent_ns(num_entries);
  auto time_dependent = [&](int round) {
    for (size_t e = 0; e < num_entries; ++e) {
      filters[e]->SetProbes(absent_probe_keys);
    }
    return TimeInTurns(num_entries, absent_probe_keys.size(), kKeysPerSlice,
                       round, [&](size_t e, size_t begin, size_t end) {
                         filters[e]->CountMayMatchDependent(
                             absent_probes.filter_of_probe, end - begin);
                       });
  };
  for (int r = 0; r < repeats; ++r) {
    const std::vector<double> dependent_totals = time_dependent(r);
    for (size_t e = 0; e < num_entries; ++e) {
      absent_dependent_ns[e].push_back(dependent_totals[e]);
    }
    const std::vector<double> present_totals =
        time_probes(present_probes, present_probe_keys, r, &present_matches);
    const std::vector<double> absent_totals =
        time_probes(absent_probes, absent_probe_keys, r, &absent_matches);
    for (size_t e = 0; e < num_entries; ++e) {
      present_ns[e].push_back(present_totals[e]);
      absent_ns[e].push_back(absent_totals[e]);
      false_negatives[e] = false_negatives[e] || present_matches[e] != num_keys;
    }
  }

  std::vector<nlohmann::json> rows;
  for (size_t e = 0; e < entries.size(); ++e) {
    bool same_bytes = true;
    for (size_t b = 0; b < entries.size(); ++b) {
      if (entries[b].name == entries[e].baseline &&
          entries[b].policy == entries[e].policy) {
        same_bytes = built[b].bytes == built[e].bytes;
      }
    }
    const double n = static_cast<double>(absent.size());
    const auto [absent_min, absent_max] =
        std::minmax_element(absent_ns[e].begin(), absent_ns[e].end());
    const auto [dependent_min, dependent_max] = std::minmax_element(
        absent_dependent_ns[e].begin(), absent_dependent_ns[e].end());
    rows.push_back({
        {"filter", entries[e].name},
        {"policy", entries[e].policy},
        {"baseline", entries[e].baseline},
        {"num_keys", num_keys},
        {"num_filters", num_filters},
        {"keys_per_filter", std::min(keys_per_filter, num_keys)},
        {"bits_per_key", bits_per_key},
        {"filter_bits_per_key", 8.0 * built[e].bytes.size() / num_keys},
        {"build_ns_per_key", Median(build_ns[e]) / num_keys},
        {"present_probe_ns", Median(present_ns[e]) / num_keys},
        {"absent_probe_ns", Median(absent_ns[e]) / n},
        {"absent_dependent_probe_ns", Median(absent_dependent_ns[e]) / n},
        {"absent_probe_ns_range", {*absent_min / n, *absent_max / n}},
        {"absent_dependent_probe_ns_range",
         {*dependent_min / n, *dependent_max / n}},
        {"fp_rate_random", absent_matches[e] / n},
        {"fp_rate_formula",
         filters[e]->ExpectedFalsePositiveRate(bits_per_key)},
        {"fp_rate_floor", std::exp2(-bits_per_key)},
        {"same_bytes_as_baseline", same_bytes},
        {"false_negatives", static_cast<bool>(false_negatives[e])},
    });

    // Near-miss keys: untimed, for the rate only.
    BuiltFilters near_built;
    filters[e]->SetKeys(near_present);
    BuildAll(*filters[e], near_present.size(), keys_per_filter, &near_built);
    filters[e]->SetFilters(near_built.Views());
    filters[e]->SetProbes(near_probes.keys.Views());
    rows.back()["fp_rate_near_miss"] =
        static_cast<double>(filters[e]->CountMayMatch(
            near_probes.filter_of_probe, 0, near_absent.size())) /
        near_absent.size();
  }
  return rows;
}

// The row of `row`'s baseline in the same case, or null.
const nlohmann::json* FindBaseline(const std::vector<nlohmann::json>& rows,
                                   const nlohmann::json& row) {
  for (const nlohmann::json& other : rows) {
    if (other["filter"] == row["baseline"] &&
        other["num_keys"] == row["num_keys"] &&
        other["num_filters"] == row["num_filters"] &&
        other["bits_per_key"] == row["bits_per_key"]) {
      return &other;
    }
  }
  return nullptr;
}

// Adds each row's speed ratios to its baseline's, and prints the rows.
void AddRatiosAndPrint(std::vector<nlohmann::json>* rows) {
  db_bench::TextTable table(
      {"filter", "layout", "bpk", "bits/key", "build ns/key", "present ns",
       "absent ns", "absent dep ns", "FP% random", "FP% near", "FP% formula",
       "FP% 2^-b", "build x/base", "present x/base", "absent x/base"},
      /*text_columns=*/1);
  for (nlohmann::json& row : *rows) {
    std::vector<std::string> ratios(3, "-");
    if (const nlohmann::json* base = FindBaseline(*rows, row)) {
      const char* fields[][2] = {
          {"build_ns_per_key", "build_ratio_to_baseline"},
          {"present_probe_ns", "present_ratio_to_baseline"},
          {"absent_probe_ns", "absent_ratio_to_baseline"}};
      for (int f = 0; f < 3; ++f) {
        const double ratio = row[fields[f][0]].get<double>() /
                             (*base)[fields[f][0]].get<double>();
        row[fields[f][1]] = ratio;
        ratios[f] = absl::StrFormat("%.2f", ratio);
      }
    }
    auto f = [&row](const char* field, int digits, double scale = 1) {
      return absl::StrFormat("%.*f", digits, scale * row[field].get<double>());
    };
    table.AddRow({row["filter"].get<std::string>() +
                      (row["same_bytes_as_baseline"] ? "" : " (BYTES DIFFER)") +
                      (row["false_negatives"] ? " (FALSE NEGATIVES)" : ""),
                  absl::StrFormat("%d x %d", row["num_filters"].get<size_t>(),
                                  row["keys_per_filter"].get<size_t>()),
                  absl::StrCat(row["bits_per_key"].get<int>()),
                  f("filter_bits_per_key", 2), f("build_ns_per_key", 1),
                  f("present_probe_ns", 1), f("absent_probe_ns", 1),
                  f("absent_dependent_probe_ns", 1),
                  f("fp_rate_random", 3, 100), f("fp_rate_near_miss", 3, 100),
                  f("fp_rate_formula", 3, 100), f("fp_rate_floor", 4, 100),
                  ratios[0], ratios[1], ratios[2]});
  }
  std::printf("%s", table.Render().c_str());
}

bool ParseCounts(const std::vector<std::string>& texts, const char* flag,
                 int64_t min_value, std::vector<int64_t>* values) {
  for (const std::string& text : texts) {
    int64_t value;
    if (!absl::SimpleAtoi(text, &value) || value < min_value) {
      std::fprintf(stderr, "filter_bench: bad --%s value '%s'\n", flag,
                   text.c_str());
      return false;
    }
    values->push_back(value);
  }
  return true;
}

int Run(const std::string& command_line) {
  std::vector<int64_t> bits_per_key_list, key_counts;
  if (!ParseCounts(absl::GetFlag(FLAGS_bits_per_key), "bits_per_key", 0,
                   &bits_per_key_list) ||
      !ParseCounts(absl::GetFlag(FLAGS_keys), "keys", 1, &key_counts)) {
    return 2;
  }
  // uint32_t filter indexes and the near-miss probes' filter indexes.
  for (int64_t count : key_counts) {
    if (count > (int64_t{1} << 31)) {
      std::fprintf(stderr, "filter_bench: --keys above 2^31\n");
      return 2;
    }
  }
  const int keys_per_filter = absl::GetFlag(FLAGS_keys_per_filter);
  const int repeats = absl::GetFlag(FLAGS_repeats);
  if (keys_per_filter < 1 || repeats < 1) {
    std::fprintf(stderr,
                 "filter_bench: --keys_per_filter and --repeats >= 1\n");
    return 2;
  }
  std::vector<BenchFilterEntry> entries = BenchFilterRegistry();
  const std::vector<std::string> wanted = absl::GetFlag(FLAGS_filters);
  if (!wanted.empty()) {
    std::vector<BenchFilterEntry> chosen;
    for (const std::string& name : wanted) {
      auto it = std::find_if(entries.begin(), entries.end(),
                             [&](const auto& e) { return e.name == name; });
      if (it == entries.end()) {
        std::vector<std::string> names;
        for (const auto& e : entries) names.push_back(e.name);
        std::fprintf(stderr, "filter_bench: unknown filter '%s' (known: %s)\n",
                     name.c_str(), absl::StrJoin(names, ", ").c_str());
        return 2;
      }
      chosen.push_back(*it);
    }
    entries = chosen;
  }

  std::vector<nlohmann::json> rows;
  for (int64_t count : key_counts) {
    const size_t num_keys = static_cast<size_t>(count);
    std::mt19937_64 rng(absl::GetFlag(FLAGS_seed) + num_keys);
    const KeySet present_keys = RandomKeys(num_keys, rng);
    const KeySet absent_keys = RandomKeys(num_keys, rng);
    const KeySet near_present_keys = NearMissKeys(num_keys, 0);
    const KeySet near_absent_keys = NearMissKeys(num_keys, 1);
    const std::vector<std::string_view> present = present_keys.Views();
    const std::vector<std::string_view> absent = absent_keys.Views();
    const std::vector<std::string_view> near_present =
        near_present_keys.Views();
    const std::vector<std::string_view> near_absent = near_absent_keys.Views();
    // One filter over all keys, then (if smaller) filters of keys_per_filter.
    std::vector<size_t> layouts = {num_keys};
    if (static_cast<size_t>(keys_per_filter) < num_keys) {
      layouts.push_back(keys_per_filter);
    }
    for (size_t per_filter : layouts) {
      const ProbeSet present_probes =
          ProbesOfOwnFilters(present, kRandomKeyLength, per_filter, rng);
      for (int64_t bits_per_key : bits_per_key_list) {
        std::vector<nlohmann::json> case_rows =
            MeasureCase(entries, num_keys, per_filter,
                        static_cast<int>(bits_per_key), repeats, present,
                        present_probes, absent, near_present, near_absent, rng);
        rows.insert(rows.end(), case_rows.begin(), case_rows.end());
      }
    }
  }

  std::printf(
      "filter_bench: medians of %d runs of thread CPU time; ns per key built "
      "or probed; FP%% on absent random 16-byte keys and on near-miss decimal "
      "keys; x/base = this row's time over its baseline row's.\n\n",
      repeats);
  AddRatiosAndPrint(&rows);
  std::printf("\n");
  for (const BenchFilterEntry& entry : entries) {
    std::string legend = entry.name + ": " + entry.policy;
    if (!entry.description.empty()) legend += ", " + entry.description;
    if (!entry.baseline.empty()) legend += "; baseline " + entry.baseline;
    std::printf("%s\n", legend.c_str());
  }

  const std::string json_path = absl::GetFlag(FLAGS_json);
  if (!json_path.empty()) {
    nlohmann::json report = {{"repeats", repeats}, {"results", rows}};
    report["command_line"] = command_line;
    report["machine"] = db_bench::MachineJson();
    report["peers"] = db_bench::PeersJson();
    const absl::Status status = db_bench::WriteJson(report, json_path);
    if (!status.ok()) {
      std::fprintf(stderr, "filter_bench: %s\n", status.ToString().c_str());
      return 4;
    }
  }
  for (const nlohmann::json& row : rows) {
    if (row["false_negatives"] || !row["same_bytes_as_baseline"]) return 1;
  }
  return 0;
}

}  // namespace
}  // namespace bloomtable

int main(int argc, char** argv) {
  absl::SetProgramUsageMessage(
      "Measures filter policies: build and probe speed, false-positive rates. "
      "Example: filter_bench --keys=100000,1000000 --bits_per_key=10");
  absl::ParseCommandLine(argc, argv);
  return bloomtable::Run(bloomtable::db_bench::CommandLine(argc, argv));
}
