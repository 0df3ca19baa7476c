#include "table/table_salvage.h"

#include <memory>
#include <optional>
#include <set>
#include <utility>

#include "absl/strings/str_cat.h"
#include "table/block.h"
#include "table/format.h"
#include "table/internal_key.h"
#include "util/coding.h"
#include "util/crc32c.h"
#include "util/crc32c_repair.h"
#include "util/string_util.h"

namespace bloomtable {
namespace {

// A block found or named by a handle, with its contents once verified.
struct ReadResult {
  BlockContents contents;
  std::string repaired;  // the repaired copy that contents may point into
  std::string note;      // what was repaired, if anything
};

class Salvager {
 public:
  Salvager(std::string_view bytes, const TableSalvageOptions& options,
           std::vector<std::string>* problems)
      : bytes_(bytes), options_(options), problems_(problems) {
    block_options_.verify_checksum = true;
    block_options_.readable_limit = bytes.size();
    block_options_.max_uncompressed_block_size =
        options.max_uncompressed_block_size;
  }

  // The data blocks' handles, from the index or by walking the file.
  std::vector<BlockHandle> DataBlocks() {
    std::string why;
    if (std::optional<std::vector<BlockHandle>> indexed = FromIndex(&why)) {
      return *std::move(indexed);
    }
    Problem(
        0, absl::StrCat(why, "; data blocks found by their checksums instead"));
    return Walk();
  }

  // Reads the block at `handle`, repairing one damaged byte if that makes
  // its checksum pass; nullopt (with `*why`) if it cannot be read.
  std::optional<ReadResult> Read(const BlockHandle& handle, std::string* why) {
    if (handle.offset() > bytes_.size() ||
        bytes_.size() - handle.offset() < handle.size() + kBlockTrailerSize) {
      *why = "past the end of the file";
      return std::nullopt;
    }
    const std::string_view raw =
        bytes_.substr(handle.offset(), handle.size() + kBlockTrailerSize);
    BlockReadReport report;
    absl::StatusOr<BlockContents> decoded =
        DecodeBlock(handle, raw, block_options_, &report, nullptr);
    ReadResult result;
    if (decoded.ok()) {
      result.contents = *std::move(decoded);
      return result;
    }
    if (!report.checksum_mismatch) {
      *why = std::string(decoded.status().message());
      return std::nullopt;
    }
    // The checksum covers the contents and the type byte.
    const std::string_view covered = raw.substr(0, handle.size() + 1);
    const uint32_t stored = DecodeFixed32(raw.data() + handle.size() + 1);
    const uint32_t actual = crc32c::Value(covered);
    int candidates = 0;
    std::string repaired;
    if (crc32c::DifferInOneByte(crc32c::Mask(actual), stored)) {
      ++candidates;
      repaired.assign(raw);
      EncodeFixed32(repaired.data() + handle.size() + 1, crc32c::Mask(actual));
      result.note = "one byte of its checksum";
    }
    if (std::optional<crc32c::ByteRepair> fix =
            crc32c::FindSingleByteRepair(covered, crc32c::Unmask(stored))) {
      ++candidates;
      repaired.assign(raw);
      repaired[fix->position] ^= static_cast<char>(fix->xor_mask);
      result.note =
          absl::StrCat("the byte at offset ", handle.offset() + fix->position);
    }
    if (candidates != 1) {
      *why = std::string(decoded.status().message());
      return std::nullopt;
    }
    result.repaired = std::move(repaired);
    decoded =
        DecodeBlock(handle, result.repaired, block_options_, nullptr, nullptr);
    if (!decoded.ok()) {
      *why = absl::StrCat(decoded.status().message(), " (after repairing ",
                          result.note, ")");
      return std::nullopt;
    }
    result.contents = *std::move(decoded);
    return result;
  }

  void Problem(uint64_t offset, std::string_view what) {
    problems_->push_back(
        absl::StrCat("at offset ", offset, ": ", ToAbsl(what)));
  }

 private:
  std::optional<std::vector<BlockHandle>> FromIndex(std::string* why) {
    if (bytes_.size() < Footer::kEncodedLength) {
      *why = "shorter than a table's footer";
      return std::nullopt;
    }
    const uint64_t footer_offset = bytes_.size() - Footer::kEncodedLength;
    Footer footer;
    absl::Status status = footer.DecodeFrom(bytes_.substr(footer_offset));
    if (status.ok()) status = CheckFooterLayout(footer, footer_offset);
    if (!status.ok()) {
      *why = absl::StrCat("footer: ", status.message());
      return std::nullopt;
    }
    std::string read_why;
    std::optional<ReadResult> index = Read(footer.index_handle(), &read_why);
    if (!index.has_value()) {
      *why = absl::StrCat("index block at offset ",
                          footer.index_handle().offset(), ": ", read_why);
      return std::nullopt;
    }
    if (!index->note.empty()) {
      Problem(footer.index_handle().offset(),
              absl::StrCat("index block repaired: ", index->note));
    }
    std::vector<BlockHandle> handles;
    if (!ForEachEntry(std::move(index->contents),
                      [&handles](std::string_view, std::string_view value) {
                        BlockHandle handle;
                        if (!handle.DecodeFrom(&value).ok()) return false;
                        handles.push_back(handle);
                        return true;
                      })) {
      *why = "index block does not decode";
      return std::nullopt;
    }
    return handles;
  }

