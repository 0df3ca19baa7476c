// VersionEdit's encoding: (varint32 tag, fields)* in LevelDB's tag numbers.

#include "bloomtable/version_edit.h"

#include <string>
#include <string_view>

#include "absl/strings/str_cat.h"
#include "table/internal_key.h"
#include "util/coding.h"
#include "util/string_util.h"

namespace bloomtable {
namespace {

// LevelDB's tags. 8 once held large-value references and is never written.
enum Tag : uint32_t {
  kComparator = 1,
  kLogNumber = 2,
  kNextFileNumber = 3,
  kLastSequence = 4,
  kCompactPointer = 5,
  kDeletedFile = 6,
  kNewFile = 7,
  kPrevLogNumber = 9,
};

// The tags only RocksDB's (and Pebble's, which took RocksDB's numbering)
// MANIFESTs hold, by name; empty for any other tag.
std::string_view RocksDBTagName(uint32_t tag) {
  switch (tag) {
    case 10:
      return "min log number to keep";
    case 100:
    case 102:
    case 103:
    case 104:
      return "new file with extended metadata";
    case 105:
    case 106:
      return "backing table";
    case 200:
      return "column family";
    case 201:
      return "column family add";
    case 202:
      return "column family drop";
    case 203:
      return "max column family";
    case 300:
      return "atomic group";
    case 400:
    case 401:
      return "blob file";
    default:
      // Tags RocksDB marks as safe to ignore (1 << 13 set): DB id, WAL
      // additions and deletions, full-history timestamp, ...
      if (tag >= (1u << 13) && tag < (1u << 13) + 64) {
        return "forward-compatible record";
      }
      return std::string_view();
  }
}

bool GetLevel(std::string_view* input, int* level) {
  uint32_t value;
  if (!GetVarint32(input, &value) || value >= kNumLevels) return false;
  *level = static_cast<int>(value);
  return true;
}

// Reads a length-prefixed internal key. LevelDB takes any non-empty one;
// here one shorter than its 8-byte tag is refused too (it holds no user
// key), and `*too_short` says that this is why.
bool GetInternalKey(std::string_view* input, std::string* key,
                    bool* too_short) {
  std::string_view bytes;
  if (!GetLengthPrefixed(input, &bytes)) return false;
  if (bytes.size() < kInternalKeyTagSize) {
    *too_short = !bytes.empty();
    return false;
  }
  key->assign(bytes);
  return true;
}

absl::Status EditError(std::string_view field, bool short_key = false) {
  return absl::DataLossError(absl::StrCat(
      "bad version edit: ", ToAbsl(field), " field",
      short_key ? " (an internal key shorter than its 8-byte tag)" : ""));
}

}  // namespace

bool TableFileInfo::operator==(const TableFileInfo& other) const {
  return number == other.number && size == other.size &&
         smallest == other.smallest && largest == other.largest;
}

void VersionEdit::EncodeTo(std::string* dst) const {
  if (comparator) {
    PutVarint32(dst, kComparator);
    PutLengthPrefixed(dst, *comparator);
  }
  if (log_number) {
    PutVarint32(dst, kLogNumber);
    PutVarint64(dst, *log_number);
  }
  if (prev_log_number) {
    PutVarint32(dst, kPrevLogNumber);
    PutVarint64(dst, *prev_log_number);
  }
  if (next_file_number) {
    PutVarint32(dst, kNextFileNumber);
    PutVarint64(dst, *next_file_number);
  }
  if (last_sequence) {
    PutVarint32(dst, kLastSequence);
    PutVarint64(dst, *last_sequence);
  }
  for (const CompactionPointer& pointer : compaction_pointers) {
    PutVarint32(dst, kCompactPointer);
    PutVarint32(dst, static_cast<uint32_t>(pointer.level));
    PutLengthPrefixed(dst, pointer.key);
  }
  for (const DeletedFile& deleted : deleted_files) {
    PutVarint32(dst, kDeletedFile);
    PutVarint32(dst, static_cast<uint32_t>(deleted.level));
    PutVarint64(dst, deleted.number);
  }
  for (const NewFile& added : new_files) {
    PutVarint32(dst, kNewFile);
    PutVarint32(dst, static_cast<uint32_t>(added.level));
    PutVarint64(dst, added.file.number);
    PutVarint64(dst, added.file.size);
    PutLengthPrefixed(dst, added.file.smallest);
    PutLengthPrefixed(dst, added.file.largest);
  }
}

absl::Status VersionEdit::DecodeFrom(std::string_view record) {
  *this = VersionEdit();
  std::string_view input = record;
  absl::Status status;
  while (status.ok() && !input.empty()) {
    uint32_t tag;
    if (!GetVarint32(&input, &tag)) {
      status = EditError("tag");
      break;
    }
    uint64_t number;
    bool short_key = false;
    switch (tag) {
      case kComparator: {
        std::string_view name;
        if (!GetLengthPrefixed(&input, &name)) {
          status = EditError("comparator name");
        } else {
          comparator.emplace(name);
        }
        break;
      }
      case kLogNumber:
        if (!GetVarint64(&input, &number)) {
          status = EditError("log number");
        } else {
          log_number = number;
        }
        break;
      case kPrevLogNumber:
        if (!GetVarint64(&input, &number)) {
          status = EditError("previous log number");
        } else {
          prev_log_number = number;
        }
        break;
      case kNextFileNumber:
        if (!GetVarint64(&input, &number)) {
          status = EditError("next file number");
        } else {
          next_file_number = number;
        }
        break;
      case kLastSequence:
        if (!GetVarint64(&input, &number)) {
          status = EditError("last sequence");
        } else {
          last_sequence = number;
        }
        break;
      case kCompactPointer: {
        CompactionPointer pointer;
        if (!GetLevel(&input, &pointer.level) ||
            !GetInternalKey(&input, &pointer.key, &short_key)) {
          status = EditError("compaction pointer", short_key);
        } else {
          compaction_pointers.push_back(std::move(pointer));
        }
        break;
      }
      case kDeletedFile: {
        DeletedFile deleted;
        if (!GetLevel(&input, &deleted.level) ||
            !GetVarint64(&input, &deleted.number)) {
          status = EditError("deleted file");
        } else {
          deleted_files.push_back(deleted);
        }
        break;
      }
      case kNewFile: {
        NewFile added;
        if (!GetLevel(&input, &added.level) ||
            !GetVarint64(&input, &added.file.number) ||
            !GetVarint64(&input, &added.file.size) ||
            !GetInternalKey(&input, &added.file.smallest, &short_key) ||
            !GetInternalKey(&input, &added.file.largest, &short_key)) {
          status = EditError("new file", short_key);
        } else {
          new_files.push_back(std::move(added));
        }
        break;
      }
      default: {
        const std::string_view rocksdb = RocksDBTagName(tag);
        if (!rocksdb.empty()) {
          status = absl::UnimplementedError(absl::StrCat(
              "version edit tag ", tag, " (RocksDB's ", ToAbsl(rocksdb),
              "): a RocksDB (or Pebble) MANIFEST, not LevelDB's"));
        } else {
          status = absl::DataLossError(
              absl::StrCat("bad version edit: unknown tag ", tag));
        }
        break;
      }
    }
  }
  if (!status.ok()) *this = VersionEdit();
  return status;
}

}  // namespace bloomtable
