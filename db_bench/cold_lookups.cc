#include "db_bench/cold_lookups.h"

#include <algorithm>
#include <chrono>
#include <string_view>

#include "absl/strings/str_cat.h"
#include "db_bench/random.h"

namespace bloomtable {
namespace db_bench {

std::vector<std::string> ColdStream(const KeyGenerator& keys, bool present,
                                    uint64_t count, uint64_t seed) {
  std::vector<std::string> out(count, std::string(keys.key_size(), '0'));
  Random64 random(seed);
  const std::vector<uint64_t> absent =
      present ? std::vector<uint64_t>() : keys.DistinctEntries(0, count, seed);
  for (uint64_t k = 0; k < count; ++k) {
    if (present) {
      keys.PresentKey(random.Uniform(keys.num()), out[k].data());
    } else {
      keys.NearMissKey(absent[k], out[k].data());
    }
  }
  return out;
}

uint64_t ColdStreamSeed(int run, bool present, int64_t batch) {
  // Distinct for every (run, workload, batch) that cold_bench accepts
  // (batches up to 4096).
  return 301 + (static_cast<uint64_t>(run) << 20) +
         (static_cast<uint64_t>(present) << 16) + static_cast<uint64_t>(batch);
}

std::vector<int64_t> BatchesToTime(
    bool get, bool multiget, const std::vector<int64_t>& multiget_batches) {
  std::vector<int64_t> batches;
  if (get) batches.push_back(0);
  if (multiget) {
    batches.insert(batches.end(), multiget_batches.begin(),
                   multiget_batches.end());
  }
  return batches;
}

absl::StatusOr<LookupFigures> MeasureLookups(
    const Engine& engine, const std::vector<std::string>& keys, bool present,
    int64_t batch, bool warm_up, int passes) {
  const std::vector<std::string_view> views(keys.begin(), keys.end());
  const size_t step = static_cast<size_t>(std::max<int64_t>(batch, 1));
  const std::unique_ptr<EngineReader> reader = engine.NewReader();
  std::vector<std::string_view> chunk;
  std::vector<absl::Status> statuses;
  std::vector<std::string> values;
  std::string value;
  auto pass = [&]() -> absl::StatusOr<uint64_t> {
    uint64_t found = 0;
    for (size_t i = 0; i < views.size(); i += step) {
      const size_t n = std::min(step, views.size() - i);
      if (batch == 0) {
        statuses.assign(1, reader->Get(views[i], &value));
      } else {
        chunk.assign(views.begin() + i, views.begin() + i + n);
        engine.MultiGet(chunk, &statuses, &values);
      }
      for (const absl::Status& status : statuses) {
        if (status.ok()) {
          ++found;
        } else if (!absl::IsNotFound(status)) {
          return status;
        }
      }
    }
    return found;
  };
  if (warm_up) {
    absl::StatusOr<uint64_t> found = pass();
    if (!found.ok()) return found.status();
  }
  passes = std::max(passes, 1);
  const uint64_t reads_before = engine.Counters().file_reads;
  const auto start = std::chrono::steady_clock::now();
  for (int p = 0; p < passes; ++p) {
    absl::StatusOr<uint64_t> found = pass();
    if (!found.ok()) return found.status();
    if (*found != (present ? views.size() : 0)) {
      return absl::InternalError(
          absl::StrCat(engine.name(), " found ", *found, " of ", views.size(),
                       present ? " stored" : " absent", " keys"));
    }
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  const double n = static_cast<double>(views.size()) * passes;
  return LookupFigures{
      seconds * 1e6 / n,
      static_cast<double>(engine.Counters().file_reads - reads_before) / n};
}

}  // namespace db_bench
}  // namespace bloomtable
