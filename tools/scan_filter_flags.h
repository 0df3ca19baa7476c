// The flags that add scan filters, shared by `build` (into a table) and
// `index` (into sidecar filters): --prefix_extractor SPEC,
// --[no]whole_key_filtering, --range_filter_bits_per_key B and
// --max_range_length L.

#ifndef BLOOMTABLE_TOOLS_SCAN_FILTER_FLAGS_H_
#define BLOOMTABLE_TOOLS_SCAN_FILTER_FLAGS_H_

#include <string_view>

#include "bloomtable/options.h"
#include "tools/cli.h"

namespace bloomtable {
namespace tool {

// Reads the flags into `*options` (its filter_policy already set: a prefix
// extractor needs one); prints a usage error for `subcommand` and returns
// false if one is bad.
bool ReadScanFilterFlags(std::string_view subcommand,
                         const CommandLine& command_line, Options* options);

}  // namespace tool
}  // namespace bloomtable

#endif  // BLOOMTABLE_TOOLS_SCAN_FILTER_FLAGS_H_
