// bloomtable verify FILE... [--internal_keys]
//
// For each file: the footer (magic, handles, zero padding), every block's
// checksum and structure, that the blocks tile the file in LevelDB's order
// (data blocks, meta blocks, metaindex, index, footer), that keys increase
// across the whole file and agree with the index separators, and that each
// key's own filter, and the table's prefix and range filters, answer "maybe"
// for it. Then the file must also open as a
// Table. One line per file on standard output.
//
// Without --internal_keys, a table whose every key ends in a LevelDB
// internal-key tag (a type of 0 or 1) and whose keys are in internal-key order
// (user keys ascending, sequence descending within one) is most likely a
// database's file: verify says so on standard error and suggests the flag.

#include <algorithm>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "bloomtable/comparator.h"
#include "bloomtable/filter_policy.h"
#include "filter/filter_block.h"
#include "table/block.h"
#include "table/corruption.h"
#include "table/internal_key.h"
#include "table/table_structure.h"
#include "tools/cli_flags.h"
#include "tools/commands.h"
#include "tools/database_commands.h"
#include "tools/escaping.h"
#include "tools/exit_status.h"
#include "tools/filter_analysis.h"
#include "tools/filter_policies.h"
#include "tools/scan_filter_analysis.h"
#include "tools/sidecar_commands.h"
#include "tools/table_file.h"
#include "tools/table_walker.h"
#include "tools/tool_errors.h"
#include "tools/verify_file.h"
#include "util/string_util.h"

namespace bloomtable {
namespace tool {
namespace {

constexpr char kInternalKeysNote[] =
    "note: every key ends in a LevelDB internal-key tag and the keys are in "
    "internal-key order: a LevelDB database's file? Verify it with "
    "--internal_keys to check its keys and filter as the database's";

// Keeps the two things that together say "a LevelDB database's keys":
// every key parses as an internal key, and each follows the previous one in
// internal-key order. Either alone proves little: 8-byte big-endian integers
// below 2^56 all parse (type byte 0), but ascend by their last bytes, which
// are the tag's sequence, where a database's keys descend.
class InternalKeyShape {
 public:
  InternalKeyShape() : comparator_(BytewiseComparator()) {}

  void Add(std::string_view key) {
    ParsedInternalKey parsed;
    if (!ParseInternalKey(key, &parsed) ||
        (keys_ > 0 && comparator_.Compare(previous_, key) >= 0)) {
      shaped_ = false;
    }
    previous_.assign(key.data(), key.size());
    ++keys_;
  }

  bool LooksInternal() const { return shaped_ && keys_ > 0; }

 private:
  const InternalKeyComparator comparator_;
  std::string previous_;
  uint64_t keys_ = 0;
  bool shaped_ = true;
};

// The filter a table's keys are checked against: at most one per layout.
struct FilterCheck {
  std::shared_ptr<const FilterPolicy> policy;
  uint64_t offset = 0;
  std::unique_ptr<FilterBlockReader> per_block;
  std::unique_ptr<FilterReader> whole_table;
  std::unique_ptr<ScanFilterCheck> scan;  // a prefix or range filter
  // A partitioned filter: each partition's separator and reader, in order
  // (the readers point into the walker's blocks).
  bool partitioned = false;
  std::vector<std::pair<std::string, std::unique_ptr<FilterReader>>> partitions;

  std::string Name() const {
    return scan != nullptr ? std::string(scan->name())
                           : std::string(policy->Name());
  }
  bool KeyMayMatch(uint64_t block_offset, std::string_view key) const {
    if (scan != nullptr) return scan->KeyMayMatch(key);
    if (partitioned) {
      // The first partition whose separator is >= key; none: past every
      // key of the table.
      auto partition =
          std::lower_bound(partitions.begin(), partitions.end(), key,
                           [](const auto& entry, std::string_view k) {
                             return entry.first < k;
                           });
      return partition != partitions.end() &&
             partition->second->KeyMayMatch(key);
    }
    return per_block != nullptr ? per_block->KeyMayMatch(block_offset, key)
                                : whole_table->KeyMayMatch(key);
  }
};

class FileVerifier {
 public:
  FileVerifier(const TableWalker& walker, bool internal_keys)
      : walker_(walker),
        internal_keys_(internal_keys),
        internal_comparator_(BytewiseComparator()),
        comparator_(internal_keys
                        ? static_cast<const Comparator*>(&internal_comparator_)
                        : BytewiseComparator()) {}

