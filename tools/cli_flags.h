// The bloomtable tool's flags. Every flag is defined once here, with
// absl::flags; which subcommand accepts which flag is decided by the
// subcommand table in cli.cc, which checks the command line before any flag
// is set.

#ifndef BLOOMTABLE_TOOLS_CLI_FLAGS_H_
#define BLOOMTABLE_TOOLS_CLI_FLAGS_H_

#include <cstdint>
#include <string>

#include "absl/flags/declare.h"

// Output selection.
ABSL_DECLARE_FLAG(bool, blocks);
ABSL_DECLARE_FLAG(bool, keys);
ABSL_DECLARE_FLAG(bool, json);
ABSL_DECLARE_FLAG(bool, jsonl);
ABSL_DECLARE_FLAG(bool, hex);

// Files written by a LevelDB database.
ABSL_DECLARE_FLAG(bool, internal_keys);

// get.
ABSL_DECLARE_FLAG(std::string, key_file);

// scan.
ABSL_DECLARE_FLAG(std::string, from);
ABSL_DECLARE_FLAG(std::string, to);
ABSL_DECLARE_FLAG(int64_t, limit);
ABSL_DECLARE_FLAG(bool, reverse);

// get and scan of a database directory.
ABSL_DECLARE_FLAG(int64_t, sequence);
ABSL_DECLARE_FLAG(bool, all_versions);
ABSL_DECLARE_FLAG(bool, leftovers);

// Every subcommand given a database directory.
ABSL_DECLARE_FLAG(bool, salvage);
ABSL_DECLARE_FLAG(std::string, comparator);
ABSL_DECLARE_FLAG(bool, local_storage);

// build.
ABSL_DECLARE_FLAG(std::string, input);
ABSL_DECLARE_FLAG(std::string, input_format);
ABSL_DECLARE_FLAG(int64_t, block_size);
ABSL_DECLARE_FLAG(int32_t, block_restart_interval);
ABSL_DECLARE_FLAG(std::string, compression);
ABSL_DECLARE_FLAG(int32_t, compression_level);
ABSL_DECLARE_FLAG(std::string, filter);
ABSL_DECLARE_FLAG(double, bits_per_key);
ABSL_DECLARE_FLAG(std::string, filter_layout);
ABSL_DECLARE_FLAG(std::string, prefix_extractor);
ABSL_DECLARE_FLAG(bool, whole_key_filtering);
ABSL_DECLARE_FLAG(double, range_filter_bits_per_key);
ABSL_DECLARE_FLAG(int64_t, max_range_length);

// Sidecar filters: index builds them, get, scan and verify of a database
// directory read them.
ABSL_DECLARE_FLAG(std::string, into);
ABSL_DECLARE_FLAG(std::string, policy);
ABSL_DECLARE_FLAG(int32_t, threads);
ABSL_DECLARE_FLAG(bool, prune);
ABSL_DECLARE_FLAG(std::string, filters);

#endif  // BLOOMTABLE_TOOLS_CLI_FLAGS_H_
