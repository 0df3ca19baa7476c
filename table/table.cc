// Table: Open reads the footer, index, metaindex and filter once; Get is
// filter (whole-table) -> index search -> filter (per-block) -> at most one
// data-block read.

#include "bloomtable/table.h"

#include <cstring>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "table/block.h"
#include "table/format.h"
#include "table/internal_key.h"
#include "table/table_counters.h"
#include "table/table_filter.h"
#include "table/two_level_iterator.h"

namespace bloomtable {

namespace {

absl::Status WithContext(const absl::Status& status, std::string_view what) {
  return absl::Status(status.code(),
                      absl::StrCat(absl::string_view(what.data(), what.size()),
                                   ": ", status.message()));
}

// Reads and parses a block that Open keeps or inspects.
absl::StatusOr<std::shared_ptr<const Block>> ReadMetaBlock(
    const RandomAccessFile& file, const BlockHandle& handle,
    const ReadBlockOptions& options, TableCounters* counters,
    std::string_view what) {
  BlockReadReport report;
  absl::StatusOr<BlockContents> contents =
      ReadBlock(file, handle, options, &report);
  counters->RecordRead(report);
  if (!contents.ok()) return WithContext(contents.status(), what);
  absl::StatusOr<std::shared_ptr<const Block>> block =
      Block::Parse(*std::move(contents));
  if (!block.ok()) return WithContext(block.status(), what);
  return block;
}

// Walks every index entry: each must decode, and its value must be a block
// handle. Catches a damaged index at Open rather than at some later Get.
absl::Status ValidateIndex(const Comparator* comparator, const Block& index) {
  BlockIter iter(comparator, &index);
  for (iter.SeekToFirst(); iter.Valid(); iter.Next()) {
    std::string_view encoded = iter.value();
    BlockHandle handle;
    if (!handle.DecodeFrom(&encoded).ok()) {
      return absl::DataLossError("index block: bad data block handle");
    }
  }
  if (!iter.status().ok()) return WithContext(iter.status(), "index block");
  return absl::OkStatus();
}

// The key that Get and ApproximateOffsetOf seek to: the key itself, or for
// LevelDB-internal tables (user key, kMaxValueTag), the newest possible
// version. Built in a stack buffer when it fits, so lookups of ordinary keys
// do not allocate.
class SeekKey {
 public:
  SeekKey(KeyFormat format, std::string_view key) {
    if (format != KeyFormat::kLevelDBInternal) {
      key_ = key;
      return;
    }
    const size_t size = key.size() + kInternalKeyTagSize;
    char* out = inline_;
    if (size > sizeof(inline_)) {
      heap_.resize(size);
      out = heap_.data();
    }
    std::memcpy(out, key.data(), key.size());
    for (size_t i = 0; i < kInternalKeyTagSize; ++i) {
      out[key.size() + i] = static_cast<char>(kMaxValueTag >> (8 * i));
    }
    key_ = std::string_view(out, size);
  }
  SeekKey(const SeekKey&) = delete;
  SeekKey& operator=(const SeekKey&) = delete;

  std::string_view view() const { return key_; }

 private:
  char inline_[128];
  std::string heap_;
  std::string_view key_;
};

// NotFound without a message: an empty message keeps absl::Status inline,
// so a miss allocates nothing.
absl::Status KeyNotFound() {
  return absl::Status(absl::StatusCode::kNotFound, absl::string_view());
}

}  // namespace

struct Table::Rep final : public DataBlockReader {
  Rep(const Options& opts, std::unique_ptr<RandomAccessFile> f, uint64_t size)
      : options(opts),
        internal_comparator(opts.comparator),
        comparator(opts.key_format == KeyFormat::kLevelDBInternal
                       ? &internal_comparator
                       : opts.comparator),
        file(std::move(f)),
        file_size(size) {
    block_read_options.verify_checksum = true;
    block_read_options.readable_limit = file_size - Footer::kEncodedLength;
    block_read_options.max_uncompressed_size =
        MaxUncompressedBlockSize(opts.block_size);
  }

  // The one place where data blocks are read (a block cache slots in here).
  absl::StatusOr<std::shared_ptr<const Block>> ReadDataBlock(
      const ReadOptions& read_options,
      const BlockHandle& handle) const override {
    ReadBlockOptions block_options = block_read_options;
    block_options.verify_checksum = read_options.verify_checksums;
    BlockReadReport report;
    absl::StatusOr<BlockContents> contents =
        ReadBlock(*file, handle, block_options, &report);
    TableCounters::Add(counters.data_block_reads, 1);
    counters.RecordRead(report);
    if (!contents.ok()) return WithContext(contents.status(), file->name());
    absl::StatusOr<std::shared_ptr<const Block>> block =
        Block::Parse(*std::move(contents));
    if (!block.ok()) return WithContext(block.status(), file->name());
    return block;
  }

