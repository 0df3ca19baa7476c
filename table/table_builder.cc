// TableBuilder: writes data blocks as keys arrive, then the filter,
// metaindex and index blocks and the footer (FORMAT.md, "The file"). The
// order of writes and every rule that shapes the bytes (when a block is
// flushed, how separators are shortened, when Snappy output is kept) follow
// leveldb::TableBuilder so that the files are byte-identical.

#include "bloomtable/table_builder.h"

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
#include "table/prefix_filter_block.h"
#include "table/scan_filters.h"
#include "table/table_filter.h"
#include "util/coding.h"
#include "util/crc32c.h"

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
        // Index entries are looked up by binary search alone: every entry
        // is a restart point.
        index_block(1) {
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
      per_block_filter = std::make_unique<FilterBlockBuilder>(policy);
      per_block_filter->StartBlock(0);
    } else {
      whole_table_filter = std::make_unique<FullFilterBuilder>(policy);
    }
  }

  const Options options;
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
  std::unique_ptr<PrefixFilterBuilder> prefix_filter;
  std::unique_ptr<RangeFilterBuilder> range_filter;

  // The index entry of the last data block is written only when the next
  // key arrives (or at Finish), so that its separator can be shortened
  // against that key.
  bool pending_index_entry = false;
  BlockHandle pending_handle;

  std::string compressed;       // scratch for Snappy output
  std::string handle_encoding;  // scratch

  void AddIndexEntry(std::string_view separator, const BlockHandle& handle) {
    handle_encoding.clear();
    handle.EncodeTo(&handle_encoding);
    index_block.Add(separator, handle_encoding);
  }

  void Flush();
  void WriteBlock(BlockBuilder* block, BlockHandle* handle);
  void WriteRawBlock(std::string_view contents, unsigned char type,
                     BlockHandle* handle);
};

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
  // A block too large for a reader to accept decompressed (format.h's
  // MaxUncompressedBlockSize) is stored raw, so that every file written here
  // can be read back; LevelDB would compress it (the one byte difference,
  // only for blocks over 64 MiB).
  if (options.compression == CompressionType::kSnappy &&
      raw.size() <= MaxUncompressedBlockSize(options.block_size)) {
    compressed.clear();
    snappy::Compress(raw.data(), raw.size(), &compressed);
    // Keep the compressed form only if it saves at least an eighth: below
    // that, decompressing costs more than the bytes saved.
    if (compressed.size() < raw.size() - raw.size() / 8) {
      contents = compressed;
      type = kSnappyCompressionType;
    }
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
  // Entry lengths are stored as varint32s.
  constexpr size_t kMaxLength = std::numeric_limits<uint32_t>::max();
  if (key.size() > kMaxLength || value.size() > kMaxLength) {
    return r.status = absl::InvalidArgumentError(
               "TableBuilder::Add: key or value of 4 GiB or more");
  }
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

  if (r.pending_index_entry) {
    r.comparator->FindShortestSeparator(&r.last_key, key);
    r.AddIndexEntry(r.last_key, r.pending_handle);
    r.pending_index_entry = false;
  }
  if (r.per_block_filter != nullptr) r.per_block_filter->AddKey(filter_key);
  if (r.whole_table_filter != nullptr) {
    r.whole_table_filter->AddKey(filter_key);
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
    r.WriteBlock(&r.index_block, &index_handle);
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

absl::Status TableBuilder::status() const { return rep_->status; }

uint64_t TableBuilder::NumEntries() const { return rep_->num_entries; }

uint64_t TableBuilder::FileSize() const { return rep_->offset; }

}  // namespace bloomtable
