// The footer and block-handle decoders on arbitrary bytes.

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "table/format.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  bloomtable::BlockHandle handle;
  std::string_view input = bytes;
  while (handle.DecodeFrom(&input).ok()) {
    (void)handle.FitsWithin(size);
  }
  if (size >= bloomtable::Footer::kEncodedLength) {
    bloomtable::Footer footer;
    (void)footer.DecodeFrom(
        bytes.substr(size - bloomtable::Footer::kEncodedLength));
  }
  return 0;
}
