#include "table/restart_key_digest.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <utility>

#include "table/format.h"
#include "util/coding.h"
#include "util/integer_search.h"
#include "util/string_util.h"

namespace bloomtable {
namespace {

// Internal keys end in an 8-byte (sequence, type) tag.
constexpr size_t kTagSize = 8;

}  // namespace

RestartKeyDigest::RestartKeyDigest(KeyOrder order, uint32_t num_restarts)
    : order_(order), num_restarts_(num_restarts) {}

std::unique_ptr<const RestartKeyDigest> RestartKeyDigest::Build(
    const Block& block, KeyOrder order, bool keep_block_offsets) {
  const uint32_t n = block.num_restarts();
  if (n < 2) return nullptr;
  std::vector<std::string_view> user_keys;
  user_keys.reserve(n - 1);
  std::vector<uint32_t> block_offsets;
  if (keep_block_offsets) block_offsets.reserve(n - 1);
  for (uint32_t i = 0; i + 1 < n; ++i) {
    std::string_view key;
    std::string_view value;
    if (!block.RestartEntry(i, &key, &value)) return nullptr;
    if (keep_block_offsets) {
      // One entry per restart point: this one ends where the next begins.
      BlockHandle handle;
      std::string_view encoded = value;
      if (value.data() + value.size() != block.RestartEntryStart(i + 1) ||
          !handle.DecodeFrom(&encoded).ok() ||
          handle.offset() > std::numeric_limits<uint32_t>::max()) {
        keep_block_offsets = false;
        block_offsets.clear();
        block_offsets.shrink_to_fit();
      } else {
        block_offsets.push_back(static_cast<uint32_t>(handle.offset()));
      }
    }
    if (order == KeyOrder::kInternalBytewise) {
      if (key.size() < kTagSize) return nullptr;
      key.remove_suffix(kTagSize);
    }
    // Sorted user keys share the prefix of the first and the last.
    if (!user_keys.empty() && key.compare(user_keys.back()) < 0) {
      return nullptr;
    }
    user_keys.push_back(key);
  }
  const std::string_view first = user_keys.front();
  const size_t common = CommonPrefixLength(first, user_keys.back());

  std::unique_ptr<RestartKeyDigest> digest(new RestartKeyDigest(order, n));
  digest->common_prefix_.assign(first.data(), common);
  digest->block_offsets_ = std::move(block_offsets);
  digest->prefixes_.reserve(user_keys.size());
  for (std::string_view key : user_keys) {
    digest->prefixes_.push_back(BigEndianPrefix64(key.substr(common)));
  }
  return digest;
}

bool RestartKeyDigest::Bounds(std::string_view target, uint32_t* below,
                              uint32_t* above) const {
  const auto digested = static_cast<uint32_t>(prefixes_.size());
  std::string_view user_key = target;
  if (order_ == KeyOrder::kInternalBytewise) {
    if (user_key.size() < kTagSize) return false;
    user_key.remove_suffix(kTagSize);
  }
  const size_t common = common_prefix_.size();
  const size_t compared = std::min(common, user_key.size());
  const int order =
      compared == 0
          ? 0
          : std::memcmp(user_key.data(), common_prefix_.data(), compared);
  if (order < 0 || (order == 0 && user_key.size() < common)) {
    *below = *above = 0;  // before every digested key
  } else if (order > 0) {
    *below = *above = digested;  // after every one
  } else {
    const uint64_t target_prefix = BigEndianPrefix64(user_key.substr(common));
    // The first integer >= the target's, then past the ties, if any.
    const uint64_t* const prefixes = prefixes_.data();
    *below =
        static_cast<uint32_t>(FirstAtLeast(prefixes, digested, target_prefix));
    *above = *below;
    if (*above < digested && prefixes[*above] == target_prefix) {
      *above = static_cast<uint32_t>(std::upper_bound(prefixes + *above,
                                                      prefixes + digested,
                                                      target_prefix) -
                                     prefixes);
    }
  }
  return true;
}

void RestartKeyDigest::Narrow(std::string_view target, uint32_t* left,
                              uint32_t* right) const {
  const auto digested = static_cast<uint32_t>(prefixes_.size());
  *left = 0;
  *right = num_restarts_ - 1;
  uint32_t below;
  uint32_t above;
  if (!Bounds(target, &below, &above)) return;  // no internal key: search all
  // Restart below - 1 is < target; restart `above`, if digested, is not,
  // so the last restart < target comes before it. The last restart point
  // is not digested: it stays a candidate unless a digested one is above.
  *left = below > 0 ? below - 1 : 0;
  if (above < digested) *right = above > 0 ? above - 1 : 0;
}

bool RestartKeyDigest::CertainEntry(std::string_view target,
                                    uint32_t* entry) const {
  if (block_offsets_.empty()) return false;
  uint32_t below;
  uint32_t above;
  if (!Bounds(target, &below, &above)) return false;
  // No tie, and a digested entry after the target: entries [0, below) are
  // < target and entry `below` is > target (one entry per restart point).
  if (below != above || below >= prefixes_.size()) return false;
  *entry = below;
  return true;
}

size_t RestartKeyDigest::MemoryUsage() const {
  return sizeof(*this) + common_prefix_.capacity() +
         prefixes_.capacity() * sizeof(uint64_t) +
         block_offsets_.capacity() * sizeof(uint32_t);
}

}  // namespace bloomtable
