// Compiled in its own target whose include path puts LevelDB's source tree
// first (its util/ and table/ would collide with bloomtable's): the header
// is found beside this file.
#include "leveldb_table_lookup.h"

#include <memory>
#include <string>
#include <utility>

#include "db/table_cache.h"
#include "leveldb/slice.h"

namespace bloomtable {
namespace db_bench {
namespace {

// The peer's status as absl's: NotFound, Corruption (DataLoss) and
// InvalidArgument keep their meaning, anything else is Unknown.
absl::Status FromLevelDB(const leveldb::Status& status) {
  if (status.ok()) return absl::OkStatus();
  if (status.IsNotFound()) return absl::NotFoundError(status.ToString());
  if (status.IsCorruption()) return absl::DataLossError(status.ToString());
  if (status.IsInvalidArgument()) {
    return absl::InvalidArgumentError(status.ToString());
  }
  return absl::UnknownError(status.ToString());
}

constexpr uint64_t kFileNumber = 1;

class TableCacheLookup final : public LevelDBTableLookup {
 public:
  TableCacheLookup(const std::string& dir, const leveldb::Options& options,
                   uint64_t file_size)
      // One open table: the only one there is.
      : cache_(dir, options, /*entries=*/1), file_size_(file_size) {}

  absl::Status Get(const leveldb::ReadOptions& read_options,
                   std::string_view key, std::string* value) const override {
    Result result{key, value, false};
    const leveldb::Status status =
        cache_.Get(read_options, kFileNumber, file_size_,
                   leveldb::Slice(key.data(), key.size()), &result, &Handle);
    if (!status.ok()) return FromLevelDB(status);
    if (!result.found) return absl::NotFoundError(std::string(key));
    return absl::OkStatus();
  }

 private:
  struct Result {
    std::string_view key;
    std::string* value;
    bool found;
  };

  // InternalGet's callback: the first entry at or after the key in the data
  // block the index chose (not called when the filter says absent).
  static void Handle(void* arg, const leveldb::Slice& found_key,
                     const leveldb::Slice& found_value) {
    Result* result = static_cast<Result*>(arg);
    if (std::string_view(found_key.data(), found_key.size()) == result->key) {
      result->value->assign(found_value.data(), found_value.size());
      result->found = true;
    }
  }

  // TableCache::Get is thread-safe but not const.
  mutable leveldb::TableCache cache_;
  const uint64_t file_size_;
};

}  // namespace

std::unique_ptr<LevelDBTableLookup> NewLevelDBTableLookup(
    const std::string& dir, const leveldb::Options& options,
    uint64_t file_size) {
  return std::make_unique<TableCacheLookup>(dir, options, file_size);
}

}  // namespace db_bench
}  // namespace bloomtable