  // Calls `fn` on each entry of a block; false if the block does not parse
  // or `fn` says no.
  template <typename Fn>
  static bool ForEachEntry(BlockContents contents, const Fn& fn) {
    absl::StatusOr<std::shared_ptr<const Block>> block =
        Block::Parse(std::move(contents));
    if (!block.ok()) return false;
    BlockIter it(BytewiseComparator(), block->get());
    for (it.SeekToFirst(); it.Valid(); it.Next()) {
      if (!fn(it.key(), it.value())) return false;
    }
    return it.status().ok();
  }

  // Every block from the file's start whose trailer's checksum matches the
  // bytes before it, one after the other; the data blocks among them.
  std::vector<BlockHandle> Walk() {
    std::vector<BlockHandle> found;
    uint64_t start = 0;
    while (start + kBlockTrailerSize <= bytes_.size()) {
      std::optional<uint64_t> end = NextTrailer(start);
      if (!end.has_value() && bytes_.size() - start <= Footer::kEncodedLength) {
        break;  // the footer, whose damage sent us walking
      }
      if (!end.has_value()) {
        Problem(start, absl::StrCat("no block whose checksum matches in the ",
                                    bytes_.size() - start,
                                    " bytes from here: not read"));
        break;
      }
      found.emplace_back(start, *end - start);
      start = *end + kBlockTrailerSize;
    }
    std::set<std::pair<uint64_t, uint64_t>> blocks;
    for (const BlockHandle& h : found) blocks.emplace(h.offset(), h.size());
    std::vector<BlockHandle> data;
    for (const BlockHandle& handle : found) {
      std::string why;
      std::optional<ReadResult> block = Read(handle, &why);
      if (!block.has_value()) continue;
      bool keys = true;     // every key an internal key
      bool handles = true;  // every value a handle to a found block
      size_t entries = 0;
      const bool parsed = ForEachEntry(
          std::move(block->contents),
          [&](std::string_view key, std::string_view value) {
            ++entries;
            ParsedInternalKey parsed_key;
            if (!ParseInternalKey(key, &parsed_key)) keys = false;
            BlockHandle target;
            if (!target.DecodeFrom(&value).ok() || !value.empty() ||
                blocks.count({target.offset(), target.size()}) == 0) {
              handles = false;
            }
            return true;
          });
      // The index block's values point at the other blocks; the filter
      // and metaindex blocks do not hold internal keys.
      if (parsed && entries > 0 && keys && !handles) data.push_back(handle);
    }
    return data;
  }

  // The offset of the first trailer after `start` whose checksum covers
  // [start, offset) and the trailer's type byte.
  std::optional<uint64_t> NextTrailer(uint64_t start) const {
    uint32_t crc = 0;  // CRC32C of [start, end)
    for (uint64_t end = start; end + kBlockTrailerSize <= bytes_.size();
         ++end) {
      const char* type = bytes_.data() + end;
      const uint32_t with_type = crc32c::Extend(crc, type, 1);
      if (end > start && crc32c::Mask(with_type) == DecodeFixed32(type + 1)) {
        return end;
      }
      crc = with_type;
    }
    return std::nullopt;
  }

  const std::string_view bytes_;
  const TableSalvageOptions options_;
  std::vector<std::string>* const problems_;
  ReadBlockOptions block_options_;
};

}  // namespace

absl::Status SalvageTable(
    const RandomAccessFile& file, uint64_t file_size,
    const TableSalvageOptions& options,
    const std::function<void(std::string_view key, std::string_view value,
                             uint64_t block_offset)>& entry,
    std::vector<std::string>* problems) {
  std::unique_ptr<char[]> scratch(new char[file_size == 0 ? 1 : file_size]);
  std::string_view bytes;
  absl::Status read = file.Read(0, file_size, &bytes, scratch.get());
  if (!read.ok()) return read;
  Salvager salvager(bytes, options, problems);
  for (const BlockHandle& handle : salvager.DataBlocks()) {
    std::string why;
    std::optional<ReadResult> block = salvager.Read(handle, &why);
    if (!block.has_value()) {
      salvager.Problem(handle.offset(),
                       absl::StrCat("data block (size ", handle.size(),
                                    "): ", why, "; its entries are skipped"));
      continue;
    }
    if (!block->note.empty()) {
      salvager.Problem(handle.offset(),
                       absl::StrCat("data block (size ", handle.size(),
                                    ") repaired: ", block->note));
    }
    // A block whose checksum passed but whose entries do not decode (a
    // writer's bug) is skipped whole: its entries are not vouched for.
    std::vector<std::pair<std::string, std::string>> entries;
    absl::StatusOr<std::shared_ptr<const Block>> parsed =
        Block::Parse(std::move(block->contents));
    bool sound = parsed.ok();
    if (sound) {
      BlockIter it(BytewiseComparator(), parsed->get());
      for (it.SeekToFirst(); it.Valid(); it.Next()) {
        ParsedInternalKey key;
        if (!ParseInternalKey(it.key(), &key)) {
          sound = false;
          break;
        }
        entries.emplace_back(it.key(), it.value());
      }
      sound = sound && it.status().ok();
    }
    if (!sound) {
      salvager.Problem(handle.offset(),
                       absl::StrCat("data block (size ", handle.size(),
                                    ") does not decode; its entries are "
                                    "skipped"));
      continue;
    }
    for (const auto& [key, value] : entries) entry(key, value, handle.offset());
  }
  return absl::OkStatus();
}

}  // namespace bloomtable
