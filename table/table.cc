// Table: Open reads the footer, metaindex, filter and index once; Get is
// filter (whole-table) -> index search -> filter (per-block) -> at most one
// data-block read.

#include "bloomtable/table.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "table/block.h"
#include "table/corruption.h"
#include "table/format.h"
#include "table/internal_key.h"
#include "table/iterate_bounds.h"
#include "table/multi_get.h"
#include "table/restart_key_digest.h"
#include "table/scan_filters.h"
#include "table/seek_key.h"
#include "table/table_counters.h"
#include "table/table_filter.h"
#include "table/table_structure.h"
#include "table/two_level_iterator.h"
#include "util/key_splits.h"
#include "util/string_util.h"
#include "util/zstd_codec.h"

namespace bloomtable {

namespace {

// NotFound without a message: an empty message keeps absl::Status inline,
// so a miss allocates nothing.
absl::Status KeyNotFound() {
  return absl::Status(absl::StatusCode::kNotFound, absl::string_view());
}

}  // namespace

struct Table::Rep final : public DataBlockReader, public BatchLookupTable {
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
    block_read_options.zstd_contexts = &zstd_contexts;
    block_read_options.max_uncompressed_block_size =
        opts.max_uncompressed_block_size;
  }

  // The in-memory part of a lookup: the whole-table filter, the index search
  // and the per-block filter. OK with `*handle` set when the data block there
  // must be read; NotFound when the key is certainly absent; DataLoss for a
  // damaged index entry.
  absl::Status FindDataBlock(std::string_view key, std::string_view seek_key,
                             BlockHandle* handle) const {
    if (!TableFilterMayMatch(key)) return KeyNotFound();
    // Where the digest knows the entry the index search lands on, the
    // per-block filter is asked first, and the index block is read only if
    // it says "maybe".
    uint32_t entry;
    const bool asked =
        index_digest != nullptr && index_digest->CertainEntry(seek_key, &entry);
    if (asked && !BlockFilterMayMatch(index_digest->block_offset(entry), key)) {
      return KeyNotFound();
    }
    absl::Status status = SearchIndex(seek_key, handle);
    if (!status.ok()) return status;
    if (asked && handle->offset() == index_digest->block_offset(entry)) {
      return absl::OkStatus();
    }
    if (!BlockFilterMayMatch(handle->offset(), key)) return KeyNotFound();
    return absl::OkStatus();
  }

  // FindDataBlock's steps, which MultiGet takes across a batch
  // (BatchLookupTable).
  bool internal_keys() const override {
    return options.key_format == KeyFormat::kLevelDBInternal;
  }

  void PrefetchTableFilter(std::string_view key) const override {
    const TableFilter* table_filter = filter.get();
    if (table_filter != nullptr &&
        table_filter->layout() != FilterLayout::kPerBlock) {
      table_filter->PrefetchTable(key);
    }
  }

  bool TableFilterMayMatch(std::string_view key) const override {
    const TableFilter* table_filter = filter.get();
    if (table_filter != nullptr &&
        table_filter->layout() != FilterLayout::kPerBlock) {
      return counters.filter.Record(table_filter->TableMayMatch(key));
    }
    if (table_filter == nullptr && scan_filters != nullptr &&
        scan_filters->CanAnswerKeys()) {
      // A table written with a prefix extractor has only its prefix filter.
      return counters.filter.Record(scan_filters->KeyMayMatch(key));
    }
    return true;
  }

  void PrefetchIndex(std::string_view seek_key) const override {
    if (index_digest == nullptr) return;
    uint32_t left, right;
    index_digest->Narrow(seek_key, &left, &right);
    // The first and last restart entries of the range, where a short
    // search (the common case) compares.
    const uint32_t restarts = index_block->num_restarts();
    const char* const entries_end =
        index_block->contents().data() + index_block->restart_array_offset();
    for (const uint32_t r : {left, right}) {
      if (r >= restarts) continue;
      // Unchecked offsets: a damaged one is not followed.
      const char* const entry = index_block->RestartEntryStart(r);
      if (entry < entries_end) __builtin_prefetch(entry);
    }
  }