  absl::Status Verify() {
    if (!walker_.footer_padding_is_zero()) {
      return Damage(walker_.footer_offset(),
                    "footer: the bytes between the block handles and the "
                    "magic number are not zero");
    }
    absl::Status status = CheckTiling();
    if (!status.ok()) return status;
    status = SetUpFilters();
    if (!status.ok()) return status;
    for (size_t i = 0; i < walker_.index().size(); ++i) {
      status = VerifyDataBlock(i);
      if (!status.ok()) return status;
    }
    return absl::OkStatus();
  }

  // After Verify() without --internal_keys: whether the keys look like a
  // LevelDB database's (InternalKeyShape).
  bool KeysLookInternal() const {
    return !internal_keys_ && shape_.LooksInternal();
  }

 private:
  absl::Status Damage(uint64_t offset, std::string_view reason) const {
    return CorruptionAt(walker_.path(), offset, reason);
  }

  static constexpr std::string_view kInternalKeysHint =
      " (a LevelDB database file? verify it with --internal_keys)";

  // The hint for keys out of plain order that are in internal-key order.
  std::string InternalKeysHint(std::string_view previous,
                               std::string_view key) const {
    ParsedInternalKey parsed;
    if (internal_keys_ || !ParseInternalKey(previous, &parsed) ||
        !ParseInternalKey(key, &parsed) ||
        internal_comparator_.Compare(previous, key) >= 0) {
      return "";
    }
    return std::string(kInternalKeysHint);
  }

  // LevelDB writes the blocks back to back: data blocks, meta blocks, the
  // metaindex, the index, then the footer. Anything else means a handle
  // points where no block was written.
  absl::Status CheckTiling() const {
    struct Placed {
      BlockHandle handle;
      std::string what;
    };
    std::vector<Placed> blocks;
    for (size_t i = 0; i < walker_.index().size(); ++i) {
      blocks.push_back(
          {walker_.index()[i].handle, absl::StrCat("data block ", i)});
    }
    for (const MetaBlock& meta : walker_.meta_blocks()) {
      blocks.push_back(
          {meta.entry.handle,
           absl::StrCat("meta block '", EscapeBytes(meta.entry.key), "'")});
      for (size_t p = 0; p < meta.partitions.size(); ++p) {
        blocks.push_back({meta.partitions[p].summary.handle,
                          absl::StrCat("partition ", p, " of '",
                                       EscapeBytes(meta.entry.key), "'")});
      }
    }
    blocks.push_back({walker_.metaindex_block().handle, "the metaindex block"});
    blocks.push_back({walker_.index_block().handle, "the index block"});
    std::stable_sort(blocks.begin(), blocks.end(),
                     [](const Placed& a, const Placed& b) {
                       return a.handle.offset() < b.handle.offset();
                     });
    uint64_t expected = 0;
    for (const Placed& block : blocks) {
      if (block.handle.offset() != expected ||
          !block.handle.FitsWithin(walker_.footer_offset())) {
        return Damage(
            block.handle.offset(),
            absl::StrFormat("%s (size %u) does not follow the "
                            "previous block, which ends at %u",
                            block.what, block.handle.size(), expected));
      }
      expected =
          block.handle.offset() + block.handle.size() + kBlockTrailerSize;
    }
    if (expected != walker_.footer_offset()) {
      return Damage(expected,
                    absl::StrFormat("%u unaccounted bytes before "
                                    "the footer",
                                    walker_.footer_offset() - expected));
    }
    return absl::OkStatus();
  }

