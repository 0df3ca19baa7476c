// Filters from Python: filter policies, prefix extractors, and Filter, a
// filter over a set of keys that lives on its own, without a table.
//
//   bloomtable.FilterPolicy      a policy by kind ("bloom",
//                                "cache_local_bloom", "ribbon",
//                                "legacy_bloom") and bits per key, or a
//                                target false-positive rate
//   bloomtable.Filter            built from keys, queried, saved as bytes and
//                                loaded again
//   bloomtable.PrefixExtractor   the built-in extractors (fixed, capped,
//                                delimited)
//   bloomtable.bloom_sizing_for_rate, bloom_false_positive_rate
//
// Every object here is immutable after construction and may be used from
// many Python threads at once.

#ifndef BLOOMTABLE_PYTHON_SRC_FILTERS_H_
#define BLOOMTABLE_PYTHON_SRC_FILTERS_H_

#include <pybind11/pybind11.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bloomtable/filter_policy.h"
#include "bloomtable/prefix_extractor.h"

namespace bloomtable {
namespace python {

// A filter policy and how it was asked for.
struct PyFilterPolicy {
  std::string kind;  // "bloom", "cache_local_bloom", "ribbon", "legacy_bloom"
  std::optional<double> bits_per_key;
  std::optional<double> fp_rate;
  std::shared_ptr<const FilterPolicy> policy;
};

struct PyPrefixExtractor {
  std::shared_ptr<const PrefixExtractor> extractor;
};

// The policy of `kind` at `bits_per_key`; InvalidArgumentError for an
// unknown kind or bits per key out of range (LevelDB's Bloom kinds take whole
// numbers only).
PyFilterPolicy MakeFilterPolicy(const std::string& kind, double bits_per_key);

// The policy of `kind` sized for a false-positive rate in (0, 1).
PyFilterPolicy MakeFilterPolicyForRate(const std::string& kind, double fp_rate);

// A policy from a Python argument: a FilterPolicy, a kind or a stored name
// (as a str; for a kind, `bits_per_key` or, if given, `fp_rate` sizes it).
PyFilterPolicy FilterPolicyFromArg(const pybind11::handle& arg,
                                   std::optional<double> bits_per_key,
                                   std::optional<double> fp_rate);

// One policy per stored name this build reads, for opening tables.
std::vector<std::shared_ptr<const FilterPolicy>> AllReadingPolicies();

void DefineFilters(pybind11::module_& module);

}  // namespace python
}  // namespace bloomtable

#endif  // BLOOMTABLE_PYTHON_SRC_FILTERS_H_
