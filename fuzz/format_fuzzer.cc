// The footer and block-handle decoders, and the footer layout check, on
// arbitrary bytes.

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
    const uint64_t footer_offset = size - bloomtable::Footer::kEncodedLength;
    if (footer.DecodeFrom(bytes.substr(footer_offset)).ok()) {
      (void)bloomtable::CheckFooterLayout(footer, footer_offset);
      // Also as if the file were much larger than the input.
      (void)bloomtable::CheckFooterLayout(footer, ~uint64_t{0} - 48);
    }
  }
  return 0;
}