  // Sets up the filters the tool knows among the meta blocks the walker
  // read (and checked).
  absl::Status SetUpFilters() {
    for (const MetaBlock& meta : walker_.meta_blocks()) {
      std::string_view policy_name;
      FilterLayout layout;
      if (!ParseFilterMetaindexKey(meta.entry.key, &policy_name, &layout)) {
        absl::StatusOr<std::unique_ptr<ScanFilterCheck>> scan =
            ScanFilterCheck::Make(meta.entry.key, meta.contents.data);
        if (!scan.ok()) {
          return Damage(
              meta.entry.handle.offset(),
              absl::StrCat("scan filter block: ", scan.status().message()));
        }
        if (*scan == nullptr) continue;  // not a filter, or unknown
        auto check = std::make_unique<FilterCheck>();
        check->scan = *std::move(scan);
        check->offset = meta.entry.handle.offset();
        filters_.push_back(std::move(check));
        continue;
      }
      std::shared_ptr<const FilterPolicy> policy =
          FindFilterPolicy(std::string(policy_name));
      if (policy == nullptr) continue;  // unknown: cannot be checked
      auto check = std::make_unique<FilterCheck>();
      check->policy = policy;
      check->offset = meta.entry.handle.offset();
      if (layout == FilterLayout::kWholeTable) {
        check->whole_table = policy->NewReader(meta.contents.data);
      } else if (layout == FilterLayout::kPartitioned) {
        check->partitioned = true;
        for (const FilterPartitionBlock& partition : meta.partitions) {
          if (!check->partitions.empty() &&
              check->partitions.back().first >= partition.separator) {
            return BlockError(
                walker_.path(), "filter", meta.entry.handle,
                absl::DataLossError("partition separators out of order"));
          }
          check->partitions.emplace_back(
              partition.separator, policy->NewReader(partition.contents.data));
        }
      } else {
        check->per_block = std::make_unique<FilterBlockReader>(
            policy.get(), meta.contents.data);
        if (!check->per_block->usable()) {
          return BlockError(
              walker_.path(), "filter", meta.entry.handle,
              absl::DataLossError(ToAbsl(FilterBlockReader::kUnusableReason)));
        }
      }
      filters_.push_back(std::move(check));
    }
    return absl::OkStatus();
  }

  absl::Status VerifyDataBlock(size_t i) {
    const MetaindexEntry& index_entry = walker_.index()[i];
    const uint64_t offset = index_entry.handle.offset();
    BlockSummary summary;
    std::shared_ptr<const Block> block;
    absl::Status status = walker_.ReadDataBlock(i, &summary, &block);
    if (!status.ok()) return status;

    BlockIter it(comparator_, block.get());
    uint64_t entries = 0;
    for (it.SeekToFirst(); it.Valid(); it.Next(), ++entries) {
      const std::string_view key = it.key();
      std::string_view filter_key = key;
      if (internal_keys_) {
        ParsedInternalKey parsed;
        if (!ParseInternalKey(key, &parsed)) {
          return Damage(offset,
                        absl::StrCat("data block ", i, ": '", EscapeBytes(key),
                                     "' is not a LevelDB internal key (a "
                                     "table written without a database? "
                                     "verify it without --internal_keys)"));
        }
        filter_key = parsed.user_key;
      }
      if (has_previous_key_ && comparator_->Compare(previous_key_, key) >= 0) {
        return Damage(
            offset, absl::StrCat("data block ", i, ": key '", EscapeBytes(key),
                                 "' is not after the previous key '",
                                 EscapeBytes(previous_key_), "'",
                                 InternalKeysHint(previous_key_, key)));
      }
      if (entries == 0 && i > 0 &&
          comparator_->Compare(walker_.index()[i - 1].key, key) >= 0) {
        return Damage(offset, absl::StrCat("data block ", i, ": first key '",
                                           EscapeBytes(key),
                                           "' is not after the previous "
                                           "block's index separator"));
      }
      if (comparator_->Compare(key, index_entry.key) > 0) {
        return Damage(
            offset, absl::StrCat("data block ", i, ": key '", EscapeBytes(key),
                                 "' is after the block's index "
                                 "separator '",
                                 EscapeBytes(index_entry.key), "'"));
      }
      for (const std::unique_ptr<FilterCheck>& filter : filters_) {
        if (filter->KeyMayMatch(offset, filter_key)) continue;
        std::string hint;
        if (!internal_keys_ && filter_key.size() >= kInternalKeyTagSize &&
            filter->KeyMayMatch(offset, ExtractUserKey(filter_key))) {
          hint = kInternalKeysHint;
        }
        return Damage(
            filter->offset,
            absl::StrCat("filter (", filter->Name(),
                         ") answers \"absent\" for key '",
                         EscapeBytes(filter_key), "' of data block ", i, hint));
      }
      if (!internal_keys_) shape_.Add(key);
      previous_key_.assign(key.data(), key.size());
      has_previous_key_ = true;
    }
    if (!it.status().ok()) return walker_.DataBlockError(i, it.status());
    if (entries == 0) {
      return Damage(offset, absl::StrCat("data block ", i, " has no entries"));
    }
    return absl::OkStatus();
  }