  void PrefetchScan(const Block& block,
                    std::string_view seek_key) const override {
    const uint32_t restarts = block.num_restarts();
    if (restarts == 0) return;
    // The restart point a seek starts its scan at: the last whose key is
    // before `seek_key` (BlockIter::Seek's binary search).
    uint32_t left = 0;
    uint32_t right = restarts - 1;
    while (left < right) {
      const uint32_t mid = left + (right - left + 1) / 2;
      std::string_view key, value;
      if (!block.RestartEntry(mid, &key, &value)) return;
      if (comparator->Compare(key, seek_key) < 0) {
        left = mid;
      } else {
        right = mid - 1;
      }
    }
    const char* const entries_end =
        block.contents().data() + block.restart_array_offset();
    const char* const begin = block.RestartEntryStart(left);
    const char* end =
        left + 1 < restarts ? block.RestartEntryStart(left + 1) : entries_end;
    // Unchecked offsets: damaged ones are not followed.
    if (begin >= entries_end || end > entries_end || end < begin) return;
    for (const char* line = begin; line < end; line += 64) {
      __builtin_prefetch(line);
    }
  }

  absl::Status SearchIndex(std::string_view seek_key,
                           BlockHandle* handle) const override {
    BlockIter index_iter(comparator, index_block.get());
    if (index_digest != nullptr) {
      uint32_t left, right;
      index_digest->Narrow(seek_key, &left, &right);
      index_iter.SeekWithin(seek_key, left, right);
    } else {
      index_iter.Seek(seek_key);
    }
    if (!index_iter.Valid()) {
      return index_iter.status().ok()
                 ? KeyNotFound()
                 : PlaceError(nullptr, index_iter.status());
    }
    std::string_view encoded_handle = index_iter.value();
    absl::Status status = handle->DecodeFrom(&encoded_handle);
    if (!status.ok()) return PlaceError(nullptr, status);
    return absl::OkStatus();
  }

  void PrefetchBlockFilter(uint64_t block_offset) const override {
    const TableFilter* table_filter = filter.get();
    if (table_filter != nullptr &&
        table_filter->layout() == FilterLayout::kPerBlock) {
      table_filter->PrefetchBlock(block_offset);
    }
  }

  bool BlockFilterMayMatch(uint64_t block_offset,
                           std::string_view key) const override {
    const TableFilter* table_filter = filter.get();
    if (table_filter != nullptr &&
        table_filter->layout() == FilterLayout::kPerBlock) {
      return counters.filter.Record(
          table_filter->BlockMayMatch(block_offset, key));
    }
    return true;
  }

  // Get's steps: finds the data block that may hold `key`, reads it (or
  // takes it from the cache) into `*block` and sets `*found` to a view of
  // the value in the block's memory.
  absl::Status Lookup(const ReadOptions& read_options, std::string_view key,
                      std::shared_ptr<const Block>* block,
                      std::string_view* found) const {
    const SeekKey target(options.key_format, key);
    BlockHandle handle;
    absl::Status status = FindDataBlock(key, target.view(), &handle);
    if (!status.ok()) return status;
    absl::StatusOr<std::shared_ptr<const Block>> read =
        ReadDataBlock(read_options, handle, nullptr);
    if (!read.ok()) return read.status();
    *block = *std::move(read);
    return FindInBlock(**block, handle, key, target.view(), found);
  }

  // GetVersion's steps: finds the data block that may hold a version of
  // `user_key` visible at `max_sequence`, reads it (or takes it from the
  // cache) into `*block`, sets `*version` (but its value) and `*found` to a
  // view of the value in the block's memory.
  absl::Status LookupVersion(const ReadOptions& read_options,
                             std::string_view user_key, uint64_t max_sequence,
                             KeyVersion* version,
                             std::shared_ptr<const Block>* block,
                             std::string_view* found) const {
    if (options.key_format != KeyFormat::kLevelDBInternal) {
      return absl::InvalidArgumentError(
          "GetVersion needs a table of LevelDB internal keys");
    }
    const SeekKey target(
        options.key_format, user_key,
        PackSequenceAndType(std::min(max_sequence, kMaxSequenceNumber),
                            ValueType::kValue));
    BlockHandle handle;
    absl::Status status = FindDataBlock(user_key, target.view(), &handle);
    if (!status.ok()) return status;
    absl::StatusOr<std::shared_ptr<const Block>> read =
        ReadDataBlock(read_options, handle, nullptr);
    if (!read.ok()) return read.status();
    *block = *std::move(read);
    return FindVersionInBlock(**block, handle, user_key, target.view(), version,
                              found);
  }

