// Sidecar filter files (db/sidecar_format.h, db/sidecar_filter.h) on
// fuzzer-chosen bytes: [mode][file bytes].
//
// Bit 0 of the mode reseals the file (its last 4 bytes replaced by the
// checksum of what precedes them), so that mutations get past the checksum
// and reach the parser; otherwise the bytes are read as given. The file is
// decoded from a heap block of exactly its size (the sanitizer sees any read
// past it). A file that decodes is encoded again and must decode to the same
// binding, counts and sections; its filters are then made with every
// built-in policy and asked about a few keys and ranges, which must not
// crash or read outside their bytes (damaged filters answer anything, but
// only within their bytes).

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "bloomtable/filter_policy.h"
#include "db/sidecar_filter.h"
#include "db/sidecar_format.h"
#include "util/coding.h"
#include "util/crc32c.h"

namespace bloomtable {
namespace {

void Probe(const SidecarFilter& filter) {
  for (const char* key : {"", "a", "key00001", "key00002\xff", "zzzzzzzz"}) {
    (void)filter.KeyMayMatch(key);
  }
  (void)filter.RangeMayMatch("key0", "key1");
  (void)filter.RangeMayMatch("key00001", "key00001\x00");
  (void)filter.RangeMayMatch("b", "a");
  (void)filter.MemoryUsage();
}

}  // namespace
}  // namespace bloomtable

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace bloomtable;
  if (size < 1) return 0;
  const bool reseal = (data[0] & 1) != 0;
  std::string bytes(reinterpret_cast<const char*>(data + 1), size - 1);
  if (reseal && bytes.size() >= 4) {
    bytes.resize(bytes.size() - 4);
    PutFixed32(&bytes, crc32c::Mask(crc32c::Value(bytes)));
  }
  std::unique_ptr<char[]> exact(new char[bytes.size() + 1]);
  std::memcpy(exact.get(), bytes.data(), bytes.size());
  absl::StatusOr<SidecarContents> contents =
      DecodeSidecar(std::string_view(exact.get(), bytes.size()));
  if (!contents.ok()) return 0;

  absl::StatusOr<SidecarContents> again =
      DecodeSidecar(EncodeSidecar(*contents));
  if (!again.ok() || again->binding != contents->binding ||
      again->keys != contents->keys || again->entries != contents->entries ||
      again->settings != contents->settings ||
      again->sections.size() != contents->sections.size()) {
    __builtin_trap();
  }

  const std::vector<std::shared_ptr<const FilterPolicy>> policies = {
      NewRibbonFilterPolicy(10), NewCacheLocalBloomFilterPolicy(10),
      NewLevelDBBloomFilterPolicy(10), NewLegacyLevelDBBloomFilterPolicy(10)};
  for (bool bytewise : {true, false}) {
    absl::StatusOr<std::unique_ptr<SidecarFilter>> filter =
        SidecarFilter::Make(*contents, policies, bytewise);
    if (filter.ok()) Probe(**filter);
  }
  return 0;
}