  const TableWalker& walker_;
  const bool internal_keys_;
  const InternalKeyComparator internal_comparator_;
  const Comparator* const comparator_;
  std::vector<std::unique_ptr<FilterCheck>> filters_;
  std::string previous_key_;
  bool has_previous_key_ = false;
  InternalKeyShape shape_;
};

}  // namespace

Verdict VerifyFile(const std::string& path, bool internal_keys,
                   const FileOpener& open_file) {
  Verdict verdict;
  std::unique_ptr<TableWalker> walker;
  verdict.status = TableWalker::Open(path, open_file, &walker);
  if (!verdict.status.ok()) return verdict;
  FileVerifier verifier(*walker, internal_keys);
  verdict.status = verifier.Verify();
  if (!verdict.status.ok()) return verdict;
  verdict.keys_look_internal = verifier.KeysLookInternal();
  // What the walker accepted, the library must open too.
  absl::StatusOr<OpenedTable> opened =
      OpenTableFile(path, internal_keys, open_file);
  if (!opened.ok()) {
    verdict.status = CorruptionAt(
        path, walker->footer_offset(),
        absl::StrCat("the table does not open: ", opened.status().message()));
  }
  return verdict;
}

int RunVerify(const CommandLine& command_line) {
  const bool internal_keys = absl::GetFlag(FLAGS_internal_keys);
  bool any_damaged = false;
  bool any_unreadable = false;
  bool any_unsupported = false;
  for (const std::string& path : command_line.args()) {
    if (IsDirectory(path)) {
      switch (RunDatabaseVerify(path, absl::GetFlag(FLAGS_filters))) {
        case kExitSuccess:
          break;
        case kExitDamaged:
          any_damaged = true;
          break;
        case kExitUnsupported:
          any_unsupported = true;
          break;
        default:
          any_unreadable = true;
          break;
      }
      continue;
    }
    const Verdict verdict =
        IsSidecarFile(path, command_line.open_file())
            ? Verdict{VerifySidecarFile(path)}
            : VerifyFile(path, internal_keys, command_line.open_file());
    const absl::Status& status = verdict.status;
    if (status.ok()) {
      absl::PrintF("%s: OK\n", path);
      if (verdict.keys_look_internal) {
        std::fflush(stdout);
        absl::FPrintF(stderr, "bloomtable: %s: %s\n", path, kInternalKeysNote);
      }
      continue;
    }
    switch (ExitStatusFor(status)) {
      case kExitDamaged:
        // Damage to the whole file (empty, too short) is placed at offset 0.
        any_damaged = true;
        absl::PrintF("%s: CORRUPT at offset %d: %s\n", path,
                     CorruptionOffset(status).value_or(0),
                     DescribeProblem(path, status));
        break;
      case kExitUnsupported:
        any_unsupported = true;
        absl::PrintF("%s: UNSUPPORTED: %s\n", path,
                     DescribeProblem(path, status));
        break;
      default:
        any_unreadable = true;
        absl::PrintF("%s: ERROR: %s\n", path, DescribeProblem(path, status));
        break;
    }
  }
  if (any_unreadable) return kExitIoError;
  if (any_damaged) return kExitDamaged;
  if (any_unsupported) return kExitUnsupported;
  return kExitSuccess;
}

}  // namespace tool
}  // namespace bloomtable
