// What machine db_bench runs on and how busy it is, for the JSON report:
// the CPU model and count, kernel and memory (MachineJson), and snapshots of
// the load average and of /proc/stat's CPU time taken around each run
// (CpuSnapshot), from which ForeignLoad says how much of the machine other
// processes and the hypervisor (steal time) took while the run went on.
//
// Linux only in substance: elsewhere the figures are absent (null in JSON)
// and a run is never rejected for them.

#ifndef BLOOMTABLE_DB_BENCH_MACHINE_H_
#define BLOOMTABLE_DB_BENCH_MACHINE_H_

#include <array>
#include <chrono>
#include <optional>
#include <string>

#include "absl/status/status.h"
#include "nlohmann/json.hpp"

namespace bloomtable {
namespace db_bench {

// "2 * AMD EPYC ..." from /proc/cpuinfo, as LevelDB's db_bench prints it.
std::string CpuDescription();

// {cpu, cpus, kernel, memory_bytes, hostname}.
nlohmann::json MachineJson();

struct CpuSnapshot {
  std::chrono::steady_clock::time_point wall;
  // /proc/loadavg: 1, 5 and 15 minutes.
  std::optional<std::array<double, 3>> load_average;
  // /proc/stat's first line in seconds: busy = user + nice + system + irq +
  // softirq (guest time is inside user), steal, and all of them with idle
  // and iowait.
  std::optional<double> busy_seconds;
  std::optional<double> steal_seconds;
  std::optional<double> total_seconds;
  // This process's user + system CPU time, all threads.
  double self_seconds = 0;
};

CpuSnapshot TakeCpuSnapshot();

struct ForeignLoad {
  // CPUs that other processes kept busy plus CPU time stolen by the
  // hypervisor, averaged over the interval (1.0 = one whole CPU).
  std::optional<double> cpus;
  // Steal time over all CPU time in the interval.
  std::optional<double> steal_fraction;
};

ForeignLoad ForeignLoadBetween(const CpuSnapshot& start,
                               const CpuSnapshot& end);

// True if `load` is over `max_foreign_cpus` (never when that is negative or
// the load is unknown).
bool TooBusy(const ForeignLoad& load, double max_foreign_cpus);

nlohmann::json SnapshotJson(const CpuSnapshot& snapshot);

// The program's arguments joined by spaces, for the JSON report.
std::string CommandLine(int argc, char** argv);

// Writes `json`, indented, to `path`, or to standard output if it is empty.
absl::Status WriteJson(const nlohmann::json& json, const std::string& path);

}  // namespace db_bench
}  // namespace bloomtable

#endif  // BLOOMTABLE_DB_BENCH_MACHINE_H_
