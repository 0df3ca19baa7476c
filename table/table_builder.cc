// TableBuilder: writes data blocks as keys arrive, then the filter,
// metaindex and index blocks and the footer (FORMAT.md, "The file"). The
// order of writes and every rule that shapes the bytes (when a block is
// flushed, how separators are shortened, when Snappy output is kept) follow
// leveldb::TableBuilder so that the files are byte-identical.

#include "bloomtable/table_builder.h"

#include <algorithm>
#include <limits>
#include <map>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "filter/filter_block.h"
#include "filter/range_filter.h"
#include "snappy.h"
#include "table/block_builder.h"
#include "table/format.h"
#include "table/full_filter_builder.h"
#include "table/internal_key.h"
#include "table/partitioned_filter_builder.h"
#include "table/prefix_filter_block.h"
#include "table/scan_filters.h"
#include "table/table_builder_limits.h"
#include "table/table_filter.h"
#include "util/coding.h"
#include "util/crc32c.h"
#include "util/zstd_codec.h"

namespace bloomtable {

struct TableBuilder::Rep {
  Rep(const Options& opts, WritableFile* f)
      : options(opts),
        internal_comparator(opts.comparator),
        comparator(opts.key_format == KeyFormat::kLevelDBInternal
                       ? &internal_comparator
                       : opts.comparator),
        file(f),
        data_block(opts.block_restart_interval),
        index_block(std::max(1, opts.index_block_restart_interval)) {
    if (options.compression == CompressionType::kZstd) {
      zstd = std::make_unique<ZstdCompressor>(options.zstd_compression_level);
    }
    if (options.range_filter_bits_per_key > 0) {
      if (options.comparator != BytewiseComparator()) {
        status = absl::InvalidArgumentError(
            "TableBuilder: a range filter needs the bytewise comparator");
      } else {
        RangeFilterOptions range_options;
        range_options.bits_per_key = options.range_filter_bits_per_key;
        range_options.max_range_length = options.range_filter_max_range_length;
        range_filter = std::make_unique<RangeFilterBuilder>(range_options);
      }
    }
    const FilterPolicy* policy = options.filter_policy.get();
    if (policy == nullptr) return;
    if (options.prefix_extractor != nullptr) {
      prefix_filter = std::make_unique<PrefixFilterBuilder>(
          policy, options.prefix_extractor.get(), options.whole_key_filtering);
      return;
    }
    // A policy that cannot build per-block filters gets the whole-table
    // layout even when per-block is asked for.
    if (options.filter_layout == FilterLayout::kPerBlock &&
        policy->SupportsPerBlock()) {
      per_block_filter =
          std::make_unique<FilterBlockBuilder>(policy, limits.max_filter_bytes);
      per_block_filter->StartBlock(0);
    } else if (options.filter_layout == FilterLayout::kPartitioned) {
      // Partitions cut by user keys, in the user comparator's order.
      partitioned_filter = std::make_unique<PartitionedFilterBuilder>(
          policy, options.comparator, options.filter_partition_keys);
    } else {
      whole_table_filter = std::make_unique<FullFilterBuilder>(policy);
    }
  }

  const Options options;
  TableBuilderLimits limits;  // table_builder_limits.h
  const InternalKeyComparator internal_comparator;
  const Comparator* const comparator;
  WritableFile* const file;
  uint64_t offset = 0;
  absl::Status status;
  BlockBuilder data_block;
  BlockBuilder index_block;
  std::string last_key;
  uint64_t num_entries = 0;
  bool closed = false;  // Finish or Abandon called
  std::unique_ptr<FilterBlockBuilder> per_block_filter;
  std::unique_ptr<FullFilterBuilder> whole_table_filter;
  std::unique_ptr<PartitionedFilterBuilder> partitioned_filter;
  std::unique_ptr<PrefixFilterBuilder> prefix_filter;
  std::unique_ptr<RangeFilterBuilder> range_filter;

  // The index entry of the last data block is written only when the next
  // key arrives (or at Finish), so that its separator can be shortened
  // against that key.
  bool pending_index_entry = false;
  BlockHandle pending_handle;

