// 64-bit key hashing for the project's own filters: XXH3 (libxxhash), seeded
// explicitly. Stable across processes, builds and machines, so its values may
// be stored in files (unlike absl::Hash, which is seeded per process).

#ifndef BLOOMTABLE_UTIL_XXHASH64_H_
#define BLOOMTABLE_UTIL_XXHASH64_H_

#include <cstdint>
#include <string_view>

// Inlined (XXH_INLINE_ALL): the hash of a short key is a few instructions,
// and a call into the shared library costs about a nanosecond per probe.
#define XXH_INLINE_ALL
#include "xxhash.h"

// XXH3's output is part of the filter formats; it is stable from 0.8.0 on
// (CMake checks the same when it configures).
static_assert(XXH_VERSION_NUMBER >= 800, "xxHash 0.8.0 or newer is required");

namespace bloomtable {

inline uint64_t XXH3Hash64(std::string_view data, uint64_t seed) {
  return XXH3_64bits_withSeed(data.data(), data.size(), seed);
}

}  // namespace bloomtable

#endif  // BLOOMTABLE_UTIL_XXHASH64_H_
