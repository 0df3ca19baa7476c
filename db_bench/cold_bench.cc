// cold_bench: lookups that reach the device, beside the device's own rate
// measured on the same file in the same run.
//
//   build/release/db_bench/cold_bench --dir=/path/on/ssd --num=1000000
//
// Writes (or reuses, --use_existing) one bloomtable table of --num keys
// (db_bench's zero-padded numbers; even numbers stored, odd ones absent)
// with a whole-table cache-local Bloom filter, then, --runs times each:
//
//   raw        4 KiB reads at random 4 KiB-aligned offsets of the table
//              file with O_DIRECT, through RandomAccessFile::MultiRead
//              (io_uring) in calls of D reads for each --depths D: the
//              device's rate at that queue depth (each call waits for its
//              slowest read before the next one starts, so the queue drains
//              between calls);
//   readrandom, readmissing
//              stored and absent keys through Table::Get one at a time, and
//              through Table::MultiGet in batches of each --batches B; the
//              table is opened with O_DIRECT and io_uring, without a block
//              cache, so every data block comes from the device.
//
// Every figure is the median of the runs, with its range. Device reads per
// key come from a counting file wrapper. One JSON document (--json, or
// standard output) also names the machine, the kernel and the device that
// holds --dir. Timing is wall-clock on one thread: run it on an idle
// machine.

#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "bloomtable/file.h"
#include "bloomtable/filter_policy.h"
#include "bloomtable/options.h"
#include "bloomtable/table.h"
#include "bloomtable/table_builder.h"
#include "db_bench/machine.h"
#include "nlohmann/json.hpp"

ABSL_FLAG(std::string, dir, "/tmp",
          "directory for the table file; its file system must support "
          "O_DIRECT");
ABSL_FLAG(int64_t, num, 1000000, "keys stored in the table");
ABSL_FLAG(int64_t, value_size, 100, "bytes per value");
ABSL_FLAG(int64_t, block_size, 4096, "data block size");
ABSL_FLAG(double, bits_per_key, 10, "filter bits per key");
ABSL_FLAG(bool, use_existing, false,
          "reuse the table file of an earlier run with the same --num");
ABSL_FLAG(int64_t, reads, 20000, "lookups (and raw reads) per measurement");
ABSL_FLAG(std::string, depths, "1,8,32,128", "queue depths of the raw reads");
ABSL_FLAG(std::string, batches, "1,8,32,128", "MultiGet batch sizes");
ABSL_FLAG(int32_t, runs, 3, "runs of each measurement; the median is kept");
ABSL_FLAG(std::string, json, "", "write the report here (default: stdout)");

