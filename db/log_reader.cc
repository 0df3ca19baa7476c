// LogReader: one block in memory at a time; each step reads one fragment
// (or trailer) at the current offset and queues the entries it completes.
// Which damage is reported, and where reading stops, follows LevelDB 1.23's
// log reader, fragment type by fragment type.

#include "bloomtable/log_reader.h"

#include <algorithm>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "db/log_format.h"
#include "util/coding.h"
#include "util/crc32c.h"
#include "util/crc32c_repair.h"
#include "util/posix_file.h"
#include "util/string_util.h"

namespace bloomtable {
namespace {

constexpr char kRecoveredReason[] =
    "read by salvage (a repaired byte, or after damage in its block): "
    "LevelDB's reader skips it";

bool AllZeros(std::string_view bytes) {
  return std::all_of(bytes.begin(), bytes.end(),
                     [](char c) { return c == '\0'; });
}

}  // namespace

class LogReader::Impl {
 public:
  Impl(const RandomAccessFile* file, uint64_t file_size, const Options& options)
      : file_(file),
        file_size_(file_size),
        options_(options),
        scratch_(new char[log::kBlockSize]) {}

  bool Next(LogEntry* entry);
  const absl::Status& status() const { return status_; }
  const LogAccounting& accounting() const { return accounting_; }
  void Count(const LogEntry& entry);

 private:
  // Whether LevelDB's reader reports a damaged stretch (LogEntry's
  // leveldb_reports).
  enum Report : bool { kSilent = false, kReported = true };

  // Reads the block that holds `pos_` unless it is the one held. False on an
  // I/O error or a short read.
  bool LoadBlock();
  // Advances by one fragment, trailer or damaged stretch, queueing what it
  // completes. False at the end of the file or after an error.
  bool Step();
  // Step's work once the fragment at pos_ has a whole header in its block.
  void ReadFragment(std::string_view rest, uint64_t block_end);
  // Takes the fragment at pos_ whose checksum passed (or was repaired):
  // `header` points at its 7-byte header, followed by `length` bytes of
  // payload. `recovered`: a fragment LevelDB's reader would not return.
  void Accept(const char* header, uint32_t length, int type, bool recovered);
  // Salvage, for the fragment at pos_ where LevelDB gives up the rest of
  // the block for `why`: repairs it (then reads it) or resynchronises at
  // the next whole fragment of the block. False if neither is possible.
  bool Salvage(std::string_view rest, uint64_t block_end, std::string_view why);
  // The fragment at `rest` (a header's start) is whole: a known type, a
  // length inside the block, a matching checksum.
  static bool WholeFragment(std::string_view rest);
  void Emit(LogEntry::Kind kind, uint64_t offset, uint64_t end,
            std::string reason = std::string(), Report report = kSilent);
  // The pending chain of fragments, if any, is damage up to `end`.
  void DropChain(uint64_t end, std::string_view reason, Report report);
  // The rest of the block from pos_ is damage.
  void DropBlock(uint64_t block_end, std::string reason, Report report);

  const RandomAccessFile* const file_;
  const uint64_t file_size_;
  const Options options_;
  std::unique_ptr<char[]> scratch_;

  absl::Status status_;
  LogAccounting accounting_;
  std::deque<LogEntry> ready_;

  // The next byte to read, and the block in memory.
  uint64_t pos_ = 0;
  uint64_t block_start_ = 0;
  std::string_view block_;
  bool block_loaded_ = false;
  // An end-of-file marker was read: nothing more is read.
  bool ended_ = false;

  // Salvage resynchronised in the block that ends here: the fragments read
  // before it are ones LevelDB's reader skips.
  uint64_t recovering_until_ = 0;
  // The repaired copy of a fragment (header and payload) being read.
  std::string repaired_;

