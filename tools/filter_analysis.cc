#include "tools/filter_analysis.h"

#include <bitset>
#include <cmath>

#include "absl/strings/str_cat.h"
#include "filter/leveldb_bloom.h"
#include "table/table_structure.h"
#include "tools/escaping.h"
#include "util/coding.h"

namespace bloomtable {
namespace tool {
namespace {

constexpr std::string_view kLevelDBBloomName = "leveldb.BuiltinBloomFilter2";

// The per-block layout's trailer: fixed32 offset of the offset array, then
// the base_lg byte.
constexpr size_t kPerBlockTrailerSize = 5;
// base_lg values a reader accepts (FORMAT.md).
constexpr int kMinBaseLg = 1;
constexpr int kMaxBaseLg = 30;

// One filter of a filter block and the keys it covers.
struct Filter {
  std::string_view bytes;
  uint64_t keys = 0;
};

// Accumulates the Bloom details over filters.
class BloomTally {
 public:
  void Add(const Filter& filter) {
    // A LevelDB Bloom filter is bits/8 bytes then k; shorter than 2 bytes
    // is an empty filter (it holds no keys).
    if (filter.bytes.size() < 2) return;
    const int probes = static_cast<unsigned char>(filter.bytes.back());
    if (probes > kLevelDBBloomMaxProbes) {
      reserved_encodings_++;
      return;
    }
    const std::string_view bit_bytes =
        filter.bytes.substr(0, filter.bytes.size() - 1);
    uint64_t set = 0;
    for (char byte : bit_bytes) {
      set += std::bitset<8>(static_cast<unsigned char>(byte)).count();
    }
    const uint64_t bits = 8 * bit_bytes.size();
    if (filters_ == 0 || probes < min_probes_) min_probes_ = probes;
    if (filters_ == 0 || probes > max_probes_) max_probes_ = probes;
    filters_++;
    bits_ += bits;
    bits_set_ += set;
    const double fill = static_cast<double>(set) / static_cast<double>(bits);
    weighted_rate_ += static_cast<double>(filter.keys) * std::pow(fill, probes);
    keys_ += filter.keys;
  }

  void Report(FilterAnalysis* analysis) const {
    if (filters_ == 0) return;
    analysis->has_bloom_details = true;
    analysis->min_probes = min_probes_;
    analysis->max_probes = max_probes_;
    analysis->fraction_bits_set =
        static_cast<double>(bits_set_) / static_cast<double>(bits_);
    analysis->estimated_false_positive_rate =
        keys_ == 0 ? 0 : weighted_rate_ / static_cast<double>(keys_);
    if (reserved_encodings_ > 0 && analysis->problem.empty()) {
      analysis->problem = absl::StrCat(
          reserved_encodings_, " filter(s) store k > ", kLevelDBBloomMaxProbes,
          " (a reserved encoding: they answer \"maybe\")");
    }
  }

