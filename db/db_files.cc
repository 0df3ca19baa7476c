// Database file names, and telling a write-ahead log from a MANIFEST.

#include "bloomtable/db_files.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>

#include "absl/strings/str_format.h"
#include "bloomtable/log_reader.h"
#include "bloomtable/version_edit.h"
#include "bloomtable/write_batch.h"

namespace bloomtable {
namespace {

// A run of decimal digits that fits 64 bits (no sign, no spaces).
bool ParseNumber(std::string_view digits, uint64_t* number) {
  if (digits.empty()) return false;
  uint64_t value = 0;
  for (char c : digits) {
    if (c < '0' || c > '9') return false;
    const uint64_t digit = static_cast<uint64_t>(c - '0');
    if (value > (UINT64_MAX - digit) / 10) return false;
    value = value * 10 + digit;
  }
  *number = value;
  return true;
}

bool ConsumeSuffix(std::string_view* name, std::string_view suffix) {
  if (name->size() < suffix.size() ||
      name->substr(name->size() - suffix.size()) != suffix) {
    return false;
  }
  name->remove_suffix(suffix.size());
  return true;
}

}  // namespace

std::optional<DbFileName> ParseDbFileName(std::string_view name) {
  DbFileName parsed;
  if (name == "CURRENT") {
    parsed.type = DbFileType::kCurrent;
    return parsed;
  }
  if (name == "LOCK") {
    parsed.type = DbFileType::kLock;
    return parsed;
  }
  if (name == "LOG" || name == "LOG.old") {
    parsed.type = DbFileType::kInfoLog;
    return parsed;
  }
  constexpr std::string_view kManifestPrefix = "MANIFEST-";
  if (name.substr(0, kManifestPrefix.size()) == kManifestPrefix) {
    parsed.type = DbFileType::kManifest;
    if (!ParseNumber(name.substr(kManifestPrefix.size()), &parsed.number)) {
      return std::nullopt;
    }
    return parsed;
  }
  std::string_view stem = name;
  if (ConsumeSuffix(&stem, ".log")) {
    parsed.type = DbFileType::kLog;
  } else if (ConsumeSuffix(&stem, ".ldb") || ConsumeSuffix(&stem, ".sst")) {
    parsed.type = DbFileType::kTable;
  } else if (ConsumeSuffix(&stem, ".dbtmp")) {
    parsed.type = DbFileType::kTemp;
  } else {
    return std::nullopt;
  }
  if (!ParseNumber(stem, &parsed.number)) return std::nullopt;
  return parsed;
}

std::string LogFileName(uint64_t number) {
  return absl::StrFormat("%06u.log", number);
}

std::string TableFileName(uint64_t number) {
  return absl::StrFormat("%06u.ldb", number);
}

std::string SstTableFileName(uint64_t number) {
  return absl::StrFormat("%06u.sst", number);
}

std::string ManifestFileName(uint64_t number) {
  return absl::StrFormat("MANIFEST-%06u", number);
}

absl::StatusOr<LogContents> IdentifyLogContents(const RandomAccessFile& file,
                                                uint64_t file_size) {
  LogReader reader(&file, std::min(file_size, kIdentifyLogScanLimit));
  LogEntry entry;
  bool damaged = false;
  while (reader.Next(&entry)) {
    if (entry.kind == LogEntry::Kind::kDamage) damaged = true;
    if (entry.kind != LogEntry::Kind::kRecord) continue;
    // A record that decodes whole as one or the other first; one with
    // RocksDB's tags (a valid file this library does not read) after.
    VersionEdit edit;
    const absl::Status edit_status = edit.DecodeFrom(entry.payload);
    if (edit_status.ok()) return LogContents::kManifest;
    const absl::Status batch_status = DecodeWriteBatch(entry.payload).status();
    if (batch_status.ok()) return LogContents::kWriteAheadLog;
    if (absl::IsUnimplemented(edit_status)) return LogContents::kManifest;
    if (absl::IsUnimplemented(batch_status)) {
      return LogContents::kWriteAheadLog;
    }
    return LogContents::kNotALog;
  }
  if (!reader.status().ok()) return reader.status();
  return damaged ? LogContents::kNotALog : LogContents::kEmptyLog;
}

}  // namespace bloomtable
