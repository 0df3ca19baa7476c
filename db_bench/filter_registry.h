// The filter policies db_bench can build into bloomtable tables, by the name
// given to --filter. Adding a policy is one entry in filter_registry.cc.
//
// Each entry says whether it takes fractional bits per key and which layouts
// it supports, so that db_bench can reject a bad combination with a usage
// error before it builds anything.

#ifndef BLOOMTABLE_DB_BENCH_FILTER_REGISTRY_H_
#define BLOOMTABLE_DB_BENCH_FILTER_REGISTRY_H_

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "bloomtable/filter_policy.h"
#include "bloomtable/options.h"

namespace bloomtable {
namespace db_bench {

struct FilterEntry {
  // The --filter name, e.g. "leveldb_bloom".
  std::string_view name;
  // One line for --help.
  std::string_view description;
  // False: bits per key must be a whole number.
  bool fractional_bits;
  // Makes the policy for `bits_per_key` (> 0).
  std::shared_ptr<const FilterPolicy> (*make)(double bits_per_key);
};

// Every registered policy, in the order --help lists them.
const std::vector<FilterEntry>& FilterRegistry();

// The entry named `name`; InvalidArgument (listing the names) if none.
absl::StatusOr<const FilterEntry*> FindFilter(std::string_view name);

// "leveldb_bloom, ..." for messages.
std::string FilterNames();

// Checks that `entry` accepts `bits_per_key` (> 0), and resolves `layout`
// ("per_block", "whole_table", or "auto": per-block where the policy allows
// it, else whole-table). InvalidArgument with a message naming the flags.
struct ResolvedFilter {
  std::shared_ptr<const FilterPolicy> policy;
  FilterLayout layout;
};
absl::StatusOr<ResolvedFilter> ResolveFilter(const FilterEntry& entry,
                                             double bits_per_key,
                                             std::string_view layout);

// "per_block" or "whole_table".
std::string_view LayoutName(FilterLayout layout);

// True if `bits` is a whole number.
bool IsWholeNumber(double bits);

}  // namespace db_bench
}  // namespace bloomtable

#endif  // BLOOMTABLE_DB_BENCH_FILTER_REGISTRY_H_