namespace bloomtable {
namespace db_bench {
namespace {

using Clock = std::chrono::steady_clock;

std::string KeyOf(uint64_t i) {
  char key[32];
  std::snprintf(key, sizeof(key), "%016llu",
                static_cast<unsigned long long>(i));
  return key;
}

std::vector<int64_t> ParseList(const std::string& text) {
  std::vector<int64_t> values;
  for (absl::string_view item : absl::StrSplit(text, ',', absl::SkipEmpty())) {
    int64_t value = 0;
    if (!absl::SimpleAtoi(item, &value) || value < 1 || value > 4096) {
      std::fprintf(stderr, "cold_bench: bad list item '%.*s'\n",
                   static_cast<int>(item.size()), item.data());
      std::exit(2);
    }
    values.push_back(value);
  }
  return values;
}

void Check(const absl::Status& status) {
  if (!status.ok()) {
    std::fprintf(stderr, "cold_bench: %s\n", status.ToString().c_str());
    std::exit(1);
  }
}

// Writes the table: keys 0, 2, 4, ... (2 * num - 2).
void WriteTable(const std::string& path, int64_t num) {
  Options options;
  options.block_size = static_cast<size_t>(absl::GetFlag(FLAGS_block_size));
  options.filter_layout = FilterLayout::kWholeTable;
  options.filter_policy =
      NewCacheLocalBloomFilterPolicy(absl::GetFlag(FLAGS_bits_per_key));
  auto file = NewWritableFile(path);
  Check(file.status());
  TableBuilder builder(options, file->get());
  const std::string value(static_cast<size_t>(absl::GetFlag(FLAGS_value_size)),
                          'v');
  for (int64_t i = 0; i < num; ++i) {
    Check(builder.Add(KeyOf(2 * static_cast<uint64_t>(i)), value));
  }
  Check(builder.Finish());
  Check((*file)->Sync());
  Check((*file)->Close());
}

// The device that holds `path`, as /sys/dev/block names it.
std::string DeviceOf(const std::string& path) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) return "";
  const std::string link = "/sys/dev/block/" +
                           std::to_string(major(st.st_dev)) + ":" +
                           std::to_string(minor(st.st_dev));
  char target[512];
  const ssize_t n = ::readlink(link.c_str(), target, sizeof(target) - 1);
  if (n <= 0) return link;
  return std::string(target, static_cast<size_t>(n));
}

// The median, min and max of `values`.
nlohmann::json Summary(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return {{"median", values[values.size() / 2]},
          {"min", values.front()},
          {"max", values.back()}};
}

// Raw 4 KiB direct reads at queue depth `depth`: reads per second.
double RawReadsPerSecond(const std::string& path, uint64_t file_size,
                         int64_t depth, int64_t reads, std::mt19937_64* rng) {
  RandomAccessFileOptions options;
  options.use_direct_io = true;
  options.io_uring_queue_depth = static_cast<uint32_t>(depth);
  auto file = OpenRandomAccessFileWithOptions(path, options);
  Check(file.status());
  const uint64_t pages = std::max<uint64_t>(file_size / kDirectIOAlignment, 1);
  std::vector<std::string> scratch(static_cast<size_t>(depth),
                                   std::string(kDirectIOAlignment, '\0'));
  std::vector<ReadRequest> requests(static_cast<size_t>(depth));
  const Clock::time_point start = Clock::now();
  int64_t done = 0;
  while (done < reads) {
    for (size_t i = 0; i < requests.size(); ++i) {
      requests[i].offset = ((*rng)() % pages) * kDirectIOAlignment;
      requests[i].n = kDirectIOAlignment;
      requests[i].scratch = scratch[i].data();
    }
    (*file)->MultiRead(requests.data(), requests.size());
    for (const ReadRequest& request : requests) Check(request.status);
    done += depth;
  }
  const double seconds =
      std::chrono::duration<double>(Clock::now() - start).count();
  return static_cast<double>(done) / seconds;
}

struct LookupFigures {
  double micros_per_key = 0;
  double device_reads_per_key = 0;
};

// `reads` lookups of stored (or absent) keys, one Get each (batch 0) or in
// MultiGet batches of `batch`, on a table opened cold.
LookupFigures Lookups(const std::string& path, uint64_t file_size, int64_t num,
                      bool present, int64_t batch, int64_t reads,
                      std::mt19937_64* rng) {
  RandomAccessFileOptions file_options;
  file_options.use_direct_io = true;
  file_options.io_uring_queue_depth =
      static_cast<uint32_t>(std::max<int64_t>(batch, 1));
  auto base = OpenRandomAccessFileWithOptions(path, file_options);
  Check(base.status());
  auto counters = std::make_shared<FileReadCounters>();
  Options options;
  options.filter_policy =
      NewCacheLocalBloomFilterPolicy(absl::GetFlag(FLAGS_bits_per_key));
  auto table = Table::Open(
      options, NewCountingRandomAccessFile(*std::move(base), counters),
      file_size);
  Check(table.status());
  const uint64_t reads_at_open = counters->reads.load();
  std::vector<std::string> keys(
      static_cast<size_t>(std::max<int64_t>(batch, 1)));
  std::vector<std::string_view> views(keys.size());
  uint64_t found = 0;
  const Clock::time_point start = Clock::now();
  for (int64_t done = 0; done < reads;) {
    for (size_t i = 0; i < keys.size(); ++i) {
      const uint64_t n = (*rng)() % static_cast<uint64_t>(num);
      keys[i] = KeyOf(2 * n + (present ? 0 : 1));
      views[i] = keys[i];
    }
    if (batch == 0) {
      found += (*table)->Get(ReadOptions(), views[0]).ok() ? 1 : 0;
    } else {
      for (const auto& result : (*table)->MultiGet(ReadOptions(), views)) {
        found += result.ok() ? 1 : 0;
      }
    }
    done += static_cast<int64_t>(keys.size());
  }
  const double seconds =
      std::chrono::duration<double>(Clock::now() - start).count();
  const uint64_t expected_found = present ? static_cast<uint64_t>(reads) : 0;
  if (found < expected_found && present) {
    std::fprintf(stderr, "cold_bench: %llu of %lld stored keys found\n",
                 static_cast<unsigned long long>(found),
                 static_cast<long long>(reads));
    std::exit(1);
  }
  LookupFigures figures;
  const double keys_done = static_cast<double>(
      (reads + static_cast<int64_t>(keys.size()) - 1) /
      static_cast<int64_t>(keys.size()) * static_cast<int64_t>(keys.size()));
  figures.micros_per_key = seconds * 1e6 / keys_done;
  figures.device_reads_per_key =
      static_cast<double>(counters->reads.load() - reads_at_open) / keys_done;
  return figures;
}

int Run() {
  const int64_t num = absl::GetFlag(FLAGS_num);
  const int64_t reads = absl::GetFlag(FLAGS_reads);
  const int runs = std::max(absl::GetFlag(FLAGS_runs), 1);
  if (num < 1 || reads < 1) {
    std::fprintf(stderr, "cold_bench: --num and --reads must be positive\n");
    return 2;
  }
  const std::string path =
      absl::GetFlag(FLAGS_dir) + "/cold_bench_" + std::to_string(num) + ".ldb";
  if (!absl::GetFlag(FLAGS_use_existing) || !GetFileSize(path).ok()) {
    WriteTable(path, num);
  }
  auto file_size = GetFileSize(path);
  Check(file_size.status());
  std::mt19937_64 rng(301);

  nlohmann::json raw = nlohmann::json::array();
  for (int64_t depth : ParseList(absl::GetFlag(FLAGS_depths))) {
    std::vector<double> rates;
    for (int r = 0; r < runs; ++r) {
      rates.push_back(RawReadsPerSecond(path, *file_size, depth, reads, &rng));
    }
    raw.push_back(
        {{"queue_depth", depth}, {"reads_per_second", Summary(rates)}});
  }

  nlohmann::json lookups = nlohmann::json::array();
  std::vector<int64_t> batches = {0};  // 0: Get one key at a time
  for (int64_t b : ParseList(absl::GetFlag(FLAGS_batches)))
    batches.push_back(b);
  for (const bool present : {true, false}) {
    for (int64_t batch : batches) {
      std::vector<double> micros, device_reads;
      for (int r = 0; r < runs; ++r) {
        const LookupFigures f =
            Lookups(path, *file_size, num, present, batch, reads, &rng);
        micros.push_back(f.micros_per_key);
        device_reads.push_back(f.device_reads_per_key);
      }
      lookups.push_back({{"benchmark", present ? "readrandom" : "readmissing"},
                         {"api", batch == 0 ? "Get" : "MultiGet"},
                         {"batch", std::max<int64_t>(batch, 1)},
                         {"micros_per_key", Summary(micros)},
                         {"device_reads_per_key", Summary(device_reads)}});
    }
  }

  const nlohmann::json report = {
      {"program", "cold_bench"},
      {"machine", MachineJson()},
      {"device", DeviceOf(path)},
      {"io",
       "O_DIRECT, io_uring (RandomAccessFile::MultiRead), no block cache"},
      {"num", num},
      {"reads", reads},
      {"runs", runs},
      {"file_bytes", *file_size},
      {"raw_4k_direct_reads", raw},
      {"lookups", lookups}};
  const std::string json_path = absl::GetFlag(FLAGS_json);
  if (json_path.empty()) {
    std::cout << report.dump(2) << "\n";
  } else {
    std::ofstream(json_path) << report.dump(2) << "\n";
  }
  return 0;
}

}  // namespace
}  // namespace db_bench
}  // namespace bloomtable

int main(int argc, char** argv) {
  absl::SetProgramUsageMessage(
      "Cold lookups (O_DIRECT, io_uring) beside the device's raw 4 KiB read "
      "rate from the same run");
  absl::ParseCommandLine(argc, argv);
  return bloomtable::db_bench::Run();
}
