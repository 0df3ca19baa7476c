// SidecarFilter: the filters of one sidecar filter file (db/sidecar_format.h),
// parsed and ready to answer for its table: the point filter, asked by
// Database::Get before the table itself, and the prefix and range filters,
// asked by iterators whose bounds they can rule out.
//
// It holds its own copy of the filter bytes. Immutable after Make, except
// its scan filters' counters (relaxed atomics): safe for concurrent queries.

#ifndef BLOOMTABLE_DB_SIDECAR_FILTER_H_
#define BLOOMTABLE_DB_SIDECAR_FILTER_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "bloomtable/database.h"
#include "bloomtable/filter_policy.h"
#include "bloomtable/prefix_extractor.h"
#include "db/sidecar_format.h"
#include "filter/ribbon.h"
#include "table/scan_filters.h"
#include "table/table_counters.h"

namespace bloomtable {

// A lookup's user key as sidecar filters take it: hashed once for every
// Ribbon filter built with seed 0 (almost all of them), so that a lookup
// that asks many tables' filters hashes the key once.
struct SidecarKey {
  SidecarKey() = default;  // no key: for a lookup that asks no sidecar
  explicit SidecarKey(std::string_view key)
      : user_key(key), ribbon_hash(RibbonView::Hash(key, 0)) {}
  std::string_view user_key;
  uint64_t ribbon_hash = 0;
};

class SidecarFilter {
 public:
  // Parses the sections of `contents`. The point filter's policy is found
  // by the name it records among `policies`, the prefix filter's extractor
  // by the name its block stores (a built-in extractor). `bytewise`: the
  // table's keys are in bytewise order (range filters need it). Errors:
  // Unimplemented for a policy or extractor this reader does not have,
  // DataLoss for a section that does not parse, InvalidArgument for a file
  // without a point filter.
  static absl::StatusOr<std::unique_ptr<SidecarFilter>> Make(
      SidecarContents contents,
      const std::vector<std::shared_ptr<const FilterPolicy>>& policies,
      bool bytewise);

  SidecarFilter(const SidecarFilter&) = delete;
  SidecarFilter& operator=(const SidecarFilter&) = delete;
  ~SidecarFilter();

  // False only if the table holds no version of `user_key`, deletion
  // markers included. Not counted here: the caller counts a lookup's
  // questions once for all of them (SidecarSet::LookupCounts).
  bool KeyMayMatch(const SidecarKey& key) const {
    if (ribbon_ != nullptr) {
      return ribbon_->HashMayMatch(
          ribbon_->seed() == 0
              ? key.ribbon_hash
              : RibbonView::Hash(key.user_key, ribbon_->seed()));
    }
    return point_->KeyMayMatch(key.user_key);
  }
  bool KeyMayMatch(std::string_view user_key) const {
    return KeyMayMatch(SidecarKey(user_key));
  }
  // Brings toward the cache what KeyMayMatch(key) reads first, without
  // waiting for it: a lookup prefetches every table's filter, then asks
  // them, so that their cache misses overlap.
  void Prefetch(const SidecarKey& key) const {
    if (ribbon_ != nullptr) {
      ribbon_->PrefetchHash(
          ribbon_->seed() == 0
              ? key.ribbon_hash
              : RibbonView::Hash(key.user_key, ribbon_->seed()));
    } else {
      point_->Prefetch(key.user_key);
    }
  }

  // False only if the table holds no (user) key in [lo, hi) (bytewise):
  // asks the range filter, and the prefix filter when every key of the
  // range shares lo's prefix. True when neither can tell.
  bool RangeMayMatch(std::string_view lo, std::string_view hi) const;

  const SidecarBinding& binding() const { return binding_; }
  uint64_t keys() const { return keys_; }
  std::string_view policy_name() const { return policy_->Name(); }
  bool has_prefix_filter() const { return has_prefix_; }
  bool has_range_filter() const { return has_range_; }
  // The filter bytes held.
  size_t MemoryUsage() const;
  // The prefix and range filters' answers.
  const TableCounters& counters() const { return counters_; }

 private:
  SidecarFilter() = default;

  SidecarBinding binding_;
  uint64_t keys_ = 0;
  std::shared_ptr<const FilterPolicy> policy_;
  std::string point_bytes_;  // point_ reads it
  std::unique_ptr<FilterReader> point_;
  // The point filter read directly, when it is a Ribbon filter proper
  // (what point_ would answer, without its virtual call and with the key's
  // hash shared): null otherwise.
  std::unique_ptr<RibbonView> ribbon_;
  std::shared_ptr<const PrefixExtractor> extractor_;
  std::unique_ptr<ScanFilters> scan_;
  bool has_prefix_ = false;
  bool has_range_ = false;
  mutable TableCounters counters_;
};

// What reading a table's sidecar came to.
enum class SidecarState {
  kUsable,    // bound to the table: `filter` is set
  kMissing,   // no sidecar file
  kStale,     // a sound file, bound to another table (or another version)
  kDamaged,   // not a sound sidecar file (DataLoss, or a filter that does
              // not parse)
  kUnusable,  // a sound file this reader cannot use (a later version, an
              // unknown policy), or a table that could not be checked
};

struct SidecarLoad {
  SidecarState state = SidecarState::kMissing;
  absl::Status status;  // why, unless kUsable or kMissing
  std::unique_ptr<SidecarFilter> filter;
};

// Reads the sidecar at `sidecar_path` of `table`, a table of the database
// in `db_dir`: decodes it, checks it against what the MANIFEST records,
// then against the table file itself (a few small reads at its end: no
// data block), and parses its filters (SidecarFilter::Make).
SidecarLoad LoadTableSidecar(
    const std::string& db_dir, const std::string& sidecar_path,
    const DatabaseTableFile& table,
    const std::vector<std::shared_ptr<const FilterPolicy>>& policies,
    bool bytewise);

}  // namespace bloomtable

#endif  // BLOOMTABLE_DB_SIDECAR_FILTER_H_