  // Looks `key` up in `block`, the data block at `handle`, setting `*found`
  // to a view of the value in the block's memory.
  absl::Status FindInBlock(const Block& block, const BlockHandle& handle,
                           std::string_view key, std::string_view seek_key,
                           std::string_view* found) const override {
    BlockIter data_iter(comparator, &block);
    data_iter.Seek(seek_key);
    if (!data_iter.Valid()) {
      return data_iter.status().ok() ? KeyNotFound()
                                     : PlaceError(&handle, data_iter.status());
    }
    if (options.key_format == KeyFormat::kLevelDBInternal) {
      ParsedInternalKey parsed;
      if (!ParseInternalKey(data_iter.key(), &parsed)) {
        return PlaceError(&handle, absl::DataLossError(
                                       "malformed internal key (shorter than "
                                       "its 8-byte tag, or an unknown type)"));
      }
      if (options.comparator->Compare(parsed.user_key, key) != 0 ||
          parsed.type == ValueType::kDeletion) {
        return KeyNotFound();
      }
    } else if (comparator->Compare(data_iter.key(), key) != 0) {
      return KeyNotFound();
    }
    *found = data_iter.value();
    return absl::OkStatus();
  }

  // GetVersion's search of `block`, the data block at `handle`: the first
  // entry at or after `seek_key` (`user_key` with the snapshot's tag), if
  // it is a version of `user_key`.
  absl::Status VersionFromBlock(const Block& block, const BlockHandle& handle,
                                std::string_view user_key,
                                std::string_view seek_key,
                                KeyVersion* version) const {
    std::string_view found;
    absl::Status status =
        FindVersionInBlock(block, handle, user_key, seek_key, version, &found);
    if (!status.ok()) return status;
    version->value.assign(found.data(), found.size());
    return absl::OkStatus();
  }

  // As VersionFromBlock, setting `*found` to a view of the value in
  // `block`'s memory and leaving version->value as it is.
  absl::Status FindVersionInBlock(const Block& block, const BlockHandle& handle,
                                  std::string_view user_key,
                                  std::string_view seek_key,
                                  KeyVersion* version,
                                  std::string_view* found) const override {
    BlockIter data_iter(comparator, &block);
    data_iter.Seek(seek_key);
    if (!data_iter.Valid()) {
      return data_iter.status().ok() ? KeyNotFound()
                                     : PlaceError(&handle, data_iter.status());
    }
    ParsedInternalKey parsed;
    if (!ParseInternalKey(data_iter.key(), &parsed)) {
      return PlaceError(
          &handle, absl::DataLossError("malformed internal key (shorter than "
                                       "its 8-byte tag, or an unknown type)"));
    }
    if (options.comparator->Compare(parsed.user_key, user_key) != 0) {
      return KeyNotFound();
    }
    version->sequence = parsed.sequence;
    version->deleted = parsed.type == ValueType::kDeletion;
    version->block_offset = handle.offset();
    *found = data_iter.value();
    return absl::OkStatus();
  }

  ~Rep() override {
    if (options.block_cache == nullptr) return;
    options.block_cache->EraseId(cache_id);
    if (partition_cache_id != 0) {
      options.block_cache->EraseId(partition_cache_id);
    }
    if (cache_charge > 0) {
      options.block_cache->AdjustPinnedCharge(
          -static_cast<int64_t>(cache_charge));
    }
  }

