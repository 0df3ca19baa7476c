#include "tools/subcommands.h"

#include <cstdint>
#include <string>
#include <utility>

#include "absl/flags/commandlineflag.h"
#include "absl/flags/reflection.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "bloomtable/version.h"
#include "tools/cli_flags.h"
#include "tools/commands.h"
#include "util/string_util.h"

namespace bloomtable {
namespace tool {
namespace {

// For Subcommand::max_args: any number of arguments.
constexpr size_t kAnyNumber = SIZE_MAX;

// What a flag's value looks like, for usage lines; empty for booleans.
std::string_view ValuePlaceholder(std::string_view flag) {
  static const auto* const kPlaceholders =
      new std::vector<std::pair<std::string_view, std::string_view>>{
          {"from", "KEY"},
          {"to", "KEY"},
          {"limit", "N"},
          {"key_file", "FILE|-"},
          {"input", "FILE|-"},
          {"input_format", "tsv|hex"},
          {"block_size", "N"},
          {"block_restart_interval", "N"},
          {"compression", "none|snappy|zstd"},
          {"compression_level", "N"},
          {"filter", "none|bloom|cache_local_bloom|ribbon"},
          {"bits_per_key", "N"},
          {"filter_layout", "per_block|whole_table|partitioned"},
          {"prefix_extractor", "fixed:N|capped:N|delimiter:N:C"},
          {"range_filter_bits_per_key", "N"},
          {"max_range_length", "N"},
          {"sequence", "N"},
          {"comparator", "NAME"},
          {"into", "SIDECAR_DIR"},
          {"policy", "ribbon|cache_local_bloom|bloom"},
          {"threads", "N"},
          {"filters", "SIDECAR_DIR"},
      };
  for (const auto& [name, placeholder] : *kPlaceholders) {
    if (name == flag) return placeholder;
  }
  return "";
}

std::string UsageLine(const Subcommand& subcommand) {
  std::string line = absl::StrCat("bloomtable ", ToAbsl(subcommand.name), " ",
                                  ToAbsl(subcommand.arguments));
  for (std::string_view name : subcommand.flags) {
    const std::string_view placeholder = ValuePlaceholder(name);
    if (placeholder.empty()) {
      absl::StrAppend(&line, " [--", ToAbsl(name), "]");
    } else {
      absl::StrAppend(&line, " [--", ToAbsl(name), " ", ToAbsl(placeholder),
                      "]");
    }
  }
  return line;
}

// Writes `text` wrapped to lines of at most `width` columns, each indented by
// `indent` spaces.
void PrintWrapped(std::string_view text, size_t indent, size_t width) {
  std::string line;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find(' ', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view word = text.substr(start, end - start);
    if (!line.empty() && indent + line.size() + 1 + word.size() > width) {
      absl::PrintF("%*s%s\n", indent, "", line);
      line.clear();
    }
    if (!line.empty()) line.push_back(' ');
    line.append(word.data(), word.size());
    start = end + 1;
  }
  if (!line.empty()) absl::PrintF("%*s%s\n", indent, "", line);
}

// Help text fits an 80-column terminal.
constexpr size_t kHelpWidth = 79;

}  // namespace

const std::vector<Subcommand>& Subcommands() {
  static const auto* const kSubcommands = new std::vector<Subcommand>{
      {"dump",
       "FILE|DIR",
       "show a table's structure and filter, a log, or a database",
       "Prints the footer and its block handles, the metaindex entries, the "
       "index entries, totals over the data blocks and the filter block "
       "(policy, number of filters, bytes, keys covered, bits per key, k, "
       "fraction of bits set, estimated false-positive rate). On damage it "
       "prints what it read before (at least the footer), then the error; "
       "--json then carries it in an error field. A LevelDB log or MANIFEST "
       "(told by its content) is printed record by record: each batch's "
       "offset, sequence, count and operations, or each version edit and then "
       "the version; damaged ranges are printed where they lie and the dump "
       "goes on. Given a LevelDB database directory DIR, prints its version: "
       "the MANIFEST read, the comparator, the last sequence, the table files "
       "per level with their sizes and key ranges, and the live logs. --jsonl "
       "prints the same as JSON Lines, one object per part (block, entry, "
       "record, edit, table) with a kind field, as it is read.",
       1,
       1,
       {"blocks", "keys", "json", "jsonl", "internal_keys", "salvage"},
       RunDump},
      {"verify",
       "FILE|DIR...",
       "check every checksum, block, key order and filter",
       "Reads every block of each FILE and checks its checksum and structure, "
       "that keys are in order across the file and agree with the index, and "
       "that every key's own filter answers \"maybe\" for it. Prints one line "
       "per file, \"FILE: OK\" or \"FILE: CORRUPT at offset N: reason\" "
       "(\"FILE: ERROR: reason\" when it cannot be read, \"FILE: "
       "UNSUPPORTED: reason\" for a valid table this build cannot read). Exit "
       "status 0 only if every file is sound; 4 if a file could not be read, "
       "else 3 if one is damaged, else 5 if one is unsupported. Without "
       "--internal_keys, a sound file whose keys look like a LevelDB "
       "database's (each ends in a sequence/type tag, in internal-key order) "
       "gets a note on standard error suggesting the flag. Given a LevelDB "
       "database directory DIR, checks its MANIFEST's records, that every "
       "table the MANIFEST lists exists with its recorded size and key range "
       "and verifies as a file does, and every log record's checksum: one "
       "line per file, the first damage named with its offset. With "
       "--filters SIDECAR_DIR, also each table's sidecar filter there: OK, "
       "MISSING, STALE (bound to another table: ignored by readers) or "
       "CORRUPT (damaged, or rejecting a key its table holds). A sidecar "
       "filter file given as FILE is checked alone.",
       1,
       kAnyNumber,
       {"internal_keys", "salvage", "filters"},
       RunVerify},
      {"get",
       "FILE|DIR [KEY]",
       "print the value of one key, or of every key of a file",
       "Prints the value stored under KEY (escaped as scan prints it, or hex "
       "with --hex) and says on standard error what the filter answered. "
       "Exit status 1 when the table holds no such key. Put -- before a KEY "
       "that starts with -. With --key_file FILE (or - for standard input) "
       "instead of KEY, looks up every key of FILE, one per line in the "
       "escaped form (or hex with --hex), and prints one line per key in "
       "order: \"found\", a tab and the value, or \"missing\"; then a "
       "summary on standard error. Exit status 1 if any key is missing. Given "
       "a LevelDB database directory DIR, looks KEY up in the database (its "
       "live logs, then level by level) and prints its newest value; "
       "--sequence N reads the value as of sequence number N. Chromium's "
       "IndexedDB databases (comparator idb_cmp1) are ordered as Chromium "
       "orders them; --comparator NAME refuses a database of another "
       "comparator. --local_storage prints a Chrome Local Storage value as "
       "text. --filters SIDECAR_DIR asks the sidecar filters there before "
       "each table (see index), and says on standard error how often they "
       "answered.",
       1,
       2,
       {"hex", "key_file", "internal_keys", "sequence", "salvage", "comparator",
        "local_storage", "filters"},
       RunGet},
      {"scan",
       "FILE|DIR",
       "print entries in key order, one per line",
       "Prints one line per entry: key, a tab, value. By default bytes 0x20 "
       "to 0x7e stand for themselves except the backslash, written \\\\, and "
       "every other byte is written \\xNN: build --input_format tsv reads "
       "the output back exactly. With --internal_keys a line is user key, "
       "sequence, type (put or del) and value, separated by tabs. With --to "
       "(or --from and --to) the table's range or prefix filter, if it has "
       "one, is asked first; standard error then says whether it answered "
       "\"empty (no block read)\". Given a LevelDB database directory DIR, "
       "prints the newest value of each live key (deleted keys left out), "
       "as of --sequence N if given; --json prints one document; "
       "--all_versions lists every version of every key instead: user key, "
       "sequence, put or del, value, status (live, overwritten, deleted, "
       "leftover), file and offset, separated by tabs (with --leftovers also "
       "from files the MANIFEST no longer lists). --local_storage prints a "
       "Chrome Local Storage item as origin, key and value, decoded to text. "
       "--filters SIDECAR_DIR asks the sidecar filters there (see index) "
       "before opening a table for a bounded scan. --json, --sequence, "
       "--all_versions, --leftovers, --comparator, --local_storage and "
       "--filters apply to directories only. --jsonl prints one JSON object "
       "per entry (key, value; with --all_versions the fields of --json's "
       "versions) as it is read, for a table or a directory. Given a log or "
       "a MANIFEST, points at dump; given a table of a database's directory "
       "without --internal_keys, says on standard error that its keys are "
       "internal keys.",
       1,
       1,
       {"from", "to", "limit", "hex", "reverse", "internal_keys", "sequence",
        "json", "jsonl", "all_versions", "leftovers", "salvage", "comparator",
        "local_storage", "filters"},
       RunScan},
      {"build",
       "OUT",
       "write a table from lines of key TAB value",
       "Reads lines of key, a tab and value (a final \\r is ignored), sorts "
       "them, and writes a table to OUT through a temporary file beside it "
       "that is synced and renamed: on any error nothing is left at OUT. A "
       "duplicate key is an error naming its lines. The defaults are "
       "LevelDB's (the file is byte-identical to leveldb::TableBuilder's), "
       "except the filter: bloom with 10 bits per key. --filter bloom is "
       "LevelDB's Bloom (whole bits per key); cache_local_bloom (one cache "
       "line per key, fractional bits per key) and ribbon (whole-table only, "
       "fractional bits per key) are bloomtable's own, which LevelDB ignores. "
       "--compression zstd writes upstream LevelDB's zstd blocks (type 2), "
       "which LevelDB 1.23 cannot read. --prefix_extractor and "
       "--range_filter_bits_per_key add the scan filters, in meta blocks "
       "that LevelDB ignores.",
       1,
       1,
       {"input", "input_format", "block_size", "block_restart_interval",
        "compression", "compression_level", "filter", "bits_per_key",
        "filter_layout", "prefix_extractor", "whole_key_filtering",
        "range_filter_bits_per_key", "max_range_length"},
       RunBuild},
      {"stats",
       "FILE|DIR",
       "entry count, size distributions, compression, filter memory",
       "Prints the number of entries and data blocks, the distribution of "
       "key and value sizes, raw and stored data bytes, the compression "
       "ratio, and the bytes per key that the filter and the index hold in "
       "memory. Given a LevelDB database directory DIR: files, bytes and "
       "entries (puts and deletions) per level, log records, the sequence "
       "range and the comparator.",
       1,
       1,
       {"json", "internal_keys", "salvage"},
       RunStats},
      {"index",
       "DIR|FILE",
       "build sidecar filters for a database's tables or a table",
       "Writes into --into SIDECAR_DIR (created if missing, never inside the "
       "database directory, which is not written) a sidecar filter for each "
       "table of the LevelDB database DIR that has none bound to it and "
       "built with these settings: one filter over the table's user keys, "
       "whole-table Ribbon at 10 bits per key unless --policy and "
       "--bits_per_key say otherwise, with a prefix filter and a range "
       "filter if asked. Run again after the database changed, it builds "
       "only the new tables' sidecars, and lists those of tables that are "
       "gone (--prune removes them). Given a table FILE, builds its sidecar "
       "(--internal_keys for a database's .ldb file). get and scan of DIR "
       "use them with --filters SIDECAR_DIR. Prints a summary (--json: one "
       "document) and, on a terminal, a progress bar on standard error. "
       "Exit status 3 if a table could not be read (the others are built).",
       1,
       1,
       {"into", "policy", "bits_per_key", "threads", "prefix_extractor",
        "range_filter_bits_per_key", "max_range_length", "prune", "json",
        "internal_keys"},
       RunIndex},
  };
  return *kSubcommands;
}

const Subcommand* FindSubcommand(std::string_view name) {
  for (const Subcommand& subcommand : Subcommands()) {
    if (subcommand.name == name) return &subcommand;
  }
  return nullptr;
}

bool IsToolFlag(std::string_view name) {
  for (const Subcommand& subcommand : Subcommands()) {
    for (std::string_view flag : subcommand.flags) {
      if (flag == name) return true;
    }
  }
  return false;
}

bool Subcommand::Accepts(std::string_view name) const {
  for (std::string_view flag : flags) {
    if (flag == name) return true;
  }
  return false;
}

void PrintToolHelp() {
  absl::PrintF(
      "bloomtable %s: inspect, check and write table files in LevelDB's "
      "format, and read LevelDB database directories\n\n",
      BLOOMTABLE_VERSION_STRING);
  absl::PrintF("Usage: bloomtable SUBCOMMAND ARGUMENTS [FLAGS]\n\n");
  absl::PrintF("Subcommands:\n");
  for (const Subcommand& subcommand : Subcommands()) {
    absl::PrintF("  %-18s %s\n",
                 absl::StrCat(ToAbsl(subcommand.name), " ",
                              ToAbsl(subcommand.arguments)),
                 ToAbsl(subcommand.summary));
  }
  absl::PrintF("  %-18s %s\n", "help [SUBCOMMAND]",
               "this text, or a subcommand's flags");
  absl::PrintF("\n");
  PrintWrapped(
      "Flags may come anywhere after the subcommand; -- ends them, for keys "
      "that start with -. bloomtable --version prints the version.",
      0, kHelpWidth);
  absl::PrintF("\n");
  PrintWrapped(
      "Exit status: 0 success; 1 get found no such key; 2 usage error; 3 a "
      "damaged file, not a table, a directory that is not a LevelDB "
      "database, or bad build input; 4 an I/O error (missing file, "
      "permission); 5 unsupported: a valid table this build cannot read (a "
      "RocksDB block-based table, a compression type it does not implement), "
      "a database of another engine, or get and scan of a database whose "
      "comparator the tool does not know.",
      0, kHelpWidth);
}

void PrintSubcommandHelp(const Subcommand& subcommand) {
  absl::PrintF("Usage:\n");
  PrintWrapped(UsageLine(subcommand), 2, kHelpWidth);
  absl::PrintF("\n");
  PrintWrapped(subcommand.details, 0, kHelpWidth);
  if (subcommand.flags.empty()) return;
  absl::PrintF("\nFlags:\n");
  for (std::string_view name : subcommand.flags) {
    const absl::CommandLineFlag* flag = absl::FindCommandLineFlag(ToAbsl(name));
    if (flag == nullptr) continue;
    absl::PrintF("  --%s (default: %s)\n", ToAbsl(name),
                 flag->DefaultValue().empty() ? "unset" : flag->DefaultValue());
    PrintWrapped(flag->Help(), 6, kHelpWidth);
  }
}

}  // namespace tool
}  // namespace bloomtable
