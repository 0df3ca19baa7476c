// Every filter policy's reader on arbitrary filter bytes and keys: the first
// input byte picks the policy, the next splits key from filter. Malformed
// filters must answer "maybe", never crash.

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "bloomtable/filter_policy.h"
#include "fuzz/fuzz_options.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const auto* const policies =
      new std::vector<std::shared_ptr<const bloomtable::FilterPolicy>>(
          bloomtable::AllFilterPolicies());
  if (size < 2) return 0;
  const bloomtable::FilterPolicy& policy = *(*policies)[data[0] % policies->size()];
  const size_t key_length = data[1] % 32;
  std::string_view rest(reinterpret_cast<const char*>(data + 2), size - 2);
  const std::string_view key = rest.substr(0, key_length);
  const std::string_view filter = rest.substr(key.size());
  const bool direct = policy.KeyMayMatch(key, filter);
  const bool parsed = policy.NewReader(filter)->KeyMayMatch(key);
  // The parsed reader and the direct call read the same bytes the same way.
  if (direct != parsed) __builtin_trap();
  return 0;
}