  // The one place where data blocks are read: from the block cache if it
  // holds the block, else from the file (then cached if fill_cache). A
  // block read without its checksum verified is cached under a key of its
  // own (UnverifiedKey), which only reads with verify_checksums off look
  // up, so that a read with it on never takes an unchecked block (a
  // checksum covers the stored bytes, which a cached block no longer has:
  // it cannot be verified later); a read with it off takes either.
  absl::StatusOr<std::shared_ptr<const Block>> ReadDataBlock(
      const ReadOptions& read_options, const BlockHandle& handle,
      BlockReadahead* readahead) const override {
    const bool ahead = readahead != nullptr && readahead->Visit(handle);
    std::shared_ptr<const Block> cached = CachedDataBlock(read_options, handle);
    if (cached != nullptr) return cached;
    if (!ahead || !handle.FitsWithin(block_read_options.readable_limit)) {
      return ReadDataBlockFromFile(read_options, handle);
    }
    std::string_view bytes;
    const absl::Status status = readahead->Read(
        *file, handle, block_read_options.readable_limit, &bytes);
    return DataBlockFromRead(read_options, handle, status, bytes);
  }

  // The cache key of the data block at `offset` read without its checksum
  // verified: apart from every block offset (all below 2^63).
  static uint64_t UnverifiedKey(uint64_t offset) {
    return offset | (uint64_t{1} << 63);
  }

  std::shared_ptr<const Block> CachedDataBlock(
      const ReadOptions& read_options,
      const BlockHandle& handle) const override {
    Cache* cache = options.block_cache.get();
    if (cache == nullptr) return nullptr;
    std::shared_ptr<const void> cached =
        cache->Lookup(cache_id, handle.offset());
    if (cached == nullptr && !read_options.verify_checksums) {
      cached = cache->Lookup(cache_id, UnverifiedKey(handle.offset()));
    }
    if (cached != nullptr) {
      TableCounters::Add(counters.block_cache_hits, 1);
      return std::static_pointer_cast<const Block>(std::move(cached));
    }
    TableCounters::Add(counters.block_cache_misses, 1);
    return nullptr;
  }

  absl::StatusOr<std::shared_ptr<const Block>> ReadDataBlockFromFile(
      const ReadOptions& read_options,
      const BlockHandle& handle) const override {
    ReadBlockOptions block_options = block_read_options;
    block_options.verify_checksum = read_options.verify_checksums;
    BlockReadReport report;
    absl::StatusOr<BlockContents> contents =
        ReadBlockAt(*file, handle, block_options, "data", &report);
    return FinishDataBlock(read_options, handle, report, std::move(contents));
  }

  absl::StatusOr<std::shared_ptr<const Block>> DataBlockFromRead(
      const ReadOptions& read_options, const BlockHandle& handle,
      const absl::Status& read_status, std::string_view bytes) const override {
    ReadBlockOptions block_options = block_read_options;
    block_options.verify_checksum = read_options.verify_checksums;
    BlockReadReport report;
    report.bytes_read = bytes.size();
    absl::StatusOr<BlockContents> contents =
        read_status.ok()
            ? DecodeBlock(handle, bytes, block_options, &report, nullptr)
            : absl::StatusOr<BlockContents>(read_status);
    if (!contents.ok()) {
      contents = BlockError(file->name(), "data", handle, contents.status());
    }
    return FinishDataBlock(read_options, handle, report, std::move(contents));
  }

  // Counts a data block read from the file, parses it and caches it if
  // fill_cache.
  absl::StatusOr<std::shared_ptr<const Block>> FinishDataBlock(
      const ReadOptions& read_options, const BlockHandle& handle,
      const BlockReadReport& report,
      absl::StatusOr<BlockContents> contents) const {
    TableCounters::Add(counters.data_block_reads, 1);
    counters.RecordRead(report);
    if (!contents.ok()) return contents.status();
    absl::StatusOr<std::shared_ptr<const Block>> block =
        ParseBlockAt(file->name(), "data", handle, *std::move(contents));
    if (!block.ok()) return block.status();
    // An unverified block under its own key (see ReadDataBlock).
    Cache* cache = options.block_cache.get();
    if (cache != nullptr && read_options.fill_cache) {
      cache->Insert(cache_id,
                    read_options.verify_checksums
                        ? handle.offset()
                        : UnverifiedKey(handle.offset()),
                    *block, (*block)->contents().size() + kCacheEntryOverhead);
    }
    return block;
  }

