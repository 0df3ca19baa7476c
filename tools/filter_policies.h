// The filter policies the bloomtable tool knows, by the names used on its
// command line (`build --filter`) and by the names tables store.
//
// Reading: a table is opened with every known policy, so that whichever one
// it names is used. Building: `--filter NAME --bits_per_key B`.
// Functions return fresh immutable policies; safe from any thread.

#ifndef BLOOMTABLE_TOOLS_FILTER_POLICIES_H_
#define BLOOMTABLE_TOOLS_FILTER_POLICIES_H_

#include <memory>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "bloomtable/filter_policy.h"

namespace bloomtable {
namespace tool {

// One policy per stored name the tool can read. Policies that read their
// parameters from the filter bytes (as LevelDB's Bloom reads k) answer for
// every parameter they were built with.
std::vector<std::shared_ptr<const FilterPolicy>> KnownFilterPolicies();

// The known policy whose Name() is `stored_name`, or null.
std::shared_ptr<const FilterPolicy> FindFilterPolicy(
    std::string_view stored_name);

// The policy `build` makes for `--filter filter_name` and
// `--bits_per_key bits_per_key`: null for "none" or 0 bits per key (no
// filter). InvalidArgument for an unknown name, a negative or non-finite
// bits_per_key, or a fraction given to a policy that takes whole numbers.
absl::StatusOr<std::shared_ptr<const FilterPolicy>> FilterPolicyForBuild(
    std::string_view filter_name, double bits_per_key);

}  // namespace tool
}  // namespace bloomtable

#endif  // BLOOMTABLE_TOOLS_FILTER_POLICIES_H_
