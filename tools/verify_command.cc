// bloomtable verify FILE... [--internal_keys]
//
// For each file: the footer (magic, handles, zero padding), every block's
// checksum and structure, that the blocks tile the file in LevelDB's order
// (data blocks, meta blocks, metaindex, index, footer), that keys increase
// across the whole file and agree with the index separators, and that each
// key's own filter, and the table's prefix and range filters, answer "maybe"
// for it. Then the file must also open as a
// Table. One line per file on standard output.

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "bloomtable/comparator.h"
#include "bloomtable/filter_policy.h"
#include "filter/filter_block.h"
#include "table/block.h"
#include "table/internal_key.h"
#include "tools/cli_flags.h"
#include "tools/commands.h"
#include "tools/escaping.h"
#include "tools/exit_status.h"
#include "tools/filter_analysis.h"
#include "tools/filter_policies.h"
#include "tools/scan_filter_analysis.h"
#include "tools/table_file.h"
#include "tools/table_walker.h"
#include "tools/tool_errors.h"

namespace bloomtable {
namespace tool {
namespace {

WalkStatus Damage(uint64_t offset, std::string reason) {
  return WalkStatus(absl::DataLossError(reason), offset);
}

// The filter a table's keys are checked against: at most one per layout.
struct FilterCheck {
  std::shared_ptr<const FilterPolicy> policy;
  BlockContents contents;
  uint64_t offset = 0;
  std::unique_ptr<FilterBlockReader> per_block;
  std::unique_ptr<FilterReader> whole_table;
  std::unique_ptr<ScanFilterCheck> scan;  // a prefix or range filter