  const RandomAccessFile& data_file() const override { return *file; }
  uint64_t readable_limit() const override {
    return block_read_options.readable_limit;
  }
  void RecordMultiRead(MultiReadPath path, size_t reads) const override {
    TableCounters::Add(path == MultiReadPath::kIoUring
                           ? counters.multiget_io_uring_batches
                           : counters.multiget_pread_batches,
                       1);
    TableCounters::Add(counters.multiget_coalesced_reads, reads);
  }

  void AddPinnedBytes(int64_t delta) const override {
    pinned_bytes.fetch_add(delta, std::memory_order_relaxed);
  }

  absl::Status PlaceError(const BlockHandle* data_block,
                          const absl::Status& status) const override {
    return data_block != nullptr
               ? BlockError(file->name(), "data", *data_block, status)
               : BlockError(file->name(), "index", footer.index_handle(),
                            status);
  }

  // Bookkeeping charged per cached block beyond its bytes: the Block object,
  // the shared_ptr control block and the cache's list and map nodes.
  static constexpr size_t kCacheEntryOverhead = 128;

  const Options options;
  const InternalKeyComparator internal_comparator;
  // Orders the stored keys: options.comparator, or internal_comparator.
  const Comparator* const comparator;
  const std::unique_ptr<RandomAccessFile> file;
  const uint64_t file_size;
  // Reused by every zstd block read (their setup costs more than a small
  // block's decompression).
  mutable ZstdContextCache zstd_contexts;
  // Index, metaindex and filter reads (checksums always verified); data
  // reads copy it and take verify_checksum from the ReadOptions.
  ReadBlockOptions block_read_options;
  Footer footer;
  std::shared_ptr<const Block> index_block;
  // Narrows index searches (null where the key order does not allow it).
  std::unique_ptr<const RestartKeyDigest> index_digest;
  std::unique_ptr<TableFilter> filter;
  TableFilterInfo filter_info;
  // The prefix and range filters (null if neither is usable).
  std::unique_ptr<ScanFilters> scan_filters;
  ScanFilterInfo scan_filter_info;
  // Updated by const lookups from many threads: atomics, hence mutable.
  mutable TableCounters counters;
  // Bytes of data blocks that live iterators hold.
  mutable std::atomic<int64_t> pinned_bytes{0};
  // This table's key prefix in options.block_cache: for data blocks, and
  // (a separate id, so that no damaged handle can find one as the other) for
  // filter partitions read on demand; 0 if none.
  uint64_t cache_id = 0;
  uint64_t partition_cache_id = 0;
  // Bytes of index and filter charged to the cache
  // (Options::cache_index_and_filter_blocks).
  size_t cache_charge = 0;
};

