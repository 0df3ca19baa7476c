#include "table/prefix_filter_block.h"

#include <utility>

#include "absl/strings/str_format.h"
#include "util/coding.h"

namespace bloomtable {
namespace {

// The trailer after the extractor name: fixed32 name length, flags, version.
constexpr size_t kTrailerSize = 4 + 1 + 1;
constexpr unsigned char kWholeKeysFlag = 0x01;
// Version 1 is the only layout; a later one is refused (no filter), never
// guessed at.
constexpr unsigned char kVersion = 1;

}  // namespace

std::string PrefixSuccessor(std::string_view prefix) {
  std::string successor(prefix);
  while (!successor.empty() &&
         static_cast<unsigned char>(successor.back()) == 0xff) {
    successor.pop_back();
  }
  if (!successor.empty()) {
    successor.back() =
        static_cast<char>(static_cast<unsigned char>(successor.back()) + 1);
  }
  return successor;
}

PrefixFilterBuilder::PrefixFilterBuilder(const FilterPolicy* policy,
                                         const PrefixExtractor* extractor,
                                         bool whole_keys)
    : extractor_(extractor), whole_keys_(whole_keys), entries_(policy) {}

PrefixFilterBuilder::~PrefixFilterBuilder() = default;

void PrefixFilterBuilder::AddKey(std::string_view key) {
  // The versions of a user key in a LevelDB-internal table are adjacent.
  if (has_key_ && key == last_key_) return;
  last_key_.assign(key.data(), key.size());
  has_key_ = true;
  if (whole_keys_) entries_.AddKey(key);
  if (!extractor_->InDomain(key)) return;
  const std::string_view prefix = extractor_->Transform(key);
  if (has_prefix_ && prefix == last_prefix_) return;
  last_prefix_.assign(prefix.data(), prefix.size());
  has_prefix_ = true;
  entries_.AddKey(prefix);
}

void PrefixFilterBuilder::Finish(std::string* dst) {
  entries_.Finish(dst);
  const std::string_view name = extractor_->Name();
  dst->append(name.data(), name.size());
  PutFixed32(dst, static_cast<uint32_t>(name.size()));
  dst->push_back(static_cast<char>(whole_keys_ ? kWholeKeysFlag : 0));
  dst->push_back(static_cast<char>(kVersion));
}

PrefixFilterReader::PrefixFilterReader(std::unique_ptr<FilterReader> filter,
                                       std::string_view extractor_name,
                                       bool whole_keys,
                                       const PrefixExtractor* extractor)
    : filter_(std::move(filter)),
      extractor_name_(extractor_name),
      whole_keys_(whole_keys),
      extractor_(extractor) {}

absl::StatusOr<PrefixFilterParts> ParsePrefixFilterBlock(
    std::string_view block) {
  if (block.size() < kTrailerSize) {
    return absl::DataLossError(absl::StrFormat(
        "prefix filter block of %u bytes is shorter than its trailer",
        block.size()));
  }
  const auto version = static_cast<unsigned char>(block.back());
  const auto flags = static_cast<unsigned char>(block[block.size() - 2]);
  if (version != kVersion) {
    return absl::UnimplementedError(
        absl::StrFormat("prefix filter block version %u (only %u is known)",
                        version, kVersion));
  }
  if ((flags & ~kWholeKeysFlag) != 0) {
    return absl::UnimplementedError(
        absl::StrFormat("prefix filter block flags 0x%02x unknown", flags));
  }
  const uint32_t name_size =
      DecodeFixed32(block.data() + block.size() - kTrailerSize);
  if (name_size > block.size() - kTrailerSize) {
    return absl::DataLossError(absl::StrFormat(
        "prefix filter block: extractor name of %u bytes in a block of %u",
        name_size, block.size()));
  }
  const size_t filter_size = block.size() - kTrailerSize - name_size;
  PrefixFilterParts parts;
  parts.filter = block.substr(0, filter_size);
  parts.extractor_name = block.substr(filter_size, name_size);
  parts.whole_keys = (flags & kWholeKeysFlag) != 0;
  return parts;
}

absl::StatusOr<std::unique_ptr<PrefixFilterReader>> PrefixFilterReader::Parse(
    const FilterPolicy* policy, const PrefixExtractor* extractor,
    std::string_view block) {
  absl::StatusOr<PrefixFilterParts> parts = ParsePrefixFilterBlock(block);
  if (!parts.ok()) return parts.status();
  if (extractor != nullptr && extractor->Name() != parts->extractor_name) {
    extractor = nullptr;
  }
  return std::unique_ptr<PrefixFilterReader>(new PrefixFilterReader(
      policy->NewReader(parts->filter), parts->extractor_name,
      parts->whole_keys, extractor));
}

bool PrefixFilterReader::KeyMayMatch(std::string_view key) const {
  if (whole_keys_) return filter_->KeyMayMatch(key);
  if (extractor_ != nullptr && extractor_->InDomain(key)) {
    return filter_->KeyMayMatch(extractor_->Transform(key));
  }
  return true;
}

}  // namespace bloomtable
