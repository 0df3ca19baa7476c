#include "db/sidecar_format.h"

#include "absl/strings/str_cat.h"
#include "util/coding.h"
#include "util/crc32c.h"
#include "util/string_util.h"

namespace bloomtable {
namespace {

absl::Status Damaged(std::string_view what) {
  return absl::DataLossError(absl::StrCat("sidecar file: ", ToAbsl(what)));
}

// Takes `n` bytes from the front of *input into *out.
bool GetBytes(std::string_view* input, size_t n, std::string* out) {
  if (input->size() < n) return false;
  out->assign(input->data(), n);
  input->remove_prefix(n);
  return true;
}

bool GetLengthPrefixedString(std::string_view* input, std::string* out) {
  std::string_view value;
  if (!GetLengthPrefixed(input, &value)) return false;
  out->assign(value.data(), value.size());
  return true;
}

bool GetByte(std::string_view* input, uint8_t* value) {
  if (input->empty()) return false;
  *value = static_cast<uint8_t>(input->front());
  input->remove_prefix(1);
  return true;
}

}  // namespace

bool SidecarBinding::operator==(const SidecarBinding& other) const {
  return kind == other.kind && file_number == other.file_number &&
         file_size == other.file_size && footer == other.footer &&
         index_trailer == other.index_trailer &&
         meta_trailers == other.meta_trailers && smallest == other.smallest &&
         largest == other.largest;
}

const SidecarSection* FindSidecarSection(const SidecarContents& contents,
                                         SidecarSectionType type) {
  for (const SidecarSection& section : contents.sections) {
    if (section.type == type) return &section;
  }
  return nullptr;
}

std::string EncodeSidecar(const SidecarContents& contents) {
  const SidecarBinding& binding = contents.binding;
  std::string out;
  PutFixed64(&out, kSidecarMagic);
  PutFixed32(&out, kSidecarVersion);
  out.push_back(static_cast<char>(binding.kind));
  PutVarint64(&out, binding.file_number);
  PutVarint64(&out, binding.file_size);
  out.append(binding.footer);
  out.append(binding.index_trailer);
  PutVarint32(&out, static_cast<uint32_t>(binding.meta_trailers.size()));
  for (const std::string& trailer : binding.meta_trailers) out.append(trailer);
  PutLengthPrefixed(&out, binding.smallest);
  PutLengthPrefixed(&out, binding.largest);
  out.push_back(contents.internal_keys ? 1 : 0);
  PutVarint64(&out, contents.entries);
  PutVarint64(&out, contents.keys);
  PutLengthPrefixed(&out, contents.settings);
  PutVarint32(&out, static_cast<uint32_t>(contents.sections.size()));
  for (const SidecarSection& section : contents.sections) {
    out.push_back(static_cast<char>(section.type));
    PutLengthPrefixed(&out, section.name);
    PutVarint64(&out, section.data.size());
    out.append(section.data);
  }
  PutFixed32(&out, crc32c::Mask(crc32c::Value(out)));
  return out;
}

absl::StatusOr<SidecarContents> DecodeSidecar(std::string_view file) {
  if (file.size() < kSidecarMinSize) {
    return Damaged(absl::StrCat("too short (", file.size(), " bytes)"));
  }
  if (DecodeFixed64(file.data()) != kSidecarMagic) {
    return Damaged("bad magic number (not a sidecar filter file)");
  }
  const size_t body_size = file.size() - 4;
  const uint32_t stored =
      crc32c::Unmask(DecodeFixed32(file.data() + body_size));
  if (stored != crc32c::Value(file.data(), body_size)) {
    return Damaged("checksum mismatch");
  }
  std::string_view input = file.substr(8, body_size - 8);
  uint32_t version = 0;
  GetFixed32(&input, &version);
  if (version != kSidecarVersion) {
    return absl::UnimplementedError(
        absl::StrCat("sidecar file: version ", version,
                     " (this build reads version ", kSidecarVersion, ")"));
  }

  SidecarContents contents;
  SidecarBinding& binding = contents.binding;
  uint8_t kind = 0;
  if (!GetByte(&input, &kind)) return Damaged("truncated binding");
  if (kind != static_cast<uint8_t>(SidecarTableKind::kDatabaseTable) &&
      kind != static_cast<uint8_t>(SidecarTableKind::kTableFile)) {
    return absl::UnimplementedError(
        absl::StrCat("sidecar file: unknown table kind ", kind));
  }
  binding.kind = static_cast<SidecarTableKind>(kind);
  uint32_t meta_count = 0;
  if (!GetVarint64(&input, &binding.file_number) ||
      !GetVarint64(&input, &binding.file_size) ||
      !GetBytes(&input, kSidecarFooterSize, &binding.footer) ||
      !GetBytes(&input, kSidecarTrailerSize, &binding.index_trailer) ||
      !GetVarint32(&input, &meta_count)) {
    return Damaged("truncated binding");
  }
  // Each trailer is read before the next is made room for: a count larger
  // than the bytes left fails at the end of the bytes.
  for (uint32_t i = 0; i < meta_count; ++i) {
    std::string trailer;
    if (!GetBytes(&input, kSidecarTrailerSize, &trailer)) {
      return Damaged("truncated meta block trailers");
    }
    binding.meta_trailers.push_back(std::move(trailer));
  }
  if (!GetLengthPrefixedString(&input, &binding.smallest) ||
      !GetLengthPrefixedString(&input, &binding.largest)) {
    return Damaged("truncated key range");
  }

  uint8_t key_kind = 0;
  uint32_t section_count = 0;
  if (!GetByte(&input, &key_kind) || key_kind > 1 ||
      !GetVarint64(&input, &contents.entries) ||
      !GetVarint64(&input, &contents.keys) ||
      !GetLengthPrefixedString(&input, &contents.settings) ||
      !GetVarint32(&input, &section_count)) {
    return Damaged("malformed key counts");
  }
  contents.internal_keys = key_kind == 1;
  for (uint32_t i = 0; i < section_count; ++i) {
    uint8_t type = 0;
    std::string_view name;
    uint64_t length = 0;
    if (!GetByte(&input, &type) || !GetLengthPrefixed(&input, &name) ||
        !GetVarint64(&input, &length) || length > input.size()) {
      return Damaged(absl::StrCat("section ", i, " runs past the end"));
    }
    const std::string_view data = input.substr(0, length);
    input.remove_prefix(length);
    if (type < static_cast<uint8_t>(SidecarSectionType::kPointFilter) ||
        type > static_cast<uint8_t>(SidecarSectionType::kRangeFilter)) {
      continue;  // a later writer's section: not for this reader
    }
    SidecarSection section;
    section.type = static_cast<SidecarSectionType>(type);
    section.name.assign(name.data(), name.size());
    section.data.assign(data.data(), data.size());
    contents.sections.push_back(std::move(section));
  }
  if (!input.empty()) {
    return Damaged(absl::StrCat(input.size(), " bytes after the last section"));
  }
  return contents;
}

}  // namespace bloomtable
