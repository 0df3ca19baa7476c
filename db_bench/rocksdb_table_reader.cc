// Compiled in its own target whose include path puts RocksDB's source tree
// first (its util/ and table/ would collide with bloomtable's): the header
// is found beside this file.
#include "rocksdb_table_reader.h"

#include <algorithm>
#include <memory>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "db/dbformat.h"
#include "db/lookup_key.h"
#include "db/merge_context.h"
#include "file/random_access_file_reader.h"
#include "options/cf_options.h"
#include "rocksdb/file_system.h"
#include "rocksdb/slice.h"
#include "table/get_context.h"
#include "table/multiget_context.h"
#include "table/table_builder.h"
#include "table/table_reader.h"

namespace bloomtable {
namespace db_bench {
namespace {

// The peer's status as absl's: NotFound, Corruption (DataLoss) and
// InvalidArgument keep their meaning, anything else is Unknown.
absl::Status FromRocksDB(const rocksdb::Status& status) {
  if (status.ok()) return absl::OkStatus();
  if (status.IsNotFound()) return absl::NotFoundError(status.ToString());
  if (status.IsCorruption()) return absl::DataLossError(status.ToString());
  if (status.IsInvalidArgument()) {
    return absl::InvalidArgumentError(status.ToString());
  }
  return absl::UnknownError(status.ToString());
}

class BlockBasedTableReader final : public RocksDBTableReader {
 public:
  explicit BlockBasedTableReader(const rocksdb::Options& options)
      : ioptions_(options),
        moptions_(rocksdb::ColumnFamilyOptions(options)),
        internal_comparator_(options.comparator),
        file_options_(rocksdb::DBOptions(options)) {}

  absl::Status Open(const std::string& path) {
    const std::shared_ptr<rocksdb::FileSystem>& fs = ioptions_.fs;
    std::unique_ptr<rocksdb::FSRandomAccessFile> file;
    rocksdb::IOStatus io =
        fs->NewRandomAccessFile(path, file_options_, &file, nullptr);
    uint64_t size = 0;
    if (io.ok()) {
      io = fs->GetFileSize(path, file_options_.io_options, &size, nullptr);
    }
    if (!io.ok()) return FromRocksDB(io);
    auto reader = std::make_unique<rocksdb::RandomAccessFileReader>(
        std::move(file), path, ioptions_.clock, /*io_tracer=*/nullptr,
        ioptions_.stats);
    const rocksdb::Status status = ioptions_.table_factory->NewTableReader(
        rocksdb::TableReaderOptions(ioptions_, moptions_.prefix_extractor,
                                    file_options_, internal_comparator_),
        std::move(reader), size, &table_);
    return FromRocksDB(status);
  }

  absl::Status Get(const rocksdb::ReadOptions& read_options,
                   std::string_view key, std::string* value) const override {
    const rocksdb::Slice user_key = rocksdb::Slice(key.data(), key.size());
    const rocksdb::LookupKey lookup(user_key, rocksdb::kMaxSequenceNumber);
    rocksdb::PinnableSlice found;
    rocksdb::MergeContext merge_context;
    rocksdb::SequenceNumber max_covering_tombstone_seq = 0;
    rocksdb::autovector<rocksdb::GetContext, 1> context;
    AddContext(&context, user_key, &found, &merge_context,
               &max_covering_tombstone_seq);
    const rocksdb::Status status =
        table_->Get(read_options, lookup.internal_key(), &context[0],
                    moptions_.prefix_extractor.get());
    context[0].ReportCounters();
    return Answer(status, context[0], found, key, value);
  }