  std::unique_ptr<ZstdCompressor> zstd;  // when compression is kZstd
  std::string compressed;                // scratch for compressed output
  std::string handle_encoding;           // scratch

  void AddIndexEntry(std::string_view separator, const BlockHandle& handle) {
    handle_encoding.clear();
    handle.EncodeTo(&handle_encoding);
    // Add() reserved room assuming that separators are never longer than
    // the keys they stand for; a comparator that lengthens them fails here.
    if (index_block.CurrentSizeEstimate() +
            MaxBlockEntrySize(separator.size(), handle_encoding.size()) >
        limits.max_block_size) {
      status = absl::InvalidArgumentError(
          "TableBuilder: the index block would pass the largest block a "
          "reader accepts (the comparator lengthened a separator)");
      return;
    }
    index_block.Add(separator, handle_encoding);
  }

  // InvalidArgument if an entry of `key` and `value` must be refused
  // (table_builder_limits.h); nothing is changed either way.
  absl::Status CheckRoom(std::string_view key, std::string_view value) const;

  void Flush();
  void WriteBlock(BlockBuilder* block, BlockHandle* handle);
  void WriteRawBlock(std::string_view contents, unsigned char type,
                     BlockHandle* handle);
};

absl::Status TableBuilder::Rep::CheckRoom(std::string_view key,
                                          std::string_view value) const {
  // An empty block is its restart array: one offset and the count.
  constexpr uint64_t kEmptyBlockSize = 2 * sizeof(uint32_t);
  const uint64_t room = limits.max_block_size - kEmptyBlockSize;
  if (key.size() > room || value.size() > room ||
      MaxBlockEntrySize(key.size(), value.size()) > room) {
    return absl::InvalidArgumentError(absl::StrCat(
        "TableBuilder::Add: an entry of a ", key.size(), "-byte key and a ",
        value.size(), "-byte value cannot fit in a block (at most ",
        limits.max_block_size, " bytes, what a reader accepts)"));
  }
  // Room in the index for the entry of the block before this key (if its
  // entry is not written yet) and for that of the block this key ends.
  const uint64_t index_needed =
      index_block.CurrentSizeEstimate() +
      (num_entries > 0 ? MaxIndexEntrySize(last_key.size()) : 0) +
      MaxIndexEntrySize(key.size());
  if (index_needed > limits.max_block_size) {
    return absl::InvalidArgumentError(absl::StrCat(
        "TableBuilder::Add: the table is full: its index block could pass ",
        limits.max_block_size,
        " bytes, what a reader accepts (Finish it and start another)"));
  }
  return absl::OkStatus();
}

void TableBuilder::Rep::Flush() {
  if (data_block.empty()) return;
  WriteBlock(&data_block, &pending_handle);
  if (status.ok()) {
    pending_index_entry = true;
    status = file->Flush();
  }
  // The next data block (or the end of the data) starts here.
  if (per_block_filter != nullptr) per_block_filter->StartBlock(offset);
}

void TableBuilder::Rep::WriteBlock(BlockBuilder* block, BlockHandle* handle) {
  const std::string_view raw = block->Finish();
  std::string_view contents = raw;
  unsigned char type = kNoCompressionType;
  compressed.clear();
  // A block too large for a reader to accept decompressed
  // (kMaxUncompressedBlockSize, 4 GiB) is stored raw.
  if (raw.size() <= kMaxUncompressedBlockSize) {
    switch (options.compression) {
      case CompressionType::kNone:
        break;
      case CompressionType::kSnappy:
        snappy::Compress(raw.data(), raw.size(), &compressed);
        type = kSnappyCompressionType;
        break;
      case CompressionType::kZstd:
        status = zstd->Compress(raw, &compressed);
        if (!status.ok()) return;
        type = kZstdCompressionType;
        break;
    }
  }
  // Keep the compressed form only if it saves at least an eighth: below
  // that, decompressing costs more than the bytes saved.
  if (type != kNoCompressionType &&
      compressed.size() < raw.size() - raw.size() / 8) {
    contents = compressed;
  } else {
    type = kNoCompressionType;
  }
  WriteRawBlock(contents, type, handle);
  compressed.clear();
  block->Reset();
}

void TableBuilder::Rep::WriteRawBlock(std::string_view contents,
                                      unsigned char type, BlockHandle* handle) {
  handle->set_offset(offset);
  handle->set_size(contents.size());
  status = file->Append(contents);
  if (!status.ok()) return;
  // Trailer: the type byte, then the masked CRC32C of contents and type.
  char trailer[kBlockTrailerSize];
  trailer[0] = static_cast<char>(type);
  uint32_t crc = crc32c::Value(contents.data(), contents.size());
  crc = crc32c::Extend(crc, trailer, 1);
  EncodeFixed32(trailer + 1, crc32c::Mask(crc));
  status = file->Append(std::string_view(trailer, kBlockTrailerSize));
  if (status.ok()) offset += contents.size() + kBlockTrailerSize;
}

TableBuilder::TableBuilder(const Options& options, WritableFile* file)
    : rep_(std::make_unique<Rep>(options, file)) {}

TableBuilder::~TableBuilder() = default;

absl::Status TableBuilder::Add(std::string_view key, std::string_view value) {
  Rep& r = *rep_;
  if (!r.status.ok()) return r.status;
  if (r.closed) {
    return absl::InvalidArgumentError("TableBuilder::Add after Finish/Abandon");
  }
  // Refused for its size alone, the entry changes nothing: the builder
  // stays usable.
  absl::Status room = r.CheckRoom(key, value);
  if (!room.ok()) return room;
  std::string_view filter_key = key;
  if (r.options.key_format == KeyFormat::kLevelDBInternal) {
    ParsedInternalKey parsed;
    if (!ParseInternalKey(key, &parsed)) {
      return r.status = absl::InvalidArgumentError(absl::StrCat(
                 "TableBuilder::Add: not a LevelDB internal key (", key.size(),
                 " bytes, or a type other than 0 and 1)"));
    }
    filter_key = parsed.user_key;  // filters hold user keys
  }
  if (r.num_entries > 0) {
    const int order = r.comparator->Compare(key, r.last_key);
    if (order <= 0) {
      return r.status = absl::InvalidArgumentError(
                 order == 0 ? "TableBuilder::Add: duplicate key"
                            : "TableBuilder::Add: key out of order (keys "
                              "must be added in strictly increasing order)");
    }
  }

  // End the data block early rather than let this entry take it past what
  // a reader accepts.
  if (!r.data_block.empty() &&
      r.data_block.CurrentSizeEstimate() +
              MaxBlockEntrySize(key.size(), value.size()) >
          r.limits.max_block_size) {
    r.Flush();
    if (!r.status.ok()) return r.status;
  }

  if (r.pending_index_entry) {
    r.comparator->FindShortestSeparator(&r.last_key, key);
    r.AddIndexEntry(r.last_key, r.pending_handle);
    r.pending_index_entry = false;
    if (!r.status.ok()) return r.status;
  }
  if (r.per_block_filter != nullptr) r.per_block_filter->AddKey(filter_key);
  if (r.whole_table_filter != nullptr) {
    r.whole_table_filter->AddKey(filter_key);
  }
  if (r.partitioned_filter != nullptr) {
    r.partitioned_filter->AddKey(filter_key);
  }
  if (r.prefix_filter != nullptr) r.prefix_filter->AddKey(filter_key);
  if (r.range_filter != nullptr) r.range_filter->AddKey(filter_key);

  r.last_key.assign(key.data(), key.size());
  ++r.num_entries;
  r.data_block.Add(key, value);
  if (r.data_block.CurrentSizeEstimate() >= r.options.block_size) r.Flush();
  return r.status;
}

absl::Status TableBuilder::Finish() {
  Rep& r = *rep_;
  if (!r.status.ok()) return r.status;
  if (r.closed) {
    return absl::InvalidArgumentError(
        "TableBuilder::Finish after Finish/Abandon");
  }
  r.Flush();
  r.closed = true;

  // Filter blocks: never compressed. Their metaindex entries, in key order.
  std::map<std::string, BlockHandle> meta_blocks;
  const std::string policy_name =
      r.options.filter_policy != nullptr
          ? std::string(r.options.filter_policy->Name())
          : std::string();
  if (r.status.ok() && r.per_block_filter != nullptr) {
    r.WriteRawBlock(
        r.per_block_filter->Finish(), kNoCompressionType,
        &meta_blocks[std::string(kPerBlockFilterPrefix) + policy_name]);
  } else if (r.status.ok() && r.whole_table_filter != nullptr) {
    std::string filter;
    r.whole_table_filter->Finish(&filter);
    r.WriteRawBlock(
        filter, kNoCompressionType,
        &meta_blocks[std::string(kWholeTableFilterPrefix) + policy_name]);
  } else if (r.status.ok() && r.partitioned_filter != nullptr) {
    // The partitions, then their top-level index (the block the metaindex
    // names), all uncompressed.
    std::string top_level_index;
    absl::Status status = r.partitioned_filter->Finish(
        [&r](std::string_view partition, BlockHandle* handle) {
          r.WriteRawBlock(partition, kNoCompressionType, handle);
          return r.status;
        },
        &top_level_index);
    if (status.ok()) {
      r.WriteRawBlock(
          top_level_index, kNoCompressionType,
          &meta_blocks[std::string(kPartitionedFilterPrefix) + policy_name]);
    }
  } else if (r.status.ok() && r.prefix_filter != nullptr) {
    std::string filter;
    r.prefix_filter->Finish(&filter);
    r.WriteRawBlock(
        filter, kNoCompressionType,
        &meta_blocks[std::string(kPrefixFilterMetaPrefix) + policy_name]);
  }

  if (r.status.ok() && r.range_filter != nullptr) {
    r.WriteRawBlock(r.range_filter->Finish(), kNoCompressionType,
                    &meta_blocks[std::string(kRangeFilterMetaPrefix) +
                                 std::string(RangeFilterBuilder::kName)]);
  }

  // Metaindex block: the filters' entries, if any.
  BlockHandle metaindex_handle;
  if (r.status.ok()) {
    BlockBuilder metaindex_block(r.options.block_restart_interval);
    std::string encoded;
    for (const auto& [key, handle] : meta_blocks) {
      encoded.clear();
      handle.EncodeTo(&encoded);
      metaindex_block.Add(key, encoded);
    }
    r.WriteBlock(&metaindex_block, &metaindex_handle);
  }

  // Index block, with the last data block's entry: a short successor of
  // its last key.
  BlockHandle index_handle;
  if (r.status.ok()) {
    if (r.pending_index_entry) {
      r.comparator->FindShortSuccessor(&r.last_key);
      r.AddIndexEntry(r.last_key, r.pending_handle);
      r.pending_index_entry = false;
    }
    if (r.status.ok()) r.WriteBlock(&r.index_block, &index_handle);
  }

  if (r.status.ok()) {
    std::string footer;
    Footer(metaindex_handle, index_handle).EncodeTo(&footer);
    r.status = r.file->Append(footer);
    if (r.status.ok()) r.offset += footer.size();
  }
  return r.status;
}

void TableBuilder::Abandon() { rep_->closed = true; }

void TableBuilderTestPeer::SetLimits(TableBuilder* builder,
                                     const TableBuilderLimits& limits) {
  TableBuilder::Rep& r = *builder->rep_;
  r.limits = limits;
  if (r.per_block_filter != nullptr) {
    r.per_block_filter = std::make_unique<FilterBlockBuilder>(
        r.options.filter_policy.get(), limits.max_filter_bytes);
    r.per_block_filter->StartBlock(0);
  }
}

absl::Status TableBuilder::status() const { return rep_->status; }

uint64_t TableBuilder::NumEntries() const { return rep_->num_entries; }

uint64_t TableBuilder::FileSize() const { return rep_->offset; }

}  // namespace bloomtable