  // A FIRST fragment was read and its LAST not yet.
  bool in_chain_ = false;
  bool chain_recovered_ = false;
  uint64_t chain_start_ = 0;
  int chain_fragments_ = 0;
  std::string chain_payload_;
};

bool LogReader::Impl::LoadBlock() {
  const uint64_t start = pos_ - pos_ % log::kBlockSize;
  if (block_loaded_ && start == block_start_) return true;
  const size_t want = static_cast<size_t>(
      std::min<uint64_t>(log::kBlockSize, file_size_ - start));
  std::string_view result;
  absl::Status read = file_->Read(start, want, &result, scratch_.get());
  if (!read.ok()) {
    status_ = std::move(read);
    return false;
  }
  if (result.size() != want) {
    status_ = absl::DataLossError(
        absl::StrCat(file_->name(), ": read ", result.size(),
                     " bytes at offset ", start, ", expected ", want,
                     " (the file is shorter than ", file_size_, " bytes)"));
    return false;
  }
  block_start_ = start;
  block_ = result;
  block_loaded_ = true;
  return true;
}

void LogReader::Impl::Emit(LogEntry::Kind kind, uint64_t offset, uint64_t end,
                           std::string reason, Report report) {
  if (end == offset) return;  // nothing to account for
  LogEntry entry;
  entry.kind = kind;
  entry.offset = offset;
  entry.length = end - offset;
  entry.reason = std::move(reason);
  entry.leveldb_reports = report == kReported;
  ready_.push_back(std::move(entry));
}

void LogReader::Impl::DropChain(uint64_t end, std::string_view reason,
                                Report report) {
  if (!in_chain_) return;
  Emit(LogEntry::Kind::kDamage, chain_start_, end, std::string(reason), report);
  in_chain_ = false;
  chain_fragments_ = 0;
  chain_payload_.clear();
}

void LogReader::Impl::DropBlock(uint64_t block_end, std::string reason,
                                Report report) {
  Emit(LogEntry::Kind::kDamage, pos_, block_end, std::move(reason), report);
  pos_ = block_end;
}

bool LogReader::Impl::Step() {
  if (!status_.ok() || ended_) return false;
  if (pos_ >= file_size_) {
    // The writer died before the chain's LAST fragment: LevelDB drops the
    // record silently.
    DropChain(file_size_, "truncated record at end of file", kSilent);
    return false;
  }
  if (!LoadBlock()) return false;
  const size_t in_block = static_cast<size_t>(pos_ - block_start_);
  const std::string_view rest = block_.substr(in_block);
  const uint64_t block_end = block_start_ + block_.size();

  // A trailer: too little room left in the block for a header. LevelDB
  // skips it unread, whatever it holds.
  if (log::kBlockSize - in_block < log::kHeaderSize) {
    if (!in_chain_) {
      if (AllZeros(rest)) {
        Emit(LogEntry::Kind::kPadding, pos_, block_end);
      } else {
        Emit(LogEntry::Kind::kDamage, pos_, block_end,
             "non-zero block trailer");
      }
    }
    // Between the fragments of a record, the trailer is part of its span.
    pos_ = block_end;
    return true;
  }

  // The file ends inside a header: LevelDB takes it as the end, silently.
  if (rest.size() < log::kHeaderSize) {
    if (in_chain_) {
      DropChain(block_end, "truncated record at end of file", kSilent);
    } else if (AllZeros(rest)) {
      Emit(LogEntry::Kind::kPadding, pos_, block_end);
    } else {
      Emit(LogEntry::Kind::kDamage, pos_, block_end,
           "truncated record header at end of file");
    }
    pos_ = block_end;
    return true;
  }
  ReadFragment(rest, block_end);
  return true;
}

void LogReader::Impl::ReadFragment(std::string_view rest, uint64_t block_end) {
  const char* header = rest.data();
  const uint32_t length =
      static_cast<unsigned char>(header[4]) |
      (static_cast<uint32_t>(static_cast<unsigned char>(header[5])) << 8);
  const int type = static_cast<unsigned char>(header[6]);
  if (log::kHeaderSize + length > rest.size()) {
    if (options_.salvage &&
        Salvage(rest, block_end, absl::StrCat("bad record length ", length))) {
      return;
    }
    if (block_end == file_size_ && block_.size() < log::kBlockSize) {
      // In the last, short block: a write the crash cut short. LevelDB
      // stops there silently.
      DropChain(pos_, "truncated record at end of file", kSilent);
      DropBlock(block_end, "truncated record at end of file", kSilent);
    } else {
      DropChain(pos_, "partial record without end", kReported);
      DropBlock(block_end, absl::StrCat("bad record length ", length),
                kReported);
    }
    return;
  }

  if (type == log::kZeroType && length == 0) {
    // Zeros left by a writer that preallocated or mapped the file. LevelDB
    // skips the rest of the block here, silently, but reports a record whose
    // chain this breaks; so does this reader.
    DropChain(pos_, "partial record without end", kReported);
    if (AllZeros(rest)) {
      Emit(LogEntry::Kind::kPadding, pos_, block_end);
      pos_ = block_end;
      return;
    }
    const size_t zero_run = std::find_if(rest.begin(), rest.end(),
                                         [](char c) { return c != '\0'; }) -
                            rest.begin();
    Emit(LogEntry::Kind::kPadding, pos_, pos_ + zero_run);
    pos_ += zero_run;
    if (options_.salvage && block_end - pos_ >= log::kHeaderSize &&
        Salvage(rest.substr(zero_run), block_end,
                zero_run == 0 ? "record of reserved type 0"
                              : "data after zero padding in the same block")) {
      return;
    }
    // A type-0 header that is not all zeros (its checksum bytes are set),
    // or zeros with data after them: what LevelDB skips unread is damage.
    DropBlock(block_end,
              zero_run == 0 ? "record of reserved type 0"
                            : "data after zero padding in the same block",
              kSilent);
    return;
  }

  if (options_.verify_checksums) {
    const uint32_t expected = crc32c::Unmask(DecodeFixed32(header));
    const uint32_t actual = crc32c::Value(header + 6, 1 + length);
    if (actual != expected) {
      if (options_.salvage && Salvage(rest, block_end, "checksum mismatch")) {
        return;
      }
      // The length may be what is wrong: nothing after it in this block can
      // be trusted.
      DropChain(pos_, "partial record without end", kReported);
      DropBlock(block_end, "checksum mismatch", kReported);
      return;
    }
  }

  Accept(header, length, type, pos_ < recovering_until_);
}

void LogReader::Impl::Accept(const char* header, uint32_t length, int type,
                             bool recovered) {
  const std::string_view payload(header + log::kHeaderSize, length);
  const uint64_t start = pos_;
  const uint64_t fragment_end = pos_ + log::kHeaderSize + length;
  pos_ = fragment_end;
  switch (type) {
    case log::kFullType:
    case log::kFirstType: {
      // LevelDB reports a broken chain here only if it carried bytes (an
      // old writer could leave an empty FIRST fragment at a block's end).
      DropChain(start, "partial record without end",
                chain_payload_.empty() ? kSilent : kReported);
      if (type == log::kFirstType) {
        in_chain_ = true;
        chain_start_ = start;
        chain_fragments_ = 1;
        chain_payload_.assign(payload);
        chain_recovered_ = recovered;
        return;
      }
      LogEntry entry;
      entry.kind = LogEntry::Kind::kRecord;
      entry.offset = start;
      entry.length = fragment_end - start;
      entry.payload.assign(payload);
      entry.fragments = 1;
      entry.recovered = recovered;
      if (recovered) entry.reason = kRecoveredReason;
      ready_.push_back(std::move(entry));
      return;
    }
    case log::kMiddleType:
    case log::kLastType: {
      if (!in_chain_) {
        Emit(LogEntry::Kind::kDamage, start, fragment_end,
             type == log::kMiddleType
                 ? "middle fragment without a first fragment"
                 : "last fragment without a first fragment",
             kReported);
        return;
      }
      chain_payload_.append(payload);
      ++chain_fragments_;
      chain_recovered_ = chain_recovered_ || recovered;
      if (type == log::kMiddleType) return;
      LogEntry entry;
      entry.kind = LogEntry::Kind::kRecord;
      entry.offset = chain_start_;
      entry.length = fragment_end - chain_start_;
      entry.payload = std::move(chain_payload_);
      entry.fragments = chain_fragments_;
      entry.recovered = chain_recovered_;
      if (chain_recovered_) entry.reason = kRecoveredReason;
      ready_.push_back(std::move(entry));
      in_chain_ = false;
      chain_fragments_ = 0;
      chain_payload_.clear();
      return;
    }
    case log::kLevelDBEndOfFileType:
      DropChain(start, "partial record without end", kSilent);
      Emit(LogEntry::Kind::kEndOfLog, start, file_size_,
           "record of type 5, LevelDB's end-of-file marker: LevelDB reads no "
           "further");
      ended_ = true;
      return;
    case log::kLevelDBBadRecordType:
      DropChain(start, "partial record without end", kReported);
      Emit(LogEntry::Kind::kDamage, start, fragment_end,
           "record of type 6 (LevelDB's reader skips it)");
      return;
    default:
      DropChain(start, "partial record without end", kReported);
      Emit(LogEntry::Kind::kDamage, start, fragment_end,
           absl::StrCat("unknown record type ", type), kReported);
      return;
  }
}

bool LogReader::Impl::WholeFragment(std::string_view rest) {
  if (rest.size() < log::kHeaderSize) return false;
  const char* header = rest.data();
  const int type = static_cast<unsigned char>(header[6]);
  if (type < log::kFullType || type > log::kLastType) return false;
  const uint32_t length =
      static_cast<unsigned char>(header[4]) |
      (static_cast<uint32_t>(static_cast<unsigned char>(header[5])) << 8);
  if (log::kHeaderSize + length > rest.size()) return false;
  return crc32c::Value(header + 6, 1 + length) ==
         crc32c::Unmask(DecodeFixed32(header));
}

bool LogReader::Impl::Salvage(std::string_view rest, uint64_t block_end,
                              std::string_view why) {
  const char* header = rest.data();
  const uint32_t stored = DecodeFixed32(header);
  const uint32_t expected = crc32c::Unmask(stored);
  const uint32_t length =
      static_cast<unsigned char>(header[4]) |
      (static_cast<uint32_t>(static_cast<unsigned char>(header[5])) << 8);
  // Every single-byte change that makes the fragment whole; only one may.
  int candidates = 0;
  std::string repaired;
  if (log::kHeaderSize + length <= rest.size()) {
    const std::string_view covered(header + 6, 1 + length);
    const uint32_t actual = crc32c::Value(covered);
    if (crc32c::DifferInOneByte(crc32c::Mask(actual), stored)) {
      ++candidates;  // the checksum's own bytes took the damage
      repaired.assign(header, log::kHeaderSize + length);
      EncodeFixed32(repaired.data(), crc32c::Mask(actual));
    }
    if (std::optional<crc32c::ByteRepair> fix =
            crc32c::FindSingleByteRepair(covered, expected)) {
      ++candidates;
      repaired.assign(header, log::kHeaderSize + length);
      repaired[6 + fix->position] ^= static_cast<char>(fix->xor_mask);
    }
  }
  // A damaged length byte: each of the 510 other lengths that fits, checked
  // in one pass of the CRC over the longest of them.
  std::map<uint32_t, int> lengths;  // other length -> header byte changed
  for (int byte = 4; byte <= 5; ++byte) {
    for (int mask = 1; mask < 256; ++mask) {
      const uint32_t other =
          length ^ (static_cast<uint32_t>(mask) << (8 * (byte - 4)));
      if (log::kHeaderSize + other <= rest.size()) lengths[other] = byte;
    }
  }
  uint32_t crc = crc32c::Value(header + 6, 1);  // the type byte
  uint32_t covered = 0;                         // payload bytes in `crc`
  for (const auto& [other, byte] : lengths) {
    crc = crc32c::Extend(crc, header + log::kHeaderSize + covered,
                         other - covered);
    covered = other;
    if (crc != expected) continue;
    ++candidates;
    repaired.assign(header, log::kHeaderSize + other);
    repaired[byte] = static_cast<char>(other >> (8 * (byte - 4)));
  }
  if (candidates == 1) {
    const int type = static_cast<unsigned char>(repaired[6]);
    const uint32_t fixed_length =
        static_cast<unsigned char>(repaired[4]) |
        (static_cast<uint32_t>(static_cast<unsigned char>(repaired[5])) << 8);
    if (type >= log::kFullType && type <= log::kLastType) {
      repaired_ = std::move(repaired);
      // LevelDB's reader skips the rest of the block too.
      recovering_until_ = block_end;
      Accept(repaired_.data(), fixed_length, type, /*recovered=*/true);
      return true;
    }
  }
  // The next whole fragment of the block, if any: read on from there.
  for (size_t at = 1; at + log::kHeaderSize <= rest.size(); ++at) {
    if (!WholeFragment(rest.substr(at))) continue;
    DropChain(pos_, "partial record without end", kReported);
    Emit(LogEntry::Kind::kDamage, pos_, pos_ + at,
         absl::StrCat(ToAbsl(why),
                      "; salvage read on at the next whole fragment"),
         kReported);
    pos_ += at;
    recovering_until_ = block_end;
    return true;
  }
  return false;
}

void LogReader::Impl::Count(const LogEntry& entry) {
  switch (entry.kind) {
    case LogEntry::Kind::kRecord:
      ++accounting_.records;
      accounting_.record_bytes += entry.length;
      break;
    case LogEntry::Kind::kPadding:
      accounting_.padding_bytes += entry.length;
      break;
    case LogEntry::Kind::kDamage:
      ++accounting_.damaged_ranges;
      accounting_.damaged_bytes += entry.length;
      break;
    case LogEntry::Kind::kEndOfLog:
      accounting_.unread_bytes += entry.length;
      break;
  }
}

bool LogReader::Impl::Next(LogEntry* entry) {
  while (ready_.empty()) {
    if (!Step() && ready_.empty()) return false;
  }
  *entry = std::move(ready_.front());
  ready_.pop_front();
  // Runs of padding (trailers, zeroed blocks) come out as one entry.
  while (entry->kind == LogEntry::Kind::kPadding) {
    while (ready_.empty()) {
      if (!Step()) break;
    }
    if (ready_.empty() || ready_.front().kind != LogEntry::Kind::kPadding) {
      break;
    }
    entry->length += ready_.front().length;
    ready_.pop_front();
  }
  Count(*entry);
  return true;
}

LogReader::LogReader(const RandomAccessFile* file, uint64_t file_size,
                     const Options& options)
    : impl_(std::make_unique<Impl>(file, file_size, options)) {}

LogReader::LogReader(const RandomAccessFile* file, uint64_t file_size)
    : LogReader(file, file_size, Options()) {}

LogReader::~LogReader() = default;

bool LogReader::Next(LogEntry* entry) { return impl_->Next(entry); }

bool LogReader::NextRecord(LogEntry* entry) {
  while (impl_->Next(entry)) {
    if (entry->kind == LogEntry::Kind::kRecord) return true;
    if (entry->kind == LogEntry::Kind::kEndOfLog) return false;
  }
  return false;
}

const absl::Status& LogReader::status() const { return impl_->status(); }

const LogAccounting& LogReader::accounting() const {
  return impl_->accounting();
}

absl::StatusOr<OpenedLogFile> OpenLogFile(const std::string& path) {
  absl::StatusOr<SizedRandomAccessFile> opened =
      OpenSizedRandomAccessFile(path);
  if (!opened.ok()) return opened.status();
  return OpenedLogFile{std::move(opened->file), opened->size};
}

}  // namespace bloomtable
