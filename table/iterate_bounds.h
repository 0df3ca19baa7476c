// IterateBounds is what a table iterator knows about the part of the table
// it may yield: ReadOptions' iterate_lower_bound and iterate_upper_bound
// (user keys), and in prefix mode (prefix_same_as_start) the prefix of the
// last Seek target. It turns each positioning call into limits on user keys
// (the bounds, narrowed to the prefix's keys under the bytewise order) and
// asks the table's scan filters whether any key lies within them, so that an
// empty scan ends before any data block is read.
//
// Used by one iterator, from one thread at a time; the comparator, the
// extractor and the filters (ScanSetup) must outlive it.

#ifndef BLOOMTABLE_TABLE_ITERATE_BOUNDS_H_
#define BLOOMTABLE_TABLE_ITERATE_BOUNDS_H_

#include <optional>
#include <string>
#include <string_view>

#include "bloomtable/comparator.h"
#include "bloomtable/options.h"
#include "bloomtable/prefix_extractor.h"
#include "table/scan_filters.h"

namespace bloomtable {

// What a table tells its iterators about keys and filters.
struct ScanSetup {
  // Orders user keys (Options::comparator).
  const Comparator* user_comparator = nullptr;
  // Stored keys are LevelDB internal keys: bounds apply to their user keys.
  bool internal_keys = false;
  // Options::prefix_extractor, for prefix_same_as_start (may be null).
  const PrefixExtractor* prefix_extractor = nullptr;
  // The table's scan filters (may be null).
  const ScanFilters* filters = nullptr;
};

class IterateBounds {
 public:
  IterateBounds(const ScanSetup& setup, const ReadOptions& read_options);
  IterateBounds(const IterateBounds&) = delete;
  IterateBounds& operator=(const IterateBounds&) = delete;

  // False when no bound is set and prefix mode is off: the iterator then
  // needs no check at all.
  bool active() const { return active_; }

  // The user key of a stored key (an index separator or an entry).
  std::string_view UserKey(std::string_view stored_key) const;

  const std::optional<std::string>& lower() const { return lower_; }
  const std::optional<std::string>& upper() const { return upper_; }
  // The stored keys to seek to for the first entry at the lower bound, and
  // to stop before the upper bound. REQUIRES: that bound is set.
  std::string_view lower_seek_key() const { return lower_seek_key_; }
  std::string_view upper_seek_key() const { return upper_seek_key_; }

  bool BelowLower(std::string_view user_key) const {
    return lower_ && Compare(user_key, *lower_) < 0;
  }
  bool AtOrAboveUpper(std::string_view user_key) const {
    return upper_ && Compare(user_key, *upper_) >= 0;
  }

  // Start a scan forward from user key `from` (null: from the table's first
  // key), or backward from `to` (inclusive; null: from the last key). With
  // `prefix_key` (a Seek or SeekForPrev target's user key, null otherwise)
  // the scan is in prefix mode if the options ask for it and the key is in
  // the extractor's domain. `from` must not be below the lower bound. False
  // if the scan is certainly empty: `from` at or past the upper bound, `to`
  // below the lower bound, or a filter answered "no key".
  bool BeginForward(const std::string_view* from,
                    const std::string_view* prefix_key);
  bool BeginBackward(const std::string_view* to,
                     const std::string_view* prefix_key);

  // Whether a user key (of an entry, or an index separator: a block after
  // it holds only greater keys) is past the scan's forward limit.
  bool PastForwardLimit(std::string_view user_key) const {
    return forward_limit_ && Compare(user_key, *forward_limit_) >= 0;
  }
  // Whether a user key (of an entry, or an index separator: its block holds
  // only keys up to it) is below the scan's backward limit.
  bool BeforeBackwardLimit(std::string_view user_key) const {
    return backward_limit_ && Compare(user_key, *backward_limit_) < 0;
  }
  // In prefix mode, whether an entry's user key has another prefix.
  bool OutsidePrefix(std::string_view user_key) const;
  // Whether an entry's user key lies outside the scan: past either limit,
  // or of another prefix.
  bool OutsideScan(std::string_view user_key) const {
    return PastForwardLimit(user_key) || BeforeBackwardLimit(user_key) ||
           OutsidePrefix(user_key);
  }

 private:
  int Compare(std::string_view a, std::string_view b) const {
    return setup_.user_comparator->Compare(a, b);
  }
  std::string SeekKeyFor(std::string_view user_key) const;
  // Resets the limits to the bounds and, if `key` is given, prefix mode is
  // asked for and `key` is in the extractor's domain, enters prefix mode for
  // its prefix. False if the prefix filter says no key has that prefix.
  bool StartScan(const std::string_view* key);
  // Asks the filters about [lo, hi) (user keys, bytewise).
  bool RangeMayMatch(std::string_view lo, std::string_view hi) const;

  const ScanSetup setup_;
  const bool bytewise_;
  const bool prefix_same_as_start_;
  const std::optional<std::string> lower_;
  const std::optional<std::string> upper_;
  const std::string lower_seek_key_;
  const std::string upper_seek_key_;
  const bool active_;

  // The current scan's limits and prefix.
  std::optional<std::string> forward_limit_;
  std::optional<std::string> backward_limit_;
  std::optional<std::string> prefix_;
};

}  // namespace bloomtable

#endif  // BLOOMTABLE_TABLE_ITERATE_BOUNDS_H_