  void MultiGet(const rocksdb::ReadOptions& read_options,
                const std::vector<std::string_view>& keys,
                std::vector<absl::Status>* statuses,
                std::vector<std::string>* values) const override {
    constexpr size_t kBatch = rocksdb::MultiGetContext::MAX_BATCH_SIZE;
    statuses->resize(keys.size());
    values->resize(keys.size());
    std::vector<size_t> order(keys.size());
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(),
              [&keys](size_t a, size_t b) { return keys[a] < keys[b]; });
    for (size_t begin = 0; begin < order.size(); begin += kBatch) {
      const size_t n = std::min(kBatch, order.size() - begin);
      std::vector<rocksdb::Slice> user_keys(n);
      std::vector<rocksdb::PinnableSlice> found(n);
      std::vector<rocksdb::Status> results(n);
      rocksdb::autovector<rocksdb::KeyContext, kBatch> key_contexts;
      rocksdb::autovector<rocksdb::GetContext, kBatch> contexts;
      rocksdb::autovector<rocksdb::KeyContext*, kBatch> sorted;
      for (size_t i = 0; i < n; ++i) {
        const std::string_view key = keys[order[begin + i]];
        user_keys[i] = rocksdb::Slice(key.data(), key.size());
        key_contexts.emplace_back(/*col_family=*/nullptr, user_keys[i],
                                  &found[i], /*ts=*/nullptr, &results[i]);
      }
      for (size_t i = 0; i < n; ++i) {
        rocksdb::KeyContext& key = key_contexts[i];
        AddContext(&contexts, *key.key, &found[i], &key.merge_context,
                   &key.max_covering_tombstone_seq);
        key.get_context = &contexts.back();
        sorted.push_back(&key);
      }
      rocksdb::MultiGetContext context(
          &sorted, 0, n, rocksdb::kMaxSequenceNumber, read_options,
          ioptions_.fs.get(), ioptions_.stats);
      rocksdb::MultiGetContext::Range range = context.GetMultiGetRange();
      table_->MultiGet(read_options, &range, moptions_.prefix_extractor.get());
      for (size_t i = 0; i < n; ++i) {
        const size_t k = order[begin + i];
        contexts[i].ReportCounters();
        (*statuses)[k] =
            Answer(results[i], contexts[i], found[i], keys[k], &(*values)[k]);
      }
    }
  }

 private:
  // Adds to `contexts` the GetContext of one lookup, as DB::Get makes it.
  template <size_t kSize>
  void AddContext(rocksdb::autovector<rocksdb::GetContext, kSize>* contexts,
                  const rocksdb::Slice& user_key, rocksdb::PinnableSlice* found,
                  rocksdb::MergeContext* merge_context,
                  rocksdb::SequenceNumber* max_covering_tombstone_seq) const {
    contexts->emplace_back(
        ioptions_.user_comparator, ioptions_.merge_operator.get(),
        ioptions_.logger, ioptions_.stats, rocksdb::GetContext::kNotFound,
        user_key, found, /*columns=*/nullptr, /*timestamp=*/nullptr,
        /*value_found=*/nullptr, merge_context,
        /*do_merge=*/true, max_covering_tombstone_seq, ioptions_.clock);
  }

  // A lookup's answer from its status and its GetContext's state.
  static absl::Status Answer(const rocksdb::Status& status,
                             const rocksdb::GetContext& context,
                             const rocksdb::PinnableSlice& found,
                             std::string_view key, std::string* value) {
    if (!status.ok()) return FromRocksDB(status);
    switch (context.State()) {
      case rocksdb::GetContext::kFound:
        value->assign(found.data(), found.size());
        return absl::OkStatus();
      case rocksdb::GetContext::kNotFound:
      case rocksdb::GetContext::kDeleted:
        return absl::NotFoundError(std::string(key));
      default:
        return absl::UnknownError("TableReader: unexpected lookup state");
    }
  }

  const rocksdb::ImmutableOptions ioptions_;
  const rocksdb::MutableCFOptions moptions_;
  const rocksdb::InternalKeyComparator internal_comparator_;
  const rocksdb::FileOptions file_options_;
  std::unique_ptr<rocksdb::TableReader> table_;
};

}  // namespace

absl::StatusOr<std::unique_ptr<RocksDBTableReader>> OpenRocksDBTableReader(
    const rocksdb::Options& options, const std::string& path) {
  auto reader = std::make_unique<BlockBasedTableReader>(options);
  absl::Status status = reader->Open(path);
  if (!status.ok()) return status;
  return reader;
}

}  // namespace db_bench
}  // namespace bloomtable
