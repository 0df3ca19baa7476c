#include "db_bench/leveldb_env.h"

#include <utility>

#include "bloomtable/file.h"
#include "bloomtable/leveldb_filter_adapter.h"
#include "db_bench/engine.h"

namespace bloomtable {
namespace db_bench {
namespace {

// bloomtable's pread file behind LevelDB's interface.
class PreadFile final : public leveldb::RandomAccessFile {
 public:
  explicit PreadFile(std::unique_ptr<bloomtable::RandomAccessFile> base)
      : base_(std::move(base)) {}

  leveldb::Status Read(uint64_t offset, size_t n, leveldb::Slice* result,
                       char* scratch) const override {
    std::string_view got;
    const absl::Status status = base_->Read(offset, n, &got, scratch);
    *result = leveldb::Slice(got.data(), got.size());
    if (status.ok()) return leveldb::Status::OK();
    return leveldb::Status::IOError(base_->name(),
                                    std::string(status.message()));
  }

 private:
  const std::unique_ptr<bloomtable::RandomAccessFile> base_;
};

class CountingFile final : public leveldb::RandomAccessFile {
 public:
  CountingFile(std::unique_ptr<leveldb::RandomAccessFile> base, IoModel* io)
      : base_(std::move(base)), io_(io) {}

  leveldb::Status Read(uint64_t offset, size_t n, leveldb::Slice* result,
                       char* scratch) const override {
    io_->BeforeRead();
    leveldb::Status status = base_->Read(offset, n, result, scratch);
    io_->AfterRead(result->size());
    return status;
  }

 private:
  const std::unique_ptr<leveldb::RandomAccessFile> base_;
  IoModel* const io_;
};

}  // namespace

leveldb::Status OpenLevelDBTableFile(const std::string& path, bool mmap,
                                     IoModel* io,
                                     leveldb::RandomAccessFile** result) {
  *result = nullptr;
  std::unique_ptr<leveldb::RandomAccessFile> base;
  if (mmap) {
    leveldb::RandomAccessFile* file = nullptr;
    leveldb::Status status =
        leveldb::Env::Default()->NewRandomAccessFile(path, &file);
    if (!status.ok()) return status;
    base.reset(file);
  } else {
    absl::StatusOr<std::unique_ptr<bloomtable::RandomAccessFile>> file =
        OpenRandomAccessFile(path);
    if (!file.ok()) {
      const std::string message(file.status().message());
      return absl::IsNotFound(file.status())
                 ? leveldb::Status::NotFound(path, message)
                 : leveldb::Status::IOError(path, message);
    }
    base = std::make_unique<PreadFile>(*std::move(file));
  }
  *result = new CountingFile(std::move(base), io);
  return leveldb::Status::OK();
}

bool CountingFilterPolicy::KeyMayMatch(const leveldb::Slice& key,
                                       const leveldb::Slice& filter) const {
  const bool may_match = base_->KeyMayMatch(key, filter);
  checks_.Add(1);
  if (!may_match) negatives_.Add(1);
  return may_match;
}

leveldb::Cache::Handle* CountingCache::Lookup(const leveldb::Slice& key) {
  Handle* handle = base_->Lookup(key);
  (handle != nullptr ? hits_ : misses_).Add(1);
  return handle;
}

EngineCounters LevelDBCounters(const IoModel& io,
                               const CountingFilterPolicy* filter,
                               const CountingCache& cache) {
  EngineCounters counters;
  counters.file_reads = io.reads();
  counters.file_bytes_read = io.bytes();
  if (filter != nullptr) {
    counters.has_filter_counters = true;
    counters.filter_checks = filter->checks();
    counters.filter_negatives = filter->negatives();
  }
  counters.has_block_cache_counters = true;
  counters.block_cache_hits = cache.hits();
  counters.block_cache_misses = cache.misses();
  return counters;
}

std::unique_ptr<CountingFilterPolicy> NewCountingFilterPolicy(
    const EngineOptions& options, absl::Status* status) {
  if (options.leveldb_adapted_policy != nullptr) {
    absl::StatusOr<std::unique_ptr<leveldb::FilterPolicy>> adapter =
        NewLevelDBFilterPolicyAdapter(options.leveldb_adapted_policy);
    if (!adapter.ok()) {
      *status = adapter.status();
      return nullptr;
    }
    return std::make_unique<CountingFilterPolicy>(*std::move(adapter));
  }
  if (options.bloom_bits <= 0) return nullptr;
  return std::make_unique<CountingFilterPolicy>(
      std::unique_ptr<const leveldb::FilterPolicy>(
          leveldb::NewBloomFilterPolicy(static_cast<int>(options.bloom_bits))));
}

}  // namespace db_bench
}  // namespace bloomtable
