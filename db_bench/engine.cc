#include "db_bench/engine.h"

#include <algorithm>

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

std::vector<uint64_t> SortedEntries(absl::Span<const uint64_t> order) {
  std::vector<uint64_t> sorted(order.begin(), order.end());
  if (!std::is_sorted(sorted.begin(), sorted.end())) {
    std::sort(sorted.begin(), sorted.end());
  }
  sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
  return sorted;
}

namespace {

class ForwardingReader final : public EngineReader {
 public:
  explicit ForwardingReader(const Engine* engine) : engine_(engine) {}
  absl::Status Get(std::string_view key, std::string* value) override {
    return engine_->Get(key, value);
  }

 private:
  const Engine* const engine_;
};

}  // namespace

std::unique_ptr<EngineReader> Engine::NewReader() const {
  return std::make_unique<ForwardingReader>(this);
}

void Engine::MultiGet(const std::vector<std::string_view>& keys,
                      std::vector<absl::Status>* statuses,
                      std::vector<std::string>* values) const {
  statuses->resize(keys.size());
  values->resize(keys.size());
  const std::unique_ptr<EngineReader> reader = NewReader();
  for (size_t i = 0; i < keys.size(); ++i) {
    (*statuses)[i] = reader->Get(keys[i], &(*values)[i]);
  }
}

std::unique_ptr<Engine> NewEngine(const std::string& name,
                                  const EngineOptions& options) {
  if (name == "bloomtable" || name == "bloomtable_single") {
    return NewBloomtableEngine(options);
  }
#ifdef BLOOMTABLE_DB_BENCH_WITH_LEVELDB
  if (name == "leveldb" || name == "leveldb+bloomtable") {
    return NewLevelDBEngine(options);
  }
  if (name == "leveldb_table") return NewLevelDBTableEngine(options);
#endif
#ifdef BLOOMTABLE_DB_BENCH_WITH_ROCKSDB
  if (name == "rocksdb") return NewRocksDBEngine(options);
  if (name == "rocksdb_table") return NewRocksDBTableEngine(options);
#endif
  return nullptr;
}

}  // namespace db_bench
}  // namespace bloomtable