  std::string Name() const {
    return scan != nullptr ? std::string(scan->name())
                           : std::string(policy->Name());
  }
  bool KeyMayMatch(uint64_t block_offset, std::string_view key) const {
    if (scan != nullptr) return scan->KeyMayMatch(key);
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

  WalkStatus Verify() {
    if (!walker_.footer_padding_is_zero()) {
      return Damage(walker_.footer_offset(),
                    "footer: the bytes between the block handles and the "
                    "magic number are not zero");
    }
    WalkStatus status = CheckTiling();
    if (!status.ok()) return status;
    status = ReadMetaBlocks();
    if (!status.ok()) return status;
    for (size_t i = 0; i < walker_.index().size(); ++i) {
      status = VerifyDataBlock(i);
      if (!status.ok()) return status;
    }
    return WalkStatus();
  }

 private:
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
  WalkStatus CheckTiling() const {
    struct Placed {
      BlockHandle handle;
      std::string what;
    };
    std::vector<Placed> blocks;
    for (size_t i = 0; i < walker_.index().size(); ++i) {
      blocks.push_back(
          {walker_.index()[i].handle, absl::StrCat("data block ", i)});
    }
    for (const HandleEntry& meta : walker_.metaindex()) {
      blocks.push_back({meta.handle, absl::StrCat("meta block '",
                                                  EscapeBytes(meta.key), "'")});
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
    return WalkStatus();
  }

  // Reads every meta block (checking its checksum) and sets up the filters
  // the tool knows.
  WalkStatus ReadMetaBlocks() {
    for (const HandleEntry& meta : walker_.metaindex()) {
      BlockSummary summary;
      BlockContents contents;
      WalkStatus status =
          walker_.ReadBlock(meta.handle, "meta", &summary, &contents);
      if (!status.ok()) return status;
      std::string policy_name;
      bool whole_table = false;
      if (!ParseFilterMetaindexKey(meta.key, &policy_name, &whole_table)) {
        absl::StatusOr<std::unique_ptr<ScanFilterCheck>> scan =
            ScanFilterCheck::Make(meta.key, std::move(contents));
        if (!scan.ok()) {
          return Damage(
              meta.handle.offset(),
              absl::StrCat("scan filter block: ", scan.status().message()));
        }
        if (*scan == nullptr) continue;  // not a filter, or unknown
        auto check = std::make_unique<FilterCheck>();
        check->scan = *std::move(scan);
        check->offset = meta.handle.offset();
        filters_.push_back(std::move(check));
        continue;
      }
      std::shared_ptr<const FilterPolicy> policy =
          FindFilterPolicy(policy_name);
      if (policy == nullptr) continue;  // unknown: cannot be checked
      auto check = std::make_unique<FilterCheck>();
      check->policy = policy;
      check->contents = std::move(contents);
      check->offset = meta.handle.offset();
      if (whole_table) {
        check->whole_table = policy->NewReader(check->contents.data);
      } else {
        check->per_block = std::make_unique<FilterBlockReader>(
            policy.get(), check->contents.data);
        if (!check->per_block->usable()) {
          return Damage(meta.handle.offset(),
                        "filter block: its layout does not parse (base_lg or "
                        "offset array out of range)");
        }
      }
      filters_.push_back(std::move(check));
    }
    return WalkStatus();
  }

  WalkStatus VerifyDataBlock(size_t i) {
    const HandleEntry& index_entry = walker_.index()[i];
    const uint64_t offset = index_entry.handle.offset();
    BlockSummary summary;
    std::shared_ptr<const Block> block;
    WalkStatus status = walker_.ReadDataBlock(i, &summary, &block);
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
      previous_key_.assign(key.data(), key.size());
      has_previous_key_ = true;
    }
    if (!it.status().ok()) {
      return Damage(offset, absl::StrCat("data block ", i, ": after entry ",
                                         entries, ": ", it.status().message()));
    }
    if (entries == 0) {
      return Damage(offset, absl::StrCat("data block ", i, " has no entries"));
    }
    return WalkStatus();
  }

  const TableWalker& walker_;
  const bool internal_keys_;
  const InternalKeyComparator internal_comparator_;
  const Comparator* const comparator_;
  std::vector<std::unique_ptr<FilterCheck>> filters_;
  std::string previous_key_;
  bool has_previous_key_ = false;
};

WalkStatus VerifyFile(const std::string& path, bool internal_keys) {
  std::unique_ptr<TableWalker> walker;
  WalkStatus status = TableWalker::Open(path, &walker);
  if (!status.ok()) return status;
  status = FileVerifier(*walker, internal_keys).Verify();
  if (!status.ok()) return status;
  // What the walker accepted, the library must open too.
  absl::StatusOr<OpenedTable> opened = OpenTableFile(path, internal_keys);
  if (!opened.ok()) {
    return WalkStatus(
        absl::DataLossError(absl::StrCat("the table does not open: ",
                                         opened.status().message())),
        walker->footer_offset());
  }
  return WalkStatus();
}

}  // namespace

int RunVerify(const CommandLine& command_line) {
  const bool internal_keys = absl::GetFlag(FLAGS_internal_keys);
  bool any_damaged = false;
  bool any_unreadable = false;
  for (const std::string& path : command_line.args()) {
    const WalkStatus status = VerifyFile(path, internal_keys);
    if (status.ok()) {
      absl::PrintF("%s: OK\n", path);
      continue;
    }
    // DescribeFileError starts with "PATH: "; the line names the path once.
    const std::string reason =
        DescribeFileError(path, status.status()).substr(path.size() + 2);
    if (ExitStatusFor(status.status()) == kExitDamaged) {
      // Damage to the whole file (empty, too short) starts at offset 0.
      any_damaged = true;
      absl::PrintF("%s: CORRUPT at offset %d: %s\n", path,
                   status.located() ? status.offset() : 0, reason);
    } else {
      any_unreadable = true;
      absl::PrintF("%s: ERROR: %s\n", path, reason);
    }
  }
  if (any_unreadable) return kExitIoError;
  if (any_damaged) return kExitDamaged;
  return kExitSuccess;
}

}  // namespace tool
}  // namespace bloomtable
