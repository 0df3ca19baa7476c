// The prefix extractor `build --prefix_extractor SPEC` writes into a table:
//
//   fixed:N          the first N bytes (keys shorter than N have no prefix)
//   capped:N         the first N bytes, or the whole key if shorter
//   delimiter:N:C    up to and including the N-th byte C (one byte, or \xNN
//                    as scan prints bytes), e.g. delimiter:2:: for
//                    "user:<id>:"
//
// Pure function; safe from any thread.

#ifndef BLOOMTABLE_TOOLS_PREFIX_EXTRACTOR_SPEC_H_
#define BLOOMTABLE_TOOLS_PREFIX_EXTRACTOR_SPEC_H_

#include <memory>
#include <string_view>

#include "absl/status/statusor.h"
#include "bloomtable/prefix_extractor.h"

namespace bloomtable {
namespace tool {

// The extractor SPEC names; InvalidArgument (naming the forms above) for
// anything else.
absl::StatusOr<std::shared_ptr<const PrefixExtractor>> ParsePrefixExtractorSpec(
    std::string_view spec);

}  // namespace tool
}  // namespace bloomtable

#endif  // BLOOMTABLE_TOOLS_PREFIX_EXTRACTOR_SPEC_H_
