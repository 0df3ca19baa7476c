#include "tools/filter_policies.h"

#include <cmath>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "util/string_util.h"

namespace bloomtable {
namespace tool {
namespace {

// LevelDB's Bloom caps k at 30 probes (about 43 bits per key); more bits per
// key only cost memory. The bound also keeps num_keys * bits_per_key far from
// overflow.
constexpr double kMaxBitsPerKey = 100;

// The bits per key a reading policy is made with: irrelevant to answers
// (every policy reads its parameters from the filter's own bytes), so
// LevelDB's usual 10.
constexpr int kReadingBitsPerKey = 10;

}  // namespace

std::vector<std::shared_ptr<const FilterPolicy>> KnownFilterPolicies() {
  return {NewLevelDBBloomFilterPolicy(kReadingBitsPerKey),
          NewCacheLocalBloomFilterPolicy(kReadingBitsPerKey),
          NewRibbonFilterPolicy(kReadingBitsPerKey),
          // Read only (build never names it): goleveldb's and old LevelDB's.
          NewLegacyLevelDBBloomFilterPolicy(kReadingBitsPerKey)};
}

std::shared_ptr<const FilterPolicy> FindFilterPolicy(
    std::string_view stored_name) {
  for (std::shared_ptr<const FilterPolicy>& policy : KnownFilterPolicies()) {
    if (policy->Name() == stored_name) return policy;
  }
  return nullptr;
}

absl::StatusOr<std::shared_ptr<const FilterPolicy>> FilterPolicyForBuild(
    std::string_view filter_name, double bits_per_key) {
  if (!std::isfinite(bits_per_key) || bits_per_key < 0 ||
      bits_per_key > kMaxBitsPerKey) {
    return absl::InvalidArgumentError(
        absl::StrCat("--bits_per_key must be between 0 and ", kMaxBitsPerKey,
                     ", got ", bits_per_key));
  }
  if (filter_name == "none") return nullptr;
  if (filter_name == "bloom") {
    if (bits_per_key == 0) return nullptr;  // 0 = no filter, as in RocksDB
    if (bits_per_key != std::floor(bits_per_key)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "--filter bloom (LevelDB's Bloom) takes whole bits per key, got ",
          bits_per_key));
    }
    return NewLevelDBBloomFilterPolicy(static_cast<int>(bits_per_key));
  }
  if (filter_name == "cache_local_bloom") {
    if (bits_per_key == 0) return nullptr;
    return NewCacheLocalBloomFilterPolicy(bits_per_key);
  }
  if (filter_name == "ribbon") {
    if (bits_per_key == 0) return nullptr;
    return NewRibbonFilterPolicy(bits_per_key);
  }
  return absl::InvalidArgumentError(
      absl::StrCat("unknown --filter '", ToAbsl(filter_name),
                   "' (known: none, bloom, cache_local_bloom, ribbon)"));
}

}  // namespace tool
}  // namespace bloomtable