absl::StatusOr<std::unique_ptr<Table>> Table::Open(
    const Options& options, std::unique_ptr<RandomAccessFile> file,
    uint64_t file_size) {
  absl::Status status = CheckTableFileSize(file->name(), file_size);
  if (!status.ok()) return status;
  auto rep = std::make_unique<Rep>(options, std::move(file), file_size);
  const RandomAccessFile& f = *rep->file;

  // In the order every reader of the file follows (table_structure.h):
  // footer, metaindex, filter, index.
  uint64_t footer_bytes_read = 0;
  absl::StatusOr<FooterContents> footer =
      ReadFooter(f, file_size, &footer_bytes_read);
  TableCounters::Add(rep->counters.bytes_read, footer_bytes_read);
  if (!footer.ok()) return footer.status();
  rep->footer = footer->footer;

  BlockReadReport report;
  absl::StatusOr<std::vector<MetaindexEntry>> metaindex =
      ReadMetaindex(f, rep->footer, rep->block_read_options, &report);
  rep->counters.RecordRead(report);
  if (!metaindex.ok()) return metaindex.status();
  // The metaindex tells whose compression numbering the other blocks follow
  // (block_compression.h); it is never compressed itself.
  rep->block_read_options.numbering = CompressionNumberingOf(*metaindex);

  Cache* const cache = options.block_cache.get();
  PartitionSource partitions;
  partitions.region_end = rep->footer.metaindex_handle().offset();
  if (cache != nullptr && options.cache_index_and_filter_blocks) {
    rep->partition_cache_id = cache->NewId();
    partitions.cache = cache;
    partitions.cache_id = rep->partition_cache_id;
  }
  TableFilter::Load(rep->options, f, *metaindex, rep->block_read_options,
                    partitions, &rep->counters, &rep->filter,
                    &rep->filter_info);
  ScanFilters::Load(rep->options, f, *metaindex, rep->block_read_options,
                    &rep->counters, &rep->scan_filters, &rep->scan_filter_info);

  const BlockHandle& index_handle = rep->footer.index_handle();
  report = BlockReadReport();
  absl::StatusOr<BlockContents> index_contents =
      ReadBlockAt(f, index_handle, rep->block_read_options, "index", &report);
  rep->counters.RecordRead(report);
  if (!index_contents.ok()) return index_contents.status();
  absl::StatusOr<std::shared_ptr<const Block>> index =
      ParseBlockAt(f.name(), "index", index_handle, *std::move(index_contents));
  if (!index.ok()) return index.status();
  // Every entry must decode to a block handle: a damaged index is an Open
  // error rather than a failure of some later Get.
  status = ForEachHandleEntry(f.name(), "index", index_handle, **index,
                              /*visit=*/nullptr);
  if (!status.ok()) return status;
  rep->index_block = *std::move(index);
  if (options.comparator == BytewiseComparator()) {
    // Block offsets only serve a per-block filter.
    const bool per_block_filter =
        rep->filter != nullptr &&
        rep->filter->layout() == FilterLayout::kPerBlock;
    rep->index_digest = RestartKeyDigest::Build(
        *rep->index_block,
        options.key_format == KeyFormat::kLevelDBInternal
            ? RestartKeyDigest::KeyOrder::kInternalBytewise
            : RestartKeyDigest::KeyOrder::kBytewise,
        per_block_filter);
  }

  if (cache != nullptr) {
    rep->cache_id = cache->NewId();
    if (options.cache_index_and_filter_blocks) {
      rep->cache_charge =
          rep->index_block->contents().size() +
          (rep->index_digest ? rep->index_digest->MemoryUsage() : 0) +
          (rep->filter ? rep->filter->size() : 0) +
          (rep->scan_filters ? rep->scan_filters->size() : 0);
      cache->AdjustPinnedCharge(static_cast<int64_t>(rep->cache_charge));
    }
  }
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
  std::shared_ptr<const Block> block;
  std::string_view found;
  absl::Status status = rep_->Lookup(read_options, key, &block, &found);
  if (!status.ok()) return status;
  value->assign(found.data(), found.size());
  return absl::OkStatus();
}

absl::Status Table::Get(const ReadOptions& read_options, std::string_view key,
                        PinnedValue* value) const {
  std::shared_ptr<const Block> block;
  std::string_view found;
  // `*value` is released only now: `key` may lie in what it pins.
  absl::Status status = rep_->Lookup(read_options, key, &block, &found);
  if (!status.ok()) {
    value->Reset();
    return status;
  }
  // Every data block owns its bytes (DecodeBlock copies them out of the
  // file's memory), so the block alone keeps the value alive.
  value->PinTo(std::move(block), found);
  return absl::OkStatus();
}

absl::Status Table::GetVersion(const ReadOptions& read_options,
                               std::string_view user_key, uint64_t max_sequence,
                               KeyVersion* version) const {
  std::shared_ptr<const Block> block;
  std::string_view found;
  absl::Status status = rep_->LookupVersion(
      read_options, user_key, max_sequence, version, &block, &found);
  if (!status.ok()) return status;
  version->value.assign(found.data(), found.size());
  return absl::OkStatus();
}