  const Options options;
  const InternalKeyComparator internal_comparator;
  // Orders the stored keys: options.comparator, or internal_comparator.
  const Comparator* const comparator;
  const std::unique_ptr<RandomAccessFile> file;
  const uint64_t file_size;
  // Index, metaindex and filter reads (checksums always verified); data
  // reads copy it and take verify_checksum from the ReadOptions.
  ReadBlockOptions block_read_options;
  Footer footer;
  std::shared_ptr<const Block> index_block;
  std::unique_ptr<TableFilter> filter;
  TableFilterInfo filter_info;
  // Updated by const lookups from many threads: atomics, hence mutable.
  mutable TableCounters counters;
};

absl::StatusOr<std::unique_ptr<Table>> Table::Open(
    const Options& options, std::unique_ptr<RandomAccessFile> file,
    uint64_t file_size) {
  if (file_size < Footer::kEncodedLength) {
    return absl::DataLossError(
        absl::StrFormat("%s: file of %u bytes is too short to be a table",
                        file->name(), file_size));
  }
  auto rep = std::make_unique<Rep>(options, std::move(file), file_size);
  const RandomAccessFile& f = *rep->file;
  const std::string& name = f.name();

  char footer_space[Footer::kEncodedLength];
  std::string_view footer_bytes;
  absl::Status status =
      f.Read(file_size - Footer::kEncodedLength, Footer::kEncodedLength,
             &footer_bytes, footer_space);
  TableCounters::Add(rep->counters.bytes_read, footer_bytes.size());
  if (!status.ok()) return status;
  if (footer_bytes.size() != Footer::kEncodedLength) {
    return absl::DataLossError(absl::StrCat(name, ": truncated footer read"));
  }
  status = rep->footer.DecodeFrom(footer_bytes);
  if (!status.ok()) return WithContext(status, name);

  absl::StatusOr<std::shared_ptr<const Block>> index =
      ReadMetaBlock(f, rep->footer.index_handle(), rep->block_read_options,
                    &rep->counters, absl::StrCat(name, ": index block"));
  if (!index.ok()) return index.status();
  status = ValidateIndex(rep->comparator, **index);
  if (!status.ok()) return WithContext(status, name);
  rep->index_block = *std::move(index);

  absl::StatusOr<std::shared_ptr<const Block>> metaindex =
      ReadMetaBlock(f, rep->footer.metaindex_handle(), rep->block_read_options,
                    &rep->counters, absl::StrCat(name, ": metaindex block"));
  if (!metaindex.ok()) return metaindex.status();
  status =
      TableFilter::Load(rep->options, f, **metaindex, rep->block_read_options,
                        &rep->counters, &rep->filter, &rep->filter_info);
  if (!status.ok()) return WithContext(status, name);

  return std::unique_ptr<Table>(new Table(std::move(rep)));
}

Table::Table(std::unique_ptr<Rep> rep) : rep_(std::move(rep)) {}

Table::~Table() = default;

absl::StatusOr<std::string> Table::Get(const ReadOptions& read_options,
                                       std::string_view key) const {
  std::string value;
  absl::Status status = Get(read_options, key, &value);
  if (!status.ok()) return status;
  return value;
}

absl::Status Table::Get(const ReadOptions& read_options, std::string_view key,
                        std::string* value) const {
  const Rep& r = *rep_;
  TableCounters& counters = r.counters;
  const TableFilter* filter = r.filter.get();
  if (filter != nullptr && filter->layout() == FilterLayout::kWholeTable) {
    TableCounters::Add(counters.filter_checks, 1);
    if (!filter->WholeTableMayMatch(key)) {
      TableCounters::Add(counters.filter_negatives, 1);
      return KeyNotFound();
    }
  }

  const SeekKey target(r.options.key_format, key);
  BlockIter index_iter(r.comparator, r.index_block.get());
  index_iter.Seek(target.view());
  if (!index_iter.Valid()) {
    return index_iter.status().ok() ? KeyNotFound() : index_iter.status();
  }
  std::string_view encoded_handle = index_iter.value();
  BlockHandle handle;
  absl::Status status = handle.DecodeFrom(&encoded_handle);
  if (!status.ok()) return status;

  if (filter != nullptr && filter->layout() == FilterLayout::kPerBlock) {
    TableCounters::Add(counters.filter_checks, 1);
    if (!filter->BlockMayMatch(handle.offset(), key)) {
      TableCounters::Add(counters.filter_negatives, 1);
      return KeyNotFound();
    }
  }

  absl::StatusOr<std::shared_ptr<const Block>> block =
      r.ReadDataBlock(read_options, handle);
  if (!block.ok()) return block.status();
  BlockIter data_iter(r.comparator, block->get());
  data_iter.Seek(target.view());
  if (!data_iter.Valid()) {
    return data_iter.status().ok() ? KeyNotFound() : data_iter.status();
  }

  if (r.options.key_format == KeyFormat::kLevelDBInternal) {
    ParsedInternalKey parsed;
    if (!ParseInternalKey(data_iter.key(), &parsed)) {
      return absl::DataLossError(absl::StrFormat(
          "%s: malformed internal key in data block at offset %u",
          r.file->name(), handle.offset()));
    }
    if (r.options.comparator->Compare(parsed.user_key, key) != 0 ||
        parsed.type == ValueType::kDeletion) {
      return KeyNotFound();
    }
  } else if (r.comparator->Compare(data_iter.key(), key) != 0) {
    return KeyNotFound();
  }
  const std::string_view found = data_iter.value();
  value->assign(found.data(), found.size());
  return absl::OkStatus();
}

std::unique_ptr<Iterator> Table::NewIterator(
    const ReadOptions& read_options) const {
  return NewTwoLevelIterator(rep_->comparator, rep_->index_block.get(),
                             rep_.get(), read_options);
}

uint64_t Table::ApproximateOffsetOf(std::string_view key) const {
  const Rep& r = *rep_;
  const SeekKey target(r.options.key_format, key);
  BlockIter index_iter(r.comparator, r.index_block.get());
  index_iter.Seek(target.view());
  if (index_iter.Valid()) {
    std::string_view encoded_handle = index_iter.value();
    BlockHandle handle;
    if (handle.DecodeFrom(&encoded_handle).ok()) return handle.offset();
  }
  // Past the last key: the end of the data (and filter) region, where the
  // metaindex begins, as in LevelDB.
  return r.footer.metaindex_handle().offset();
}

TableStats Table::GetStats() const { return rep_->counters.Snapshot(); }

const TableFilterInfo& Table::filter_info() const { return rep_->filter_info; }

}  // namespace bloomtable
