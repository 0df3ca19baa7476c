#include "db_bench/engine.h"

namespace bloomtable {
namespace db_bench {

EngineCounters EngineCounters::operator-(const EngineCounters& earlier) const {
  EngineCounters delta = *this;
  delta.file_reads -= earlier.file_reads;
  delta.file_bytes_read -= earlier.file_bytes_read;
  delta.filter_checks -= earlier.filter_checks;
  delta.filter_negatives -= earlier.filter_negatives;
  if (filter_true_positives && earlier.filter_true_positives) {
    delta.filter_true_positives =
        *filter_true_positives - *earlier.filter_true_positives;
  }
  delta.block_cache_hits -= earlier.block_cache_hits;
  delta.block_cache_misses -= earlier.block_cache_misses;
  return delta;
}

void Engine::MultiGet(const std::vector<std::string_view>& keys,
                      std::vector<absl::Status>* statuses,
                      std::vector<std::string>* values) const {
  statuses->resize(keys.size());
  values->resize(keys.size());
  for (size_t i = 0; i < keys.size(); ++i) {
    (*statuses)[i] = Get(keys[i], &(*values)[i]);
  }
}

}  // namespace db_bench
}  // namespace bloomtable
