#include "db/sidecar_set.h"

#include <functional>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "bloomtable/file.h"
#include "db/sidecar_builder.h"
#include "db/sidecar_format.h"

namespace bloomtable {
namespace {

// Missing sidecars are named in one warning, up to this many.
constexpr size_t kMissingNamed = 5;

std::string NotUsed(const std::string& path, absl::string_view reason) {
  return absl::StrCat(path, ": sidecar filter not used (", reason,
                      "); the table's own filter answers");
}

}  // namespace

SidecarSet::SidecarSet(
    const std::vector<std::vector<DatabaseTableFile>>* levels,
    std::vector<std::shared_ptr<const FilterPolicy>> policies, bool bytewise)
    : levels_(levels), policies_(std::move(policies)), bytewise_(bytewise) {
  for (const std::vector<DatabaseTableFile>& files : *levels_) {
    auto slots =
        std::make_unique<std::atomic<const SidecarFilter*>[]>(files.size());
    for (size_t i = 0; i < files.size(); ++i) {
      slots[i].store(nullptr, std::memory_order_relaxed);
    }
    slots_.push_back(std::move(slots));
  }
}

SidecarSet::~SidecarSet() {
  stop_.store(true, std::memory_order_relaxed);
  if (builder_.joinable()) builder_.join();
}

void SidecarSet::Install(size_t level, size_t index,
                         std::unique_ptr<SidecarFilter> filter) {
  std::lock_guard<std::mutex> lock(mutex_);
  slots_[level][index].store(filter.get(), std::memory_order_release);
  filters_.push_back(std::move(filter));
}

void SidecarSet::Load(const std::string& db_dir, const std::string& sidecar_dir,
                      std::vector<std::string>* warnings) {
  std::vector<std::string> missing;
  size_t tables = 0;
  for (size_t level = 0; level < levels_->size(); ++level) {
    const std::vector<DatabaseTableFile>& files = (*levels_)[level];
    for (size_t index = 0; index < files.size(); ++index) {
      const DatabaseTableFile& file = files[index];
      ++tables;
      const std::string path =
          absl::StrCat(sidecar_dir, "/", SidecarFileName(file.name));
      SidecarLoad load =
          LoadTableSidecar(db_dir, path, file, policies_, bytewise_);
      switch (load.state) {
        case SidecarState::kUsable:
          Install(level, index, std::move(load.filter));
          break;
        case SidecarState::kMissing:
          missing.push_back(file.name);
          break;
        case SidecarState::kStale:
          warnings->push_back(
              NotUsed(path, absl::StrCat("stale: ", load.status.message())));
          break;
        case SidecarState::kDamaged:
        case SidecarState::kUnusable:
          warnings->push_back(NotUsed(path, load.status.message()));
          break;
      }
    }
  }
  if (!missing.empty()) {
    const size_t named = std::min(missing.size(), kMissingNamed);
    warnings->push_back(absl::StrCat(
        sidecar_dir, ": no sidecar filter for ", missing.size(), " of ", tables,
        " tables (",
        absl::StrJoin(missing.begin(), missing.begin() + named, ", "),
        missing.size() > named ? ", ..." : "", "); their own filters answer"));
  }
}

std::vector<uint64_t> SidecarSet::Covered() const {
  std::vector<uint64_t> numbers;
  for (size_t level = 0; level < levels_->size(); ++level) {
    const std::vector<DatabaseTableFile>& files = (*levels_)[level];
    for (size_t index = 0; index < files.size(); ++index) {
      if (Find(level, index) != nullptr) numbers.push_back(files[index].number);
    }
  }
  return numbers;
}

void SidecarSet::StartBuildingInMemory(TableSet* tables,
                                       const SidecarFilterOptions& options) {
  uint64_t pending = 0;
  for (size_t level = 0; level < levels_->size(); ++level) {
    for (size_t index = 0; index < (*levels_)[level].size(); ++index) {
      if (Find(level, index) == nullptr) ++pending;
    }
  }
  pending_.store(pending, std::memory_order_relaxed);
  if (pending == 0) return;
  builder_ = std::thread(&SidecarSet::BuildInMemory, this, tables, options);
}

void SidecarSet::BuildInMemory(TableSet* tables, SidecarFilterOptions options) {
  const auto keep_going = [this](uint64_t) {
    return !stop_.load(std::memory_order_relaxed);
  };
  for (size_t level = 0; level < levels_->size(); ++level) {
    const std::vector<DatabaseTableFile>& files = (*levels_)[level];
    for (size_t index = 0; index < files.size(); ++index) {
      if (stop_.load(std::memory_order_relaxed)) return;
      if (Find(level, index) != nullptr) continue;
      absl::StatusOr<std::shared_ptr<const Table>> table =
          tables->Open(files[index]);
      absl::StatusOr<SidecarContents> contents =
          table.ok() ? BuildSidecarContents(**table, /*internal_keys=*/true,
                                            options, bytewise_, keep_going)
                     : absl::StatusOr<SidecarContents>(table.status());
      absl::StatusOr<std::unique_ptr<SidecarFilter>> filter =
          contents.ok()
              ? SidecarFilter::Make(*std::move(contents),
                                    {SidecarPolicy(options)}, bytewise_)
              : absl::StatusOr<std::unique_ptr<SidecarFilter>>(
                    contents.status());
      if (filter.ok()) {
        Install(level, index, *std::move(filter));
      } else if (!absl::IsCancelled(filter.status())) {
        // The table answers for itself, and reports its damage to the
        // lookups that need it.
        build_failures_.fetch_add(1, std::memory_order_relaxed);
      }
      pending_.fetch_sub(1, std::memory_order_relaxed);
    }
  }
}

void SidecarSet::AddCounts(uint64_t checks, uint64_t negatives) const {
  CountShard& shard =
      count_shards_[std::hash<std::thread::id>()(std::this_thread::get_id()) %
                    kCountShards];
  shard.checks.fetch_add(checks, std::memory_order_relaxed);
  if (negatives > 0) {
    shard.negatives.fetch_add(negatives, std::memory_order_relaxed);
  }
}

void SidecarSet::AddStats(DatabaseStats* stats) const {
  // Negatives first: a snapshot taken while lookups run then never shows
  // more negatives than checks.
  for (const CountShard& shard : count_shards_) {
    stats->sidecar_filter_negatives +=
        shard.negatives.load(std::memory_order_relaxed);
  }
  for (const CountShard& shard : count_shards_) {
    stats->sidecar_filter_checks +=
        shard.checks.load(std::memory_order_relaxed);
  }
  std::lock_guard<std::mutex> lock(mutex_);
  for (const std::unique_ptr<SidecarFilter>& filter : filters_) {
    const TableStats counts = filter->counters().Snapshot();
    ++stats->sidecar_tables;
    stats->sidecar_memory_bytes += filter->MemoryUsage();
    stats->sidecar_range_checks +=
        counts.prefix_filter_checks + counts.range_filter_checks;
    stats->sidecar_range_negatives +=
        counts.prefix_filter_negatives + counts.range_filter_negatives;
  }
  stats->sidecars_pending += pending_.load(std::memory_order_relaxed);
  stats->sidecar_build_failures +=
      build_failures_.load(std::memory_order_relaxed);
}

}  // namespace bloomtable
