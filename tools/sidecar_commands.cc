#include "tools/sidecar_commands.h"

#include <cstdio>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "bloomtable/file.h"
#include "bloomtable/sidecar.h"
#include "db/sidecar_filter.h"
#include "db/sidecar_format.h"
#include "nlohmann/json.hpp"
#include "table/corruption.h"
#include "table/format.h"
#include "tools/escaping.h"
#include "tools/exit_status.h"
#include "tools/filter_policies.h"
#include "tools/output_format.h"
#include "tools/tool_errors.h"
#include "util/coding.h"
#include "util/string_util.h"

namespace bloomtable {
namespace tool {
namespace {

std::string_view SectionTypeName(SidecarSectionType type) {
  switch (type) {
    case SidecarSectionType::kPointFilter:
      return "point";
    case SidecarSectionType::kPrefixFilter:
      return "prefix";
    case SidecarSectionType::kRangeFilter:
      return "range";
  }
  return "unknown";
}

std::string_view TableKindName(SidecarTableKind kind) {
  return kind == SidecarTableKind::kDatabaseTable ? "database_table"
                                                  : "table_file";
}

// Damage of a sidecar file is placed at offset 0: its one checksum covers
// every byte.
absl::Status PlaceSidecarError(const std::string& path,
                               const absl::Status& status) {
  if (absl::IsDataLoss(status)) {
    return CorruptionAt(path, 0, FromAbsl(status.message()));
  }
  return status;
}

absl::StatusOr<SidecarContents> ReadSidecar(const std::string& path) {
  absl::StatusOr<std::string> bytes = ReadFileToString(path);
  if (!bytes.ok()) return bytes.status();
  absl::StatusOr<SidecarContents> contents = DecodeSidecar(*bytes);
  if (!contents.ok()) return PlaceSidecarError(path, contents.status());
  return contents;
}

double BitsPerKey(size_t bytes, uint64_t keys) {
  return keys > 0 ? 8.0 * static_cast<double>(bytes) / keys : 0;
}

// "metaindex {offset, size}, index {offset, size}", or why the footer does
// not decode.
std::string DescribeFooter(const std::string& footer_bytes) {
  Footer footer;
  const absl::Status status = footer.DecodeFrom(footer_bytes);
  if (!status.ok())
    return absl::StrCat("not a table footer: ", status.message());
  return absl::StrFormat(
      "metaindex at %d (%d bytes), index at %d (%d bytes)",
      footer.metaindex_handle().offset(), footer.metaindex_handle().size(),
      footer.index_handle().offset(), footer.index_handle().size());
}

}  // namespace

bool IsSidecarFile(const std::string& path, const FileOpener& open_file) {
  absl::StatusOr<std::unique_ptr<RandomAccessFile>> file = open_file(path);
  if (!file.ok()) return false;
  char scratch[8];
  std::string_view bytes;
  if (!(*file)->Read(0, sizeof(scratch), &bytes, scratch).ok() ||
      bytes.size() != sizeof(scratch)) {
    return false;
  }
  return DecodeFixed64(bytes.data()) == kSidecarMagic;
}

absl::Status VerifySidecarFile(const std::string& path) {
  absl::StatusOr<SidecarContents> contents = ReadSidecar(path);
  if (!contents.ok()) return contents.status();
  absl::StatusOr<std::unique_ptr<SidecarFilter>> filter = SidecarFilter::Make(
      *std::move(contents), KnownFilterPolicies(), /*bytewise=*/true);
  if (!filter.ok()) return PlaceSidecarError(path, filter.status());
  return absl::OkStatus();
}

int DumpSidecarFile(const std::string& path, bool json) {
  absl::StatusOr<uint64_t> size = GetFileSize(path);
  absl::StatusOr<SidecarContents> contents =
      size.ok() ? ReadSidecar(path)
                : absl::StatusOr<SidecarContents>(size.status());
  if (!contents.ok()) {
    if (json) {
      PrintJson(FileErrorJson(path, contents.status()));
      std::fflush(stdout);
    }
    return ReportFileError(path, contents.status());
  }
  const SidecarBinding& binding = contents->binding;
  const bool keyed = binding.kind == SidecarTableKind::kDatabaseTable;
  if (json) {
    nlohmann::json trailers = nlohmann::json::array();
    for (const std::string& trailer : binding.meta_trailers) {
      trailers.push_back(HexEncode(trailer));
    }
    nlohmann::json sections = nlohmann::json::array();
    for (const SidecarSection& section : contents->sections) {
      sections.push_back(
          {{"type", SectionTypeName(section.type)},
           {"name", EscapeBytes(section.name)},
           {"bytes", section.data.size()},
           {"bits_per_key", BitsPerKey(section.data.size(), contents->keys)}});
    }
    nlohmann::json bound = {{"kind", TableKindName(binding.kind)},
                            {"file_number", binding.file_number},
                            {"file_size", binding.file_size},
                            {"footer", HexEncode(binding.footer)},
                            {"index_trailer", HexEncode(binding.index_trailer)},
                            {"meta_trailers", std::move(trailers)}};
    if (keyed) {
      bound["smallest"] = KeyJson(binding.smallest, /*internal_keys=*/true);
      bound["largest"] = KeyJson(binding.largest, /*internal_keys=*/true);
    }
    PrintJson({{"file", path},
               {"file_size", *size},
               {"kind", "sidecar"},
               {"version", kSidecarVersion},
               {"binding", std::move(bound)},
               {"internal_keys", contents->internal_keys},
               {"entries", contents->entries},
               {"keys", contents->keys},
               {"settings", contents->settings},
               {"sections", std::move(sections)}});
    return kExitSuccess;
  }
  absl::PrintF("sidecar filter file %s: %d bytes, version %d\n", path, *size,
               kSidecarVersion);
  if (keyed) {
    absl::PrintF("bound to: table %d of a database, %d bytes\n",
                 binding.file_number, binding.file_size);
    absl::PrintF("  key range (MANIFEST): %s .. %s\n",
                 DisplayKey(binding.smallest, /*internal_keys=*/true),
                 DisplayKey(binding.largest, /*internal_keys=*/true));
  } else {
    absl::PrintF("bound to: a table file of %d bytes\n", binding.file_size);
  }
  absl::PrintF("  footer: %s\n", DescribeFooter(binding.footer));
  absl::PrintF("  index block trailer: %s\n", HexEncode(binding.index_trailer));
  for (const std::string& trailer : binding.meta_trailers) {
    absl::PrintF("  meta block trailer: %s\n", HexEncode(trailer));
  }
  absl::PrintF("keys: %d distinct %s, from %d entries\n", contents->keys,
               contents->internal_keys ? "user keys" : "keys",
               contents->entries);
  absl::PrintF("settings: %s\n", contents->settings);
  for (const SidecarSection& section : contents->sections) {
    absl::PrintF("%s filter: '%s', %d bytes, %.2f bits per key\n",
                 SectionTypeName(section.type), EscapeBytes(section.name),
                 section.data.size(),
                 BitsPerKey(section.data.size(), contents->keys));
  }
  return kExitSuccess;
}

int VerifyDatabaseSidecars(const std::string& dir,
                           const std::string& filters_dir, const Database& db) {
  int worst = kExitSuccess;
  const bool bytewise =
      db.ordered() && db.comparator_name() == "leveldb.BytewiseComparator";
  for (const DatabaseTableFile& file : db.tables()) {
    const std::string path =
        absl::StrCat(filters_dir, "/", SidecarFileName(file.name));
    SidecarLoad load =
        LoadTableSidecar(dir, path, file, KnownFilterPolicies(), bytewise);
    absl::Status status = load.status;
    switch (load.state) {
      case SidecarState::kMissing:
        absl::PrintF("%s: MISSING (the table's own filter answers)\n", path);
        continue;
      case SidecarState::kStale:
        absl::PrintF("%s: STALE: %s\n", path, status.message());
        continue;
      case SidecarState::kUsable:
        break;
      case SidecarState::kDamaged:
      case SidecarState::kUnusable:
        status = PlaceSidecarError(path, status);
        break;
    }
    uint64_t keys = 0;
    if (load.filter != nullptr) {
      // Every user key of the table must pass every filter of its sidecar.
      absl::StatusOr<std::shared_ptr<const Table>> table = db.OpenTable(file);
      status = table.status();
      std::string rejected;
      if (table.ok()) {
        std::string last;
        status = (*table)->ForEachEntry(ReadOptions(), [&](std::string_view key,
                                                           std::string_view,
                                                           uint64_t) {
          if (key.size() < 8) return true;  // the table's verify says so
          key.remove_suffix(8);
          if (key == last) return true;
          last.assign(key.data(), key.size());
          ++keys;
          const std::string after = absl::StrCat(last, std::string(1, '\0'));
          if (!load.filter->KeyMayMatch(key) ||
              !load.filter->RangeMayMatch(key, after)) {
            rejected = last;
            return false;
          }
          return true;
        });
      }
      if (status.ok() && !rejected.empty()) {
        status = CorruptionAt(
            path, 0,
            absl::StrCat("its filter rejects the key '", EscapeBytes(rejected),
                         "', which its table holds"));
      } else if (!status.ok()) {
        status = absl::Status(
            status.code(),
            absl::StrCat("its table could not be read: ", status.message()));
      }
    }
    if (status.ok()) {
      absl::PrintF("%s: OK (%d keys)\n", path, keys);
      continue;
    }
    const int exit_status = ExitStatusFor(status);
    if (exit_status == kExitDamaged) {
      absl::PrintF("%s: CORRUPT at offset %d: %s\n", path,
                   CorruptionOffset(status).value_or(0),
                   DescribeProblem(path, status));
    } else if (exit_status == kExitUnsupported) {
      absl::PrintF("%s: UNSUPPORTED: %s\n", path,
                   DescribeProblem(path, status));
    } else {
      absl::PrintF("%s: ERROR: %s\n", path, DescribeProblem(path, status));
    }
    if (worst == kExitSuccess || exit_status == kExitIoError ||
        (exit_status == kExitDamaged && worst == kExitUnsupported)) {
      worst = exit_status;
    }
  }
  return worst;
}

}  // namespace tool
}  // namespace bloomtable
