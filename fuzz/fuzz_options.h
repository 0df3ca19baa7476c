// Shared by the fuzz targets: the filter policies every target knows, so that
// tables naming any of them get their filter parsed.

#ifndef BLOOMTABLE_FUZZ_FUZZ_OPTIONS_H_
#define BLOOMTABLE_FUZZ_FUZZ_OPTIONS_H_

#include <memory>
#include <vector>

#include "bloomtable/filter_policy.h"
#include "bloomtable/options.h"

namespace bloomtable {

inline std::vector<std::shared_ptr<const FilterPolicy>> AllFilterPolicies() {
  return {NewLevelDBBloomFilterPolicy(10)};
}

inline Options FuzzReadOptions(KeyFormat key_format) {
  Options options;
  options.key_format = key_format;
  std::vector<std::shared_ptr<const FilterPolicy>> policies =
      AllFilterPolicies();
  options.filter_policy = policies.front();
  options.extra_filter_policies.assign(policies.begin() + 1, policies.end());
  return options;
}

}  // namespace bloomtable

#endif  // BLOOMTABLE_FUZZ_FUZZ_OPTIONS_H_
