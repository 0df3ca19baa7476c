// Shared by the fuzz targets and the seed-corpus generator: the filter
// policies every target knows, so that tables naming any of them get their
// filter parsed, and the read options that supply them all.

#ifndef BLOOMTABLE_FUZZ_FUZZ_OPTIONS_H_
#define BLOOMTABLE_FUZZ_FUZZ_OPTIONS_H_

#include <cstddef>
#include <memory>
#include <vector>

#include "bloomtable/filter_policy.h"
#include "bloomtable/options.h"

namespace bloomtable {

// One policy per filter name the library writes. Readers do not depend on
// the bits per key (it only sizes new filters), so one instance per name
// reads every table of that name.
inline std::vector<std::shared_ptr<const FilterPolicy>> AllFilterPolicies() {
  return {NewLevelDBBloomFilterPolicy(10), NewCacheLocalBloomFilterPolicy(10),
          NewRibbonFilterPolicy(10)};
}

// The most a bzip2 block may decompress to under the fuzzers: well below
// their -malloc_limit_mb (16 MiB per allocation), which the default (64 MiB)
// would pass on a crafted block of a few hundred bytes, and small enough
// that the many reads of one input stay fast under the sanitizers (the
// crafted block's seed takes about 2 s; at 1 MiB it took 10 s, the
// fuzzers' -timeout).
inline constexpr size_t kFuzzMaxUncompressedBlockSize = size_t{64} << 10;

// Reading also knows the older name of LevelDB's Bloom filter (which the
// library only reads), so that its two-hash reader is fuzzed too.
inline Options FuzzReadOptions(KeyFormat key_format) {
  Options options;
  options.key_format = key_format;
  options.max_uncompressed_block_size = kFuzzMaxUncompressedBlockSize;
  std::vector<std::shared_ptr<const FilterPolicy>> policies =
      AllFilterPolicies();
  options.filter_policy = policies.front();
  options.extra_filter_policies.assign(policies.begin() + 1, policies.end());
  options.extra_filter_policies.push_back(
      NewLegacyLevelDBBloomFilterPolicy(10));
  return options;
}

}  // namespace bloomtable

#endif  // BLOOMTABLE_FUZZ_FUZZ_OPTIONS_H_
