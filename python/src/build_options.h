// The options of a table to write, from Python keyword arguments: the same
// set as the `bloomtable build` tool's flags, with the same defaults
// (LevelDB's, and LevelDB's Bloom filter at 10 bits per key), plus the
// library options the tool leaves at their defaults.
//
//   filter="bloom"            kind, "none", or a FilterPolicy
//   bits_per_key=10           (0: no filter) or fp_rate=None
//   filter_layout="per_block" "whole_table", "partitioned"
//   filter_partition_keys=4096
//   block_size=4096, block_restart_interval=16,
//   index_block_restart_interval=1
//   compression="snappy"      "none", "zstd"; compression_level (zstd only,
//                             -7 to 22, default 1)
//   prefix_extractor=None     a PrefixExtractor; whole_key_filtering=True
//   range_filter_bits_per_key=0 (none, else 4 to 40), max_range_length=64
//   internal_keys=False       keys are LevelDB internal keys
//
// An unknown keyword is a TypeError; a bad value InvalidArgumentError.

#ifndef BLOOMTABLE_PYTHON_SRC_BUILD_OPTIONS_H_
#define BLOOMTABLE_PYTHON_SRC_BUILD_OPTIONS_H_

#include <pybind11/pybind11.h>

#include "bloomtable/options.h"

namespace bloomtable {
namespace python {

Options BuildOptionsFromKwargs(const pybind11::kwargs& kwargs);

// The docstring paragraph that lists the options above.
extern const char kBuildOptionsDoc[];

}  // namespace python
}  // namespace bloomtable

#endif  // BLOOMTABLE_PYTHON_SRC_BUILD_OPTIONS_H_
