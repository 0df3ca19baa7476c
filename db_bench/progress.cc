#include "db_bench/progress.h"

#include <cstdio>
#include <utility>

#include "absl/strings/str_format.h"

namespace bloomtable {
namespace db_bench {
namespace {

// Often enough to show that a phase is alive, rarely enough not to flood a
// log: the cadence of LevelDB's and RocksDB's db_bench progress lines.
constexpr std::chrono::seconds kReportInterval(1);

std::string HumanRate(double ops_per_second) {
  if (ops_per_second >= 1e6)
    return absl::StrFormat("%.2fM", ops_per_second / 1e6);
  if (ops_per_second >= 1e3)
    return absl::StrFormat("%.1fK", ops_per_second / 1e3);
  return absl::StrFormat("%.0f", ops_per_second);
}

}  // namespace

Progress::Progress(std::string label, uint64_t total)
    : label_(std::move(label)),
      total_(total),
      start_(std::chrono::steady_clock::now()),
      reporter_([this] { Run(); }) {}

Progress::~Progress() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  stop_signal_.notify_all();
  reporter_.join();
}

void Progress::SetPhase(std::string phase) {
  std::lock_guard<std::mutex> lock(mutex_);
  phase_ = std::move(phase);
  phase_start_ = std::chrono::steady_clock::now();
}

void Progress::Run() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (
      !stop_signal_.wait_for(lock, kReportInterval, [this] { return stop_; })) {
    const auto now = std::chrono::steady_clock::now();
    std::string line;
    if (!phase_.empty()) {
      const double seconds =
          std::chrono::duration<double>(now - phase_start_).count();
      line = absl::StrFormat("%s: %s, %.1f s", label_, phase_, seconds);
    } else {
      const uint64_t done = done_.load(std::memory_order_relaxed);
      const double seconds =
          std::chrono::duration<double>(now - start_).count();
      const std::string rate = HumanRate(done / seconds);
      line = total_ > 0
                 ? absl::StrFormat("%s: %d/%d (%s ops/s)", label_, done, total_,
                                   rate)
                 : absl::StrFormat("%s: %d (%s ops/s)", label_, done, rate);
    }
    std::fprintf(stderr, "%s\n", line.c_str());
    std::fflush(stderr);
  }
}

}  // namespace db_bench
}  // namespace bloomtable
