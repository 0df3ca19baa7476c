#include "db_bench/machine.h"

#include <sys/resource.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"

namespace bloomtable {
namespace db_bench {
namespace {

double TimevalSeconds(const timeval& t) { return t.tv_sec + t.tv_usec * 1e-6; }

nlohmann::json OptionalJson(const std::optional<double>& value) {
  return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}

}  // namespace

std::string CpuDescription() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  std::string model;
  int cpus = 0;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) == 0) {
      ++cpus;
      const size_t colon = line.find(':');
      if (colon != std::string::npos) model = line.substr(colon + 2);
    }
  }
  if (cpus == 0) {
    return absl::StrCat(std::thread::hardware_concurrency(), " CPUs");
  }
  return absl::StrCat(cpus, " * ", model);
}

nlohmann::json MachineJson() {
  nlohmann::json machine;
  machine["cpu"] = CpuDescription();
  machine["cpus"] = std::thread::hardware_concurrency();
  utsname names;
  if (::uname(&names) == 0) {
    machine["kernel"] = absl::StrCat(names.sysname, " ", names.release);
    machine["hostname"] = names.nodename;
  }
  const long pages = ::sysconf(_SC_PHYS_PAGES);
  const long page_size = ::sysconf(_SC_PAGESIZE);
  if (pages > 0 && page_size > 0) {
    machine["memory_bytes"] = static_cast<uint64_t>(pages) * page_size;
  }
  return machine;
}

CpuSnapshot TakeCpuSnapshot() {
  CpuSnapshot snapshot;
  snapshot.wall = std::chrono::steady_clock::now();
  std::ifstream loadavg("/proc/loadavg");
  std::array<double, 3> load;
  if (loadavg >> load[0] >> load[1] >> load[2]) snapshot.load_average = load;
  std::ifstream stat("/proc/stat");
  std::string line;
  const long ticks_per_second = ::sysconf(_SC_CLK_TCK);
  if (std::getline(stat, line) && line.rfind("cpu ", 0) == 0 &&
      ticks_per_second > 0) {
    // cpu user nice system idle iowait irq softirq steal guest guest_nice
    std::istringstream fields(line.substr(4));
    std::vector<double> ticks;
    double value = 0;
    while (fields >> value) ticks.push_back(value);
    if (ticks.size() >= 8) {
      const double hz = static_cast<double>(ticks_per_second);
      snapshot.busy_seconds =
          (ticks[0] + ticks[1] + ticks[2] + ticks[5] + ticks[6]) / hz;
      snapshot.steal_seconds = ticks[7] / hz;
      double total = 0;
      for (size_t i = 0; i < 8; ++i) total += ticks[i];
      snapshot.total_seconds = total / hz;
    }
  }
  rusage usage;
  if (::getrusage(RUSAGE_SELF, &usage) == 0) {
    snapshot.self_seconds =
        TimevalSeconds(usage.ru_utime) + TimevalSeconds(usage.ru_stime);
  }
  return snapshot;
}

ForeignLoad ForeignLoadBetween(const CpuSnapshot& start,
                               const CpuSnapshot& end) {
  ForeignLoad load;
  const double wall =
      std::chrono::duration<double>(end.wall - start.wall).count();
  if (!start.busy_seconds || !end.busy_seconds || wall <= 0) return load;
  const double busy = *end.busy_seconds - *start.busy_seconds;
  const double steal = *end.steal_seconds - *start.steal_seconds;
  const double self = end.self_seconds - start.self_seconds;
  load.cpus = std::max(0.0, (busy + steal - self) / wall);
  const double total = *end.total_seconds - *start.total_seconds;
  if (total > 0) load.steal_fraction = std::max(0.0, steal / total);
  return load;
}

bool TooBusy(const ForeignLoad& load, double max_foreign_cpus) {
  return max_foreign_cpus >= 0 && load.cpus && *load.cpus > max_foreign_cpus;
}

nlohmann::json SnapshotJson(const CpuSnapshot& snapshot) {
  nlohmann::json json;
  json["load_average"] = snapshot.load_average
                             ? nlohmann::json(*snapshot.load_average)
                             : nlohmann::json(nullptr);
  json["cpu_busy_seconds"] = OptionalJson(snapshot.busy_seconds);
  json["cpu_steal_seconds"] = OptionalJson(snapshot.steal_seconds);
  json["cpu_total_seconds"] = OptionalJson(snapshot.total_seconds);
  json["self_cpu_seconds"] = snapshot.self_seconds;
  return json;
}

std::string CommandLine(int argc, char** argv) {
  std::string line;
  for (int i = 0; i < argc; ++i)
    absl::StrAppend(&line, i > 0 ? " " : "", argv[i]);
  return line;
}

absl::Status WriteJson(const nlohmann::json& json, const std::string& path) {
  if (path.empty()) {
    std::printf("%s\n", json.dump(2).c_str());
    return absl::OkStatus();
  }
  std::ofstream out(path);
  out << json.dump(2) << "\n";
  out.close();
  if (!out) return absl::InternalError(absl::StrCat("could not write ", path));
  return absl::OkStatus();
}

}  // namespace db_bench
}  // namespace bloomtable
