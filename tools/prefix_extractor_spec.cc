#include "tools/prefix_extractor_spec.h"

#include <cstdint>
#include <string>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "tools/escaping.h"
#include "util/string_util.h"

namespace bloomtable {
namespace tool {
namespace {

absl::Status BadSpec(std::string_view spec) {
  return absl::InvalidArgumentError(
      absl::StrCat("bad --prefix_extractor '", ToAbsl(spec),
                   "' (fixed:N, capped:N or delimiter:N:C, C one byte or "
                   "\\xNN)"));
}

}  // namespace

absl::StatusOr<std::shared_ptr<const PrefixExtractor>> ParsePrefixExtractorSpec(
    std::string_view spec) {
  const size_t colon = spec.find(':');
  if (colon == std::string_view::npos) return BadSpec(spec);
  const std::string_view kind = spec.substr(0, colon);
  std::string_view rest = spec.substr(colon + 1);
  std::string_view delimiter_text;
  if (kind == "delimiter") {
    const size_t second = rest.find(':');
    if (second == std::string_view::npos) return BadSpec(spec);
    delimiter_text = rest.substr(second + 1);
    rest = rest.substr(0, second);
  }
  uint32_t number = 0;
  if (rest.empty() || rest[0] == '+' || rest[0] == '-' ||
      !absl::SimpleAtoi(ToAbsl(rest), &number)) {
    return BadSpec(spec);
  }
  if (kind == "fixed") return NewFixedPrefixExtractor(number);
  if (kind == "capped") return NewCappedPrefixExtractor(number);
  if (kind != "delimiter" || number == 0) return BadSpec(spec);
  absl::StatusOr<std::string> delimiter = UnescapeBytes(delimiter_text);
  if (!delimiter.ok() || delimiter->size() != 1) return BadSpec(spec);
  return NewDelimitedPrefixExtractor((*delimiter)[0], number);
}

}  // namespace tool
}  // namespace bloomtable
