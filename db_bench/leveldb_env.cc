#include "db_bench/leveldb_env.h"

#include <utility>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "bloomtable/file.h"
#include "bloomtable/leveldb_filter_adapter.h"
#include "db_bench/table_file_info.h"

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
  CountingFile(std::unique_ptr<leveldb::RandomAccessFile> base,
               ReadCounters* io)
      : base_(std::move(base)), io_(io) {}

  leveldb::Status Read(uint64_t offset, size_t n, leveldb::Slice* result,
                       char* scratch) const override {
    leveldb::Status status = base_->Read(offset, n, result, scratch);
    io_->Add(result->size());
    return status;
  }

 private:
  const std::unique_ptr<leveldb::RandomAccessFile> base_;
  ReadCounters* const io_;
};

// LevelDB's own Bloom filter at options.bloom_bits or the adapted bloomtable
// policy, counted; null without a filter. Sets *status if the adapter
// refuses the policy.
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

}  // namespace

leveldb::Status CountingEnv::NewRandomAccessFile(
    const std::string& name, leveldb::RandomAccessFile** result) {
  *result = nullptr;
  std::unique_ptr<leveldb::RandomAccessFile> base;
  if (mmap_) {
    leveldb::RandomAccessFile* file = nullptr;
    leveldb::Status status = target()->NewRandomAccessFile(name, &file);
    if (!status.ok()) return status;
    base.reset(file);
  } else {
    absl::StatusOr<std::unique_ptr<bloomtable::RandomAccessFile>> file =
        OpenRandomAccessFile(name);
    if (!file.ok()) {
      const std::string message(file.status().message());
      return absl::IsNotFound(file.status())
                 ? leveldb::Status::NotFound(name, message)
                 : leveldb::Status::IOError(name, message);
    }
    base = std::make_unique<PreadFile>(*std::move(file));
  }
  *result = new CountingFile(std::move(base), io_);
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

LevelDBSetup::LevelDBSetup(const EngineOptions& options)
    : options_(options),
      env_(&io_, options.mmap_reads),
      filter_policy_(NewCountingFilterPolicy(options, &status_)),
      block_cache_(std::make_unique<CountingCache>(options.cache_size)) {
  read_options_.verify_checksums = options.verify_checksums;
}

leveldb::Options LevelDBSetup::Options() {
  leveldb::Options options;
  options.env = &env_;
  options.block_cache = block_cache_.get();
  options.block_size = options_.block_size;
  options.compression =
      options_.snappy ? leveldb::kSnappyCompression : leveldb::kNoCompression;
  options.filter_policy = filter_policy_.get();
  return options;
}

EngineCounters LevelDBSetup::Counters() const {
  EngineCounters counters;
  counters.file_reads = io_.reads.Sum();
  counters.file_bytes_read = io_.bytes.Sum();
  if (filter_policy_ != nullptr) {
    counters.has_filter_counters = true;
    counters.filter_checks = filter_policy_->checks();
    counters.filter_negatives = filter_policy_->negatives();
  }
  counters.has_block_cache_counters = true;
  counters.block_cache_hits = block_cache_->hits();
  counters.block_cache_misses = block_cache_->misses();
  return counters;
}

MemorySummary LevelDBSetup::Memory(const std::vector<std::string>& paths,
                                   std::string sources) const {
  MemorySummary memory;
  memory.block_cache_usage = block_cache_->TotalCharge();
  memory.block_cache_capacity = options_.cache_size;
  memory.sources = std::move(sources);
  uint64_t filter_bytes = 0;
  uint64_t index_bytes = 0;
  for (const std::string& path : paths) {
    absl::StatusOr<TableFileInfo> info = ReadTableFileInfo(path);
    if (absl::IsNotFound(info.status())) continue;  // compacted away
    if (!info.ok()) return memory;
    if (filter_policy_ != nullptr &&
        info->filter_key == absl::StrCat("filter.", filter_policy_->Name())) {
      filter_bytes += info->filter_bytes;
    }
    index_bytes += info->index_bytes;
  }
  memory.filter_bytes = filter_bytes;
  memory.index_bytes = index_bytes;
  return memory;
}

namespace {

// LevelDB 1.23 compacts level 0 from this many files on
// (config::kL0_CompactionTrigger), and level L >= 1 when it holds more than
// 10 MiB times 10^(L-1) (VersionSet::Finalize, MaxBytesForLevel); the last
// level is never compacted for size.
constexpr size_t kLevelDBLevel0Trigger = 4;
constexpr double kLevelDBLevel1Bytes = 10.0 * 1048576.0;

}  // namespace

LevelDBTables ParseLevelDBTables(std::string_view text) {
  LevelDBTables files;
  int level = -1;
  for (absl::string_view line :
       absl::StrSplit(absl::string_view(text.data(), text.size()), '\n')) {
    int heading = 0;
    if (absl::ConsumePrefix(&line, "--- level ") &&
        absl::SimpleAtoi(line.substr(0, line.find(' ')), &heading)) {
      level = heading >= 0 && heading < LevelDBTables::kLevels ? heading : -1;
      continue;
    }
    line = absl::StripLeadingAsciiWhitespace(line);
    const size_t colon = line.find(':');
    const size_t bracket = line.find('[');
    uint64_t number = 0;
    uint64_t size = 0;
    if (level < 0 || colon == absl::string_view::npos ||
        bracket == absl::string_view::npos || bracket < colon ||
        !absl::SimpleAtoi(line.substr(0, colon), &number) ||
        !absl::SimpleAtoi(line.substr(colon + 1, bracket - colon - 1), &size)) {
      continue;
    }
    files.numbers[level].push_back(number);
    files.bytes[level] += size;
  }
  return files;
}

bool LevelDBNeedsSizeCompaction(const LevelDBTables& files) {
  if (files.numbers[0].size() >= kLevelDBLevel0Trigger) return true;
  double limit = kLevelDBLevel1Bytes;
  for (int level = 1; level < LevelDBTables::kLevels - 1;
       ++level, limit *= 10) {
    if (files.bytes[level] > limit) return true;
  }
  return false;
}

}  // namespace db_bench
}  // namespace bloomtable
