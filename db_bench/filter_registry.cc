#include "db_bench/filter_registry.h"

#include <cmath>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "util/string_util.h"

namespace bloomtable {
namespace db_bench {
namespace {

std::shared_ptr<const FilterPolicy> MakeLevelDBBloom(double bits_per_key) {
  return NewLevelDBBloomFilterPolicy(static_cast<int>(bits_per_key));
}

}  // namespace

const std::vector<FilterEntry>& FilterRegistry() {
  // One line per policy. Never destroyed: a function-local constant.
  static const auto* const kRegistry = new std::vector<FilterEntry>{
      {"leveldb_bloom",
       "LevelDB's Bloom filter (leveldb.BuiltinBloomFilter2), whole bits per "
       "key",
       /*fractional_bits=*/false, &MakeLevelDBBloom},
      {"cache_local_bloom",
       "bloomtable's cache-local Bloom filter (bloomtable.CacheLocalBloom)",
       /*fractional_bits=*/true,
       [](double bits) { return NewCacheLocalBloomFilterPolicy(bits); }},
      {"ribbon",
       "bloomtable's Ribbon filter (bloomtable.Ribbon), whole-table only; "
       "--bloom_bits is its memory budget (RocksDB's Ribbon takes "
       "Bloom-equivalent bits instead)",
       /*fractional_bits=*/true,
       [](double bits) { return NewRibbonFilterPolicy(bits); }},
  };
  return *kRegistry;
}

absl::StatusOr<const FilterEntry*> FindFilter(std::string_view name) {
  for (const FilterEntry& entry : FilterRegistry()) {
    if (entry.name == name) return &entry;
  }
  return absl::InvalidArgumentError(
      absl::StrCat("--filter: unknown policy '", ToAbsl(name),
                   "' (known: ", FilterNames(), ")"));
}

std::string FilterNames() {
  std::string names;
  for (const FilterEntry& entry : FilterRegistry()) {
    if (!names.empty()) names += ", ";
    absl::StrAppend(&names, ToAbsl(entry.name));
  }
  return names;
}

bool IsWholeNumber(double bits) { return std::floor(bits) == bits; }

std::string_view LayoutName(FilterLayout layout) {
  switch (layout) {
    case FilterLayout::kPerBlock:
      return "per_block";
    case FilterLayout::kWholeTable:
      return "whole_table";
    case FilterLayout::kPartitioned:
      return "partitioned";
  }
  return "unknown";
}

absl::StatusOr<ResolvedFilter> ResolveFilter(const FilterEntry& entry,
                                             double bits_per_key,
                                             std::string_view layout) {
  if (!entry.fractional_bits && !IsWholeNumber(bits_per_key)) {
    return absl::InvalidArgumentError(
        absl::StrFormat("--bloom_bits=%g: --filter=%s takes whole bits per key",
                        bits_per_key, ToAbsl(entry.name)));
  }
  ResolvedFilter resolved;
  resolved.policy = entry.make(bits_per_key);
  const bool per_block_ok = resolved.policy->SupportsPerBlock();
  if (layout == "auto") {
    resolved.layout =
        per_block_ok ? FilterLayout::kPerBlock : FilterLayout::kWholeTable;
  } else if (layout == "per_block") {
    if (!per_block_ok) {
      return absl::InvalidArgumentError(
          absl::StrFormat("--filter=%s builds whole-table filters only: use "
                          "--filter_layout=whole_table (or auto)",
                          ToAbsl(entry.name)));
    }
    resolved.layout = FilterLayout::kPerBlock;
  } else if (layout == "whole_table") {
    resolved.layout = FilterLayout::kWholeTable;
  } else if (layout == "partitioned") {
    resolved.layout = FilterLayout::kPartitioned;
  } else {
    return absl::InvalidArgumentError(
        absl::StrCat("--filter_layout=", ToAbsl(layout),
                     ": expected per_block, whole_table, partitioned or auto"));
  }
  return resolved;
}

}  // namespace db_bench
}  // namespace bloomtable
