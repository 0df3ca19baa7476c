#include "table/format.h"

#include <algorithm>
#include <cstring>

#include "absl/strings/str_format.h"
#include "util/coding.h"
#include "util/crc32c.h"
#include "util/string_util.h"

namespace bloomtable {

void BlockHandle::EncodeTo(std::string* dst) const {
  PutVarint64(dst, offset_);
  PutVarint64(dst, size_);
}

absl::Status BlockHandle::DecodeFrom(std::string_view* input) {
  if (GetVarint64(input, &offset_) && GetVarint64(input, &size_)) {
    return absl::OkStatus();
  }
  return absl::DataLossError("bad block handle");
}

bool BlockHandle::FitsWithin(uint64_t limit) const {
  // Written as subtractions so that huge offsets or sizes cannot overflow.
  return limit >= kBlockTrailerSize && offset_ <= limit - kBlockTrailerSize &&
         size_ <= limit - kBlockTrailerSize - offset_;
}

void Footer::EncodeTo(std::string* dst) const {
  const size_t start = dst->size();
  metaindex_handle_.EncodeTo(dst);
  index_handle_.EncodeTo(dst);
  dst->resize(start + 2 * BlockHandle::kMaxEncodedLength);  // zero padding
  PutFixed64(dst, kTableMagicNumber);
}

absl::Status Footer::DecodeFrom(std::string_view input) {
  if (input.size() != kEncodedLength) {
    return absl::DataLossError(absl::StrFormat(
        "footer has %u bytes, expected %u", input.size(), kEncodedLength));
  }
  const uint64_t magic = DecodeFixed64(input.data() + kEncodedLength - 8);
  if (magic == kRocksDBBlockBasedTableMagicNumber) {
    return absl::UnimplementedError(
        "a RocksDB block-based table (format_version 1 or later), not "
        "supported: only tables with LevelDB's magic number are read, as "
        "RocksDB writes them with format_version 0");
  }
  if (magic != kTableMagicNumber) {
    return absl::DataLossError(
        absl::StrFormat("not a table: bad magic number 0x%016x", magic));
  }
  std::string_view handles = input.substr(0, kEncodedLength - 8);
  absl::Status status = metaindex_handle_.DecodeFrom(&handles);
  if (status.ok()) status = index_handle_.DecodeFrom(&handles);
  if (!status.ok()) {
    return absl::DataLossError("footer: bad metaindex or index block handle");
  }
  return absl::OkStatus();
}

absl::Status CheckFooterLayout(const Footer& footer, uint64_t footer_offset) {
  const BlockHandle& index = footer.index_handle();
  const BlockHandle& metaindex = footer.metaindex_handle();
  if (!index.FitsWithin(footer_offset) ||
      !metaindex.FitsWithin(footer_offset)) {
    return absl::DataLossError(absl::StrFormat(
        "footer: index block (offset %u, size %u) or metaindex block (offset "
        "%u, size %u) extends past the footer at %u",
        index.offset(), index.size(), metaindex.offset(), metaindex.size(),
        footer_offset));
  }
  // No overflow: both fit below footer_offset.
  const uint64_t index_end = index.offset() + index.size() + kBlockTrailerSize;
  const uint64_t metaindex_end =
      metaindex.offset() + metaindex.size() + kBlockTrailerSize;
  if (index.offset() < metaindex_end && metaindex.offset() < index_end) {
    return absl::DataLossError(absl::StrFormat(
        "footer: index block (offset %u) and metaindex block (offset %u) "
        "overlap",
        index.offset(), metaindex.offset()));
  }
  if (index_end != footer_offset && metaindex_end != footer_offset) {
    return absl::DataLossError(absl::StrFormat(
        "footer: neither the index block (ending at %u) nor the metaindex "
        "block (ending at %u) ends where the footer begins (%u)",
        index_end, metaindex_end, footer_offset));
  }
  return absl::OkStatus();
}

namespace {

absl::Status BlockError(const BlockHandle& handle, std::string_view what,
                        absl::StatusCode code = absl::StatusCode::kDataLoss) {
  return absl::Status(
      code, absl::StrFormat("block at offset %u (size %u): %s", handle.offset(),
                            handle.size(), ToAbsl(what)));
}

// Blocks up to this size (with their trailer) are read into a stack buffer.
constexpr size_t kStackReadBytes = 16 * 1024;

}  // namespace

absl::StatusOr<BlockContents> ReadBlock(const RandomAccessFile& file,
                                        const BlockHandle& handle,
                                        const ReadBlockOptions& options,
                                        BlockReadReport* report) {
  BlockReadReport ignored_report;
  if (report == nullptr) report = &ignored_report;
  if (!handle.FitsWithin(options.readable_limit)) {
    return BlockError(handle, absl::StrFormat("extends past the readable end "
                                              "of the file (%u)",
                                              options.readable_limit));
  }
  // The check above bounds this by the file size.
  const size_t n = static_cast<size_t>(handle.size());
  const size_t read_size = n + kBlockTrailerSize;
  // Small blocks are read onto the stack: a compressed block (the usual
  // case) is then decompressed from there into its own buffer, with no
  // allocation for the stored bytes. Larger blocks, and uncompressed ones
  // (copied out below), get a heap buffer.
  char stack_scratch[kStackReadBytes];
  std::unique_ptr<char[]> buffer;
  char* scratch = stack_scratch;
  if (read_size > sizeof(stack_scratch)) {
    buffer.reset(new char[read_size]);
    scratch = buffer.get();
  }
  std::string_view bytes;
  absl::Status status = file.Read(handle.offset(), read_size, &bytes, scratch);
  report->bytes_read = bytes.size();
  if (!status.ok()) return status;
  // The heap buffer is reused only if the file read into it.
  if (bytes.data() != buffer.get()) buffer.reset();
  return DecodeBlock(handle, bytes, options, report, std::move(buffer));
}

absl::StatusOr<BlockContents> DecodeBlock(const BlockHandle& handle,
                                          std::string_view bytes,
                                          const ReadBlockOptions& options,
                                          BlockReadReport* report,
                                          std::unique_ptr<char[]> owned) {
  BlockReadReport ignored_report;
  if (report == nullptr) report = &ignored_report;
  const size_t n = static_cast<size_t>(handle.size());
  const size_t read_size = n + kBlockTrailerSize;
  if (bytes.size() != read_size) {
    return BlockError(handle, absl::StrFormat("truncated: read %u of %u bytes",
                                              bytes.size(), read_size));
  }

  const char* data = bytes.data();
  if (options.verify_checksum) {
    const uint32_t stored = crc32c::Unmask(DecodeFixed32(data + n + 1));
    const uint32_t actual = crc32c::Value(data, n + 1);  // contents + type
    if (stored != actual) {
      report->checksum_mismatch = true;
      return BlockError(handle, "checksum mismatch");
    }
  }

  const unsigned char type = static_cast<unsigned char>(data[n]);
  const std::string_view stored_bytes(data, n);
  report->codec = CodecOf(options.numbering, type, stored_bytes);
  if (type == kNoCompressionType) {
    std::unique_ptr<char[]> buffer = std::move(owned);
    if (buffer == nullptr) buffer.reset(new char[n]);
    if (data != buffer.get()) {
      // The bytes are on the stack, in a batch's buffer, or in the file's
      // own memory: copy, so the block owns its bytes whoever holds it (a
      // cache may keep it past the file).
      std::memcpy(buffer.get(), data, n);
    }
    BlockContents contents;
    contents.data = std::string_view(buffer.get(), n);
    contents.owned = std::move(buffer);
    return contents;
  }
  absl::StatusOr<BlockContents> contents = UncompressBlock(
      options.numbering, type, stored_bytes, options.zstd_contexts,
      options.max_uncompressed_block_size);
  if (!contents.ok()) {
    const absl::string_view message = contents.status().message();
    return BlockError(handle, std::string_view(message.data(), message.size()),
                      contents.status().code());
  }
  return contents;
}

}  // namespace bloomtable
