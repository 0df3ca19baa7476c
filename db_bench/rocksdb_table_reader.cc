// Compiled in its own target whose include path puts RocksDB's source tree
// first (its util/ and table/ would collide with bloomtable's): the header
// is found beside this file.
#include "rocksdb_table_reader.h"

#include <memory>
#include <string>
#include <utility>

#include "db/dbformat.h"
#include "db/lookup_key.h"
#include "db/merge_context.h"
#include "file/random_access_file_reader.h"
#include "options/cf_options.h"
#include "rocksdb/file_system.h"
#include "rocksdb/slice.h"
#include "table/get_context.h"
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
    rocksdb::GetContext context(
        ioptions_.user_comparator, ioptions_.merge_operator.get(),
        ioptions_.logger, ioptions_.stats, rocksdb::GetContext::kNotFound,
        user_key, &found, /*columns=*/nullptr, /*timestamp=*/nullptr,
        /*value_found=*/nullptr, &merge_context,
        /*do_merge=*/true, &max_covering_tombstone_seq, ioptions_.clock);
    const rocksdb::Status status =
        table_->Get(read_options, lookup.internal_key(), &context,
                    moptions_.prefix_extractor.get());
    context.ReportCounters();
    if (!status.ok()) return FromRocksDB(status);
    switch (context.State()) {
      case rocksdb::GetContext::kFound:
        value->assign(found.data(), found.size());
        return absl::OkStatus();
      case rocksdb::GetContext::kNotFound:
      case rocksdb::GetContext::kDeleted:
        return absl::NotFoundError(std::string(key));
      default:
        return absl::UnknownError("TableReader::Get: unexpected state");
    }
  }

 private:
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