absl::Status Table::GetVersion(const ReadOptions& read_options,
                               std::string_view user_key, uint64_t max_sequence,
                               KeyVersion* version, PinnedValue* value) const {
  std::shared_ptr<const Block> block;
  std::string_view found;
  // `*value` is released only now: `user_key` may lie in what it pins.
  absl::Status status = rep_->LookupVersion(
      read_options, user_key, max_sequence, version, &block, &found);
  if (!status.ok()) {
    value->Reset();
    return status;
  }
  version->value.clear();
  if (version->deleted) {
    value->Reset();
  } else {
    value->PinTo(std::move(block), found);
  }
  return absl::OkStatus();
}

const BatchLookupTable& BatchLookupOf(const Table& table) {
  return *table.rep_;
}

std::vector<absl::StatusOr<KeyVersion>> Table::MultiGetVersion(
    const ReadOptions& read_options,
    const std::vector<std::string_view>& user_keys,
    uint64_t max_sequence) const {
  const Rep& r = *rep_;
  std::vector<absl::StatusOr<KeyVersion>> results(user_keys.size());
  if (r.options.key_format != KeyFormat::kLevelDBInternal) {
    for (auto& result : results) {
      result = absl::InvalidArgumentError(
          "MultiGetVersion needs a table of LevelDB internal keys");
    }
    return results;
  }
  const BatchSeekKeys seek(
      true, user_keys,
      PackSequenceAndType(std::min(max_sequence, kMaxSequenceNumber),
                          ValueType::kValue));
  BatchedBlockLookups(
      r, read_options, user_keys, seek.views(),
      [&](size_t i, absl::Status status) { results[i] = std::move(status); },
      [&](size_t i, const BlockHandle& handle,
          const absl::StatusOr<std::shared_ptr<const Block>>& block) {
        if (!block.ok()) {
          results[i] = block.status();
          return;
        }
        KeyVersion version;
        absl::Status status = r.VersionFromBlock(**block, handle, user_keys[i],
                                                 seek.views()[i], &version);
        if (status.ok()) {
          results[i] = std::move(version);
        } else {
          results[i] = std::move(status);
        }
      });
  return results;
}

absl::Status Table::ForEachEntry(
    const ReadOptions& read_options,
    const std::function<bool(std::string_view key, std::string_view value,
                             uint64_t block_offset)>& visit) const {
  const Rep& r = *rep_;
  BlockReadahead readahead(read_options.max_readahead_size);
  BlockIter index_iter(r.comparator, r.index_block.get());
  for (index_iter.SeekToFirst(); index_iter.Valid(); index_iter.Next()) {
    std::string_view encoded_handle = index_iter.value();
    BlockHandle handle;
    absl::Status status = handle.DecodeFrom(&encoded_handle);
    if (!status.ok()) return r.PlaceError(nullptr, status);
    absl::StatusOr<std::shared_ptr<const Block>> block =
        r.ReadDataBlock(read_options, handle, &readahead);
    if (!block.ok()) return block.status();
    BlockIter data_iter(r.comparator, block->get());
    for (data_iter.SeekToFirst(); data_iter.Valid(); data_iter.Next()) {
      if (!visit(data_iter.key(), data_iter.value(), handle.offset())) {
        return absl::OkStatus();
      }
    }
    if (!data_iter.status().ok()) {
      return r.PlaceError(&handle, data_iter.status());
    }
  }
  return index_iter.status().ok() ? absl::OkStatus()
                                  : r.PlaceError(nullptr, index_iter.status());
}

std::vector<TableBlockInfo> Table::IndexEntries() const {
  const Rep& r = *rep_;
  std::vector<TableBlockInfo> entries;
  BlockIter index_iter(r.comparator, r.index_block.get());
  for (index_iter.SeekToFirst(); index_iter.Valid(); index_iter.Next()) {
    std::string_view encoded_handle = index_iter.value();
    BlockHandle handle;
    // Open decoded every entry: none fails here.
    if (!handle.DecodeFrom(&encoded_handle).ok()) break;
    entries.push_back(TableBlockInfo{std::string(index_iter.key()),
                                     handle.offset(), handle.size()});
  }
  return entries;
}

