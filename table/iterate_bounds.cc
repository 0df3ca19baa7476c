#include "table/iterate_bounds.h"

#include "table/internal_key.h"
#include "table/prefix_filter_block.h"

namespace bloomtable {

IterateBounds::IterateBounds(const ScanSetup& setup,
                             const ReadOptions& read_options)
    : setup_(setup),
      bytewise_(setup.user_comparator == BytewiseComparator()),
      prefix_same_as_start_(read_options.prefix_same_as_start &&
                            setup.prefix_extractor != nullptr),
      lower_(read_options.iterate_lower_bound),
      upper_(read_options.iterate_upper_bound),
      lower_seek_key_(lower_ ? SeekKeyFor(*lower_) : std::string()),
      upper_seek_key_(upper_ ? SeekKeyFor(*upper_) : std::string()),
      active_(lower_ || upper_ || prefix_same_as_start_) {}

std::string_view IterateBounds::UserKey(std::string_view stored_key) const {
  return setup_.internal_keys ? ExtractUserKey(stored_key) : stored_key;
}

std::string IterateBounds::SeekKeyFor(std::string_view user_key) const {
  if (!setup_.internal_keys) return std::string(user_key);
  // The newest possible version sorts first among the user key's entries.
  std::string key;
  AppendInternalKey(&key, user_key, kMaxSequenceNumber, ValueType::kValue);
  return key;
}

bool IterateBounds::StartScan(const std::string_view* key) {
  forward_limit_ = upper_;
  backward_limit_ = lower_;
  prefix_.reset();
  if (!prefix_same_as_start_ || key == nullptr) return true;
  const PrefixExtractor& extractor = *setup_.prefix_extractor;
  if (!extractor.InDomain(*key)) return true;  // total order from here
  const std::string_view prefix = extractor.Transform(*key);
  prefix_ = std::string(prefix);
  if (bytewise_) {
    // Every key with this prefix starts with it (Transform returns a key's
    // first bytes), so lies in [prefix, PrefixSuccessor(prefix)).
    if (!backward_limit_ || Compare(*backward_limit_, prefix) < 0) {
      backward_limit_ = std::string(prefix);
    }
    std::string successor = PrefixSuccessor(prefix);
    if (!successor.empty() &&
        (!forward_limit_ || Compare(successor, *forward_limit_) < 0)) {
      forward_limit_ = std::move(successor);
    }
  }
  const ScanFilters* filters = setup_.filters;
  return filters == nullptr || filters->prefix_extractor() == nullptr ||
         filters->PrefixMayMatch(*prefix_);
}

bool IterateBounds::OutsidePrefix(std::string_view user_key) const {
  if (!prefix_) return false;
  const PrefixExtractor& extractor = *setup_.prefix_extractor;
  return !extractor.InDomain(user_key) ||
         extractor.Transform(user_key) != *prefix_;
}

bool IterateBounds::RangeMayMatch(std::string_view lo,
                                  std::string_view hi) const {
  const ScanFilters* filters = setup_.filters;
  if (filters == nullptr || !bytewise_ || !filters->CanAnswerRanges()) {
    return true;
  }
  // In prefix mode the prefix filter has been asked already.
  return filters->RangeMayMatch(lo, hi, /*ask_prefix=*/!prefix_.has_value());
}

bool IterateBounds::BeginForward(const std::string_view* from,
                                 const std::string_view* prefix_key) {
  if (from != nullptr && upper_ && Compare(*from, *upper_) >= 0) return false;
  if (!StartScan(prefix_key)) return false;
  if (!forward_limit_) return true;
  return RangeMayMatch(from != nullptr ? *from : std::string_view(),
                       *forward_limit_);
}

bool IterateBounds::BeginBackward(const std::string_view* to,
                                  const std::string_view* prefix_key) {
  if (to != nullptr && lower_ && Compare(*to, *lower_) < 0) return false;
  if (!StartScan(prefix_key)) return false;
  if (setup_.filters == nullptr || !bytewise_) return true;
  const std::string_view lo =
      backward_limit_ ? std::string_view(*backward_limit_) : std::string_view();
  if (to == nullptr) {
    return !forward_limit_ || RangeMayMatch(lo, *forward_limit_);
  }
  // [lo, to] is [lo, to + "\0") under the bytewise order.
  std::string hi(*to);
  hi.push_back('\0');
  if (forward_limit_ && Compare(*forward_limit_, hi) < 0) hi = *forward_limit_;
  return RangeMayMatch(lo, hi);
}

}  // namespace bloomtable
