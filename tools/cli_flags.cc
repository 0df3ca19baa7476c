#include "tools/cli_flags.h"

#include "absl/flags/flag.h"

ABSL_FLAG(bool, blocks, false,
          "list every data block: offset, stored and raw size, compression, "
          "entry count, first and last key");
ABSL_FLAG(bool, keys, false,
          "list every entry under its data block (implies --blocks)");
ABSL_FLAG(bool, json, false,
          "print one JSON document instead of aligned text (fields: see the "
          "README)");
ABSL_FLAG(bool, jsonl, false,
          "print JSON Lines instead: one JSON object per line (an entry, a "
          "version, a part of the file), written as it is read (memory "
          "bounded by one record)");
ABSL_FLAG(bool, hex, false,
          "keys given on the command line or in --key_file are hexadecimal, "
          "and keys and values are printed as lowercase hexadecimal");
ABSL_FLAG(bool, internal_keys, false,
          "keys are LevelDB internal keys (the .ldb/.sst files of a LevelDB "
          "database): shown as user key, sequence and type; looked up, "
          "filtered and measured by user key");
ABSL_FLAG(std::string, key_file, "",
          "look up every key of this file (- for standard input), one per "
          "line in the escaped form that scan prints, or in hex with --hex; "
          "prints one line per key: found, a tab and the value, or missing");
ABSL_FLAG(std::string, from, "",
          "start at the first key >= this one (inclusive; a user key with "
          "--internal_keys)");
ABSL_FLAG(std::string, to, "",
          "stop before the first key >= this one (exclusive); unset: to the "
          "end");
ABSL_FLAG(int64_t, limit, -1, "print at most this many entries; -1: all");
ABSL_FLAG(bool, reverse, false,
          "print in descending key order (the same range: --from still "
          "inclusive, --to exclusive)");
ABSL_FLAG(int64_t, sequence, -1,
          "database directories: read the database as of this sequence number "
          "(versions written later are ignored); -1: the newest state");
ABSL_FLAG(bool, all_versions, false,
          "database directories: list every version of every key (user key, "
          "sequence, put|del, value, status, file, offset), the status being "
          "live, overwritten, deleted or leftover");
ABSL_FLAG(bool, leftovers, false,
          "with --all_versions: also read the table and log files the "
          "MANIFEST no longer lists (status leftover)");
ABSL_FLAG(bool, salvage, false,
          "database directories: read past damage that leveldb::DB::Open "
          "refuses, skipping it with a warning: a damaged or undecodable "
          "MANIFEST edit is left out, so the version may be older than the "
          "database's own; without it such a database is refused, as LevelDB "
          "refuses it");
ABSL_FLAG(std::string, comparator, "",
          "database directories: the comparator the database must have been "
          "written with, leveldb.BytewiseComparator or idb_cmp1 (Chromium's "
          "IndexedDB); a database whose MANIFEST names another is refused, as "
          "LevelDB refuses it. Unset: the one the MANIFEST names, if built in");
ABSL_FLAG(bool, local_storage, false,
          "database directories: decode Chrome Local Storage entries: an item "
          "(_ORIGIN\\x00 then a string) is printed as origin, key and value "
          "as text (their leading byte says UTF-16LE or Latin-1); --json "
          "adds a local_storage field to each entry");
ABSL_FLAG(std::string, input, "",
          "the file of lines to read, or - for standard input (required)");
ABSL_FLAG(std::string, input_format, "tsv",
          "tsv: key TAB value, with the escapes that scan prints (\\\\ and "
          "\\xNN); hex: key TAB value, both hexadecimal");
ABSL_FLAG(int64_t, block_size, 4096,
          "approximate uncompressed bytes per data block");
ABSL_FLAG(int32_t, block_restart_interval, 16,
          "entries between restart points in a data block");
ABSL_FLAG(std::string, compression, "snappy",
          "none, snappy, or zstd (upstream LevelDB's type 2, which LevelDB "
          "1.23 cannot read)");
ABSL_FLAG(int32_t, compression_level, 1,
          "zstd's level with --compression zstd: -7 to 22 (1 is upstream "
          "LevelDB's default; higher is smaller and slower to write, not to "
          "read)");
ABSL_FLAG(std::string, filter, "bloom",
          "none, or bloom (LevelDB's Bloom filter, "
          "leveldb.BuiltinBloomFilter2)");
ABSL_FLAG(double, bits_per_key, 10,
          "filter bits per key; 0 builds no filter. The bloom filter takes "
          "whole numbers only");
ABSL_FLAG(std::string, filter_layout, "per_block",
          "per_block: LevelDB's filter block, one filter per 2 KiB of data "
          "(what LevelDB reads); whole_table: one filter over every key, "
          "asked before the index search; partitioned: whole-table filters "
          "of 4096 keys each behind a top-level index");
ABSL_FLAG(std::string, prefix_extractor, "",
          "make the filter a prefix filter that also holds each key's prefix "
          "(whole-table, under prefixfilter.<policy>, which LevelDB ignores): "
          "fixed:N, capped:N, or delimiter:N:C (up to and including the N-th "
          "byte C)");
ABSL_FLAG(bool, whole_key_filtering, true,
          "with --prefix_extractor, also put the whole keys in the filter "
          "(point lookups ask them); --nowhole_key_filtering: prefixes only");
ABSL_FLAG(double, range_filter_bits_per_key, 0,
          "also write a range filter (rangefilter.bloomtable.Grafite) of this "
          "many bits per key, for scans; 0: none");
ABSL_FLAG(int64_t, max_range_length, 64,
          "the range filter's false-positive bound holds for ranges of up to "
          "this many consecutive key values");
ABSL_FLAG(std::string, into, "",
          "the directory to write the sidecar filters into (created if "
          "missing; never the database directory or one inside it)");
ABSL_FLAG(std::string, policy, "ribbon",
          "the sidecar filter's policy: ribbon (whole-table Ribbon), "
          "cache_local_bloom, or bloom (LevelDB's Bloom filter, whole-table)");
ABSL_FLAG(int32_t, threads, 1, "tables built at once, one per thread");
ABSL_FLAG(bool, prune, false,
          "remove the sidecar filters of tables the database no longer "
          "lists (without it they are only listed)");
ABSL_FLAG(std::string, filters, "",
          "database directories: a directory of sidecar filters (written by "
          "index) to ask before each table; one that is missing, stale or "
          "damaged is ignored with a warning");