 private:
  uint64_t filters_ = 0;
  uint64_t reserved_encodings_ = 0;
  int min_probes_ = 0;
  int max_probes_ = 0;
  uint64_t bits_ = 0;
  uint64_t bits_set_ = 0;
  uint64_t keys_ = 0;
  double weighted_rate_ = 0;
};

// Splits a per-block filter block into its filters and assigns each data
// block's keys to the filter covering its offset. Sets analysis->problem when
// the layout does not parse (returning no filters) or a filter's bounds are
// inconsistent (skipping it).
std::vector<Filter> SplitPerBlock(std::string_view contents,
                                  const std::vector<DataBlockKeys>& data_blocks,
                                  FilterAnalysis* analysis) {
  std::vector<Filter> filters;
  if (contents.size() < kPerBlockTrailerSize) {
    analysis->problem = absl::StrCat("filter block of ", contents.size(),
                                     " bytes is shorter than its 5-byte "
                                     "trailer");
    return filters;
  }
  const int base_lg = static_cast<unsigned char>(contents.back());
  const uint64_t array_offset =
      DecodeFixed32(contents.data() + contents.size() - kPerBlockTrailerSize);
  const uint64_t array_limit = contents.size() - kPerBlockTrailerSize;
  if (base_lg < kMinBaseLg || base_lg > kMaxBaseLg) {
    analysis->problem =
        absl::StrCat("filter block base_lg ", base_lg, " is outside [1, 30]");
    return filters;
  }
  if (array_offset > array_limit) {
    analysis->problem = absl::StrCat("filter block offset array at ",
                                     array_offset, " lies past its end");
    return filters;
  }
  const uint64_t count = (array_limit - array_offset) / 4;
  std::vector<uint64_t> keys_per_filter(count, 0);
  uint64_t uncovered_keys = 0;
  for (const DataBlockKeys& block : data_blocks) {
    const uint64_t index = block.offset >> base_lg;
    if (index < count) {
      keys_per_filter[index] += block.entries;
    } else {
      uncovered_keys += block.entries;
    }
  }
  uint64_t bad_filters = 0;
  for (uint64_t i = 0; i < count; ++i) {
    const char* entry = contents.data() + array_offset + 4 * i;
    const uint64_t start = DecodeFixed32(entry);
    const uint64_t limit =
        i + 1 < count ? DecodeFixed32(entry + 4) : array_offset;
    if (start > limit || limit > array_offset) {
      bad_filters++;
      continue;
    }
    filters.push_back(
        Filter{contents.substr(start, limit - start), keys_per_filter[i]});
  }
  analysis->num_filters = count;
  if (bad_filters > 0) {
    analysis->problem =
        absl::StrCat(bad_filters, " filter(s) with inconsistent offsets");
  } else if (uncovered_keys > 0) {
    analysis->problem = absl::StrCat(uncovered_keys,
                                     " keys in data blocks that no filter "
                                     "covers");
  }
  return filters;
}

}  // namespace

FilterAnalysis AnalyzeFilter(std::string_view metaindex_key,
                             const BlockHandle& handle,
                             std::string_view contents,
                             const std::vector<std::string_view>& partitions,
                             const std::vector<DataBlockKeys>& data_blocks) {
  FilterAnalysis analysis;
  std::string_view policy_name;
  FilterLayout layout = FilterLayout::kPerBlock;
  ParseFilterMetaindexKey(metaindex_key, &policy_name, &layout);
  analysis.whole_table = layout == FilterLayout::kWholeTable;
  analysis.partitioned = layout == FilterLayout::kPartitioned;
  // Names come from the file: escaped, they are safe to print and valid in
  // JSON whatever the bytes.
  analysis.metaindex_key = EscapeBytes(metaindex_key);
  analysis.policy_name = EscapeBytes(policy_name);
  analysis.handle = handle;
  for (const DataBlockKeys& block : data_blocks) {
    analysis.keys_covered += block.entries;
  }

  std::vector<Filter> filters;
  if (analysis.partitioned) {
    // The top-level index and every partition. Which keys each partition
    // holds is not recorded, so no per-filter tally (LevelDB Bloom's
    // details) is made.
    analysis.num_filters = partitions.size();
    analysis.filter_bytes = contents.size();
    for (std::string_view partition : partitions) {
      analysis.filter_bytes += partition.size();
    }
  } else if (analysis.whole_table) {
    filters.push_back(Filter{contents, analysis.keys_covered});
    analysis.num_filters = 1;
  } else {
    filters = SplitPerBlock(contents, data_blocks, &analysis);
  }
  for (const Filter& filter : filters) {
    analysis.filter_bytes += filter.bytes.size();
  }
  if (analysis.keys_covered > 0) {
    analysis.bits_per_key = 8.0 * static_cast<double>(analysis.filter_bytes) /
                            static_cast<double>(analysis.keys_covered);
  }
  if (policy_name == kLevelDBBloomName && !analysis.partitioned) {
    BloomTally tally;
    for (const Filter& filter : filters) tally.Add(filter);
    tally.Report(&analysis);
  }
  return analysis;
}

std::string LayoutName(const FilterAnalysis& analysis, bool spaced) {
  if (analysis.partitioned) return "partitioned";
  if (analysis.whole_table) return spaced ? "whole table" : "whole_table";
  return spaced ? "per block" : "per_block";
}

void AnalyzeFilterBlocks(const TableWalker& walker,
                         const std::vector<DataBlockKeys>& data_blocks,
                         std::vector<FilterAnalysis>* filters) {
  for (const MetaBlock& meta : walker.meta_blocks()) {
    std::string_view policy_name;
    FilterLayout layout;
    if (!ParseFilterMetaindexKey(meta.entry.key, &policy_name, &layout)) {
      continue;
    }
    std::vector<std::string_view> partitions;
    for (const FilterPartitionBlock& partition : meta.partitions) {
      partitions.push_back(partition.contents.data);
    }
    filters->push_back(AnalyzeFilter(meta.entry.key, meta.entry.handle,
                                     meta.contents.data, partitions,
                                     data_blocks));
  }
}

}  // namespace tool
}  // namespace bloomtable