absl::Status Table::ForEachEntryInBlock(
    const ReadOptions& read_options, const TableBlockInfo& block,
    const std::function<bool(std::string_view key, std::string_view value)>&
        visit) const {
  const Rep& r = *rep_;
  BlockHandle handle;
  handle.set_offset(block.offset);
  handle.set_size(block.size);
  absl::StatusOr<std::shared_ptr<const Block>> read =
      r.ReadDataBlock(read_options, handle, nullptr);
  if (!read.ok()) return read.status();
  BlockIter data_iter(r.comparator, read->get());
  for (data_iter.SeekToFirst(); data_iter.Valid(); data_iter.Next()) {
    if (!visit(data_iter.key(), data_iter.value())) return absl::OkStatus();
  }
  return data_iter.status().ok() ? absl::OkStatus()
                                 : r.PlaceError(&handle, data_iter.status());
}

std::vector<std::string> Table::ApproximateSplitKeys(size_t parts) const {
  const bool internal = rep_->options.key_format == KeyFormat::kLevelDBInternal;
  KeySplitter splitter;
  for (const TableBlockInfo& block : IndexEntries()) {
    splitter.Add(internal ? ExtractUserKey(block.separator)
                          : std::string_view(block.separator),
                 block.size + kBlockTrailerSize);
  }
  return splitter.Cut(parts, *rep_->options.comparator);
}

std::vector<absl::StatusOr<std::string>> Table::MultiGet(
    const ReadOptions& read_options,
    const std::vector<std::string_view>& keys) const {
  std::vector<absl::Status> statuses(keys.size());
  std::vector<std::string> values(keys.size());
  BatchedMultiGet(*rep_, read_options, keys, {&statuses, &values, nullptr});
  return ResultsOf(std::move(statuses), std::move(values));
}

std::vector<absl::Status> Table::MultiGet(
    const ReadOptions& read_options, const std::vector<std::string_view>& keys,
    std::vector<PinnedValue>* values) const {
  // Gathered apart and handed over at the end: a key may lie in what one
  // of `*values` holds until then.
  std::vector<PinnedValue> pins(keys.size());
  std::vector<absl::Status> statuses(keys.size());
  BatchedMultiGet(*rep_, read_options, keys, {&statuses, nullptr, &pins});
  *values = std::move(pins);
  return statuses;
}

std::unique_ptr<Iterator> Table::NewIterator(
    const ReadOptions& read_options) const {
  const Rep& r = *rep_;
  ScanSetup setup;
  setup.user_comparator = r.options.comparator;
  setup.internal_keys = r.options.key_format == KeyFormat::kLevelDBInternal;
  setup.prefix_extractor = r.options.prefix_extractor.get();
  setup.filters = r.scan_filters.get();
  return NewTwoLevelIterator(r.comparator, r.index_block.get(), &r,
                             read_options, setup);
}

bool Table::MayContainRange(std::string_view lo, std::string_view hi) const {
  const Rep& r = *rep_;
  if (r.options.comparator->Compare(lo, hi) >= 0) return false;
  const ScanFilters* filters = r.scan_filters.get();
  return filters == nullptr || !filters->CanAnswerRanges() ||
         filters->RangeMayMatch(lo, hi, /*ask_prefix=*/true);
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

size_t Table::ApproximateMemoryUsage() const {
  const Rep& r = *rep_;
  const int64_t pinned = r.pinned_bytes.load(std::memory_order_relaxed);
  return sizeof(Rep) + r.index_block->contents().size() +
         (r.index_digest ? r.index_digest->MemoryUsage() : 0) +
         (r.filter ? r.filter->size() : 0) +
         (r.scan_filters ? r.scan_filters->size() : 0) +
         static_cast<size_t>(pinned > 0 ? pinned : 0);
}

const TableFilterInfo& Table::filter_info() const { return rep_->filter_info; }

const ScanFilterInfo& Table::scan_filter_info() const {
  return rep_->scan_filter_info;
}

}  // namespace bloomtable
