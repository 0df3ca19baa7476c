// SidecarSet: the sidecar filters (bloomtable/sidecar.h) of a database
// view, one slot per table of its version, which Database::Get asks before
// the table itself and iterators ask before they open a table.
//
// Slots are filled at open from a sidecar directory (each file checked
// against its table: a missing, stale, damaged or foreign one leaves the
// slot empty, with a warning, and the table's own filter answers), and
// afterwards, when asked, by a background thread that builds the missing
// filters in memory from the tables' keys. A filled slot never changes
// again; an empty one answers "maybe".
//
// Thread-safety: the lookups (KeyMayMatch, RangeMayMatch, Find) take no
// lock: a slot is an atomic pointer, published once with release order, to
// a filter that is immutable but for its atomic counters. Load and Covered
// are called by the opening thread before any lookup. The background
// thread stops and is joined when the set is destroyed, which must happen
// before the TableSet it reads through is.

#ifndef BLOOMTABLE_DB_SIDECAR_SET_H_
#define BLOOMTABLE_DB_SIDECAR_SET_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "bloomtable/database.h"
#include "bloomtable/filter_policy.h"
#include "bloomtable/sidecar.h"
#include "db/sidecar_filter.h"
#include "db/table_set.h"

namespace bloomtable {

class SidecarSet {
 public:
  // `levels` are the version's tables by level, as the view orders them;
  // they must outlive the set and not change. `policies` are those a
  // sidecar's filter may name. `bytewise`: the database's comparator is the
  // bytewise one (range filters need it).
  SidecarSet(const std::vector<std::vector<DatabaseTableFile>>* levels,
             std::vector<std::shared_ptr<const FilterPolicy>> policies,
             bool bytewise);
  SidecarSet(const SidecarSet&) = delete;
  SidecarSet& operator=(const SidecarSet&) = delete;
  ~SidecarSet();

  // Reads the sidecar of every table of the database in `db_dir` from
  // `sidecar_dir` and checks its binding against the table (a few small
  // reads at the end of the table file: no data block). What is not used,
  // and why, goes to `warnings`.
  void Load(const std::string& db_dir, const std::string& sidecar_dir,
            std::vector<std::string>* warnings);

  // The numbers of the tables that have a sidecar now.
  std::vector<uint64_t> Covered() const;

  // Starts a thread that builds, in memory, the filters of the tables
  // without one (level 0 first, where every lookup asks each table), each
  // read through `tables` (which must outlive the set). Call once.
  void StartBuildingInMemory(TableSet* tables,
                             const SidecarFilterOptions& options);

  // The filter of table `index` of `level`, or null.
  const SidecarFilter* Find(size_t level, size_t index) const {
    return slots_[level][index].load(std::memory_order_acquire);
  }
  // One lookup's questions to the sidecars and their answers "absent",
  // added to the set's counts when it is destroyed: a lookup that asks
  // many tables costs one pair of atomic increments, not one per question
  // (an increment costs about as much as the question).
  class LookupCounts {
   public:
    explicit LookupCounts(const SidecarSet* set) : set_(set) {}
    LookupCounts(const LookupCounts&) = delete;
    LookupCounts& operator=(const LookupCounts&) = delete;
    ~LookupCounts() {
      if (checks_ > 0) set_->AddCounts(checks_, negatives_);
    }
    bool Record(bool may_match) {
      ++checks_;
      negatives_ += may_match ? 0 : 1;
      return may_match;
    }

   private:
    const SidecarSet* const set_;
    uint64_t checks_ = 0;
    uint64_t negatives_ = 0;
  };

  // False only if table `index` of `level` holds no version of `user_key`.
  // Counted in *counts when the table has a sidecar.
  bool KeyMayMatch(size_t level, size_t index, const SidecarKey& key,
                   LookupCounts* counts) const {
    const SidecarFilter* filter = Find(level, index);
    return filter == nullptr || counts->Record(filter->KeyMayMatch(key));
  }
  // Prefetches what KeyMayMatch(level, index, key, ...) reads first.
  void Prefetch(size_t level, size_t index, const SidecarKey& key) const {
    const SidecarFilter* filter = Find(level, index);
    if (filter != nullptr) filter->Prefetch(key);
  }
  // False only if table `index` of `level` holds no user key in [lo, hi).
  bool RangeMayMatch(size_t level, size_t index, std::string_view lo,
                     std::string_view hi) const {
    const SidecarFilter* filter = Find(level, index);
    return filter == nullptr || filter->RangeMayMatch(lo, hi);
  }

  // Adds the sidecars' counts and memory to `stats`.
  void AddStats(DatabaseStats* stats) const;

 private:
  void Install(size_t level, size_t index,
               std::unique_ptr<SidecarFilter> filter);
  void AddCounts(uint64_t checks, uint64_t negatives) const;
  void BuildInMemory(TableSet* tables, SidecarFilterOptions options);

  const std::vector<std::vector<DatabaseTableFile>>* const levels_;
  const std::vector<std::shared_ptr<const FilterPolicy>> policies_;
  const bool bytewise_;
  // One atomic pointer per table, per level.
  std::vector<std::unique_ptr<std::atomic<const SidecarFilter*>[]>> slots_;
  mutable std::mutex mutex_;
  // The installed filters (what slots_ point to), in installation order.
  std::vector<std::unique_ptr<SidecarFilter>> filters_;
  // Lookups' counts, spread over a few cache lines by thread, so that
  // threads looking keys up at once do not pass one line between them.
  struct alignas(64) CountShard {
    std::atomic<uint64_t> checks{0};
    std::atomic<uint64_t> negatives{0};
  };
  static constexpr size_t kCountShards = 8;
  mutable CountShard count_shards_[kCountShards];
  std::atomic<uint64_t> pending_{0};
  std::atomic<uint64_t> build_failures_{0};
  std::atomic<bool> stop_{false};
  std::thread builder_;
};

}  // namespace bloomtable

#endif  // BLOOMTABLE_DB_SIDECAR_SET_H_
