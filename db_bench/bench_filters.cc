#include "db_bench/bench_filters.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "bloomtable/filter_policy.h"
#include "bloomtable/filter_sizing.h"
#include "filter/cache_local_bloom.h"
#include "filter/leveldb_bloom.h"
#include "filter/ribbon.h"

#ifdef BLOOMTABLE_FILTER_BENCH_WITH_LEVELDB
#include "leveldb/filter_policy.h"
#include "leveldb/slice.h"
#endif

namespace bloomtable {
namespace {

constexpr char kLevelDBBloomName[] = "leveldb.BuiltinBloomFilter2";
constexpr char kLevelDBRow[] = "leveldb-1.23";

double LevelDBBloomExpectedRate(int bits_per_key) {
  return BloomFalsePositiveRate(bits_per_key,
                                LevelDBBloomNumProbes(bits_per_key));
}

// How a PolicyBenchFilter probes its filters.
enum class ProbePath {
  // Every filter parsed once by NewReader, probed through the readers.
  kReaders,
  // Every probe calls the policy's KeyMayMatch with the raw bytes, as LevelDB
  // does.
  kPolicyCalls,
  // As a table does: a reader for a whole-table filter, policy calls for the
  // many small filters of the per-block layout.
  kAsTable,
};

// A bloomtable FilterPolicy, probed along `path`.
class PolicyBenchFilter final : public BenchFilter {
 public:
  PolicyBenchFilter(std::shared_ptr<const FilterPolicy> policy, ProbePath path,
                    std::function<double(int)> expected_rate)
      : policy_(std::move(policy)),
        path_(path),
        expected_rate_(std::move(expected_rate)) {}

  void SetKeys(const std::vector<std::string_view>& keys) override {
    keys_ = keys;
  }

  void AppendFilter(size_t begin, size_t end, std::string* dst) override {
    policy_->CreateFilter(keys_.data() + begin, end - begin, dst);
  }

  void SetFilters(const std::vector<std::string_view>& filters) override {
    filters_ = filters;
    readers_.clear();
    use_readers_ = path_ == ProbePath::kReaders ||
                   (path_ == ProbePath::kAsTable && filters.size() == 1);
    if (use_readers_) {
      for (std::string_view filter : filters) {
        readers_.push_back(policy_->NewReader(filter));
      }
    }
  }

  void SetProbes(const std::vector<std::string_view>& probes) override {
    probes_ = probes;
  }

  size_t CountMayMatch(const std::vector<uint32_t>& filter_of_probe,
                       size_t begin, size_t end) override {
    size_t matches = 0;
    if (use_readers_) {
      for (size_t i = begin; i < end; ++i) {
        matches += readers_[filter_of_probe[i]]->KeyMayMatch(probes_[i]);
      }
    } else {
      for (size_t i = begin; i < end; ++i) {
        matches +=
            policy_->KeyMayMatch(probes_[i], filters_[filter_of_probe[i]]);
      }
    }
    return matches;
  }

  double ExpectedFalsePositiveRate(int bits_per_key) const override {
    return expected_rate_(bits_per_key);
  }

 private:
  const std::shared_ptr<const FilterPolicy> policy_;
  const ProbePath path_;
  bool use_readers_ = false;
  const std::function<double(int)> expected_rate_;
  std::vector<std::string_view> keys_;
  std::vector<std::string_view> filters_;
  std::vector<std::unique_ptr<FilterReader>> readers_;
  std::vector<std::string_view> probes_;
};

#ifdef BLOOMTABLE_FILTER_BENCH_WITH_LEVELDB
// LevelDB 1.23's own NewBloomFilterPolicy, the baseline.
class LevelDBBenchFilter final : public BenchFilter {
 public:
  explicit LevelDBBenchFilter(int bits_per_key)
      : policy_(leveldb::NewBloomFilterPolicy(bits_per_key)) {}

  void SetKeys(const std::vector<std::string_view>& keys) override {
    keys_ = ToSlices(keys);
  }

  void AppendFilter(size_t begin, size_t end, std::string* dst) override {
    policy_->CreateFilter(keys_.data() + begin, static_cast<int>(end - begin),
                          dst);
  }

  void SetFilters(const std::vector<std::string_view>& filters) override {
    filters_ = ToSlices(filters);
  }

  void SetProbes(const std::vector<std::string_view>& probes) override {
    probes_ = ToSlices(probes);
  }

  size_t CountMayMatch(const std::vector<uint32_t>& filter_of_probe,
                       size_t begin, size_t end) override {
    size_t matches = 0;
    for (size_t i = begin; i < end; ++i) {
      matches += policy_->KeyMayMatch(probes_[i], filters_[filter_of_probe[i]]);
    }
    return matches;
  }

  double ExpectedFalsePositiveRate(int bits_per_key) const override {
    return LevelDBBloomExpectedRate(bits_per_key);
  }

 private:
  static std::vector<leveldb::Slice> ToSlices(
      const std::vector<std::string_view>& views) {
    std::vector<leveldb::Slice> slices;
    slices.reserve(views.size());
    for (std::string_view view : views) {
      slices.emplace_back(view.data(), view.size());
    }
    return slices;
  }

  const std::unique_ptr<const leveldb::FilterPolicy> policy_;
  std::vector<leveldb::Slice> keys_;
  std::vector<leveldb::Slice> filters_;
  std::vector<leveldb::Slice> probes_;
};
#endif  // BLOOMTABLE_FILTER_BENCH_WITH_LEVELDB

}  // namespace

std::vector<BenchFilterEntry> BenchFilterRegistry() {
#ifdef BLOOMTABLE_FILTER_BENCH_WITH_LEVELDB
  const std::string leveldb_baseline = kLevelDBRow;
#else
  const std::string leveldb_baseline;
#endif
  std::vector<BenchFilterEntry> entries;
  entries.push_back({"bloomtable/reader", kLevelDBBloomName, leveldb_baseline,
                     [](int bits_per_key) -> std::unique_ptr<BenchFilter> {
                       return std::make_unique<PolicyBenchFilter>(
                           NewLevelDBBloomFilterPolicy(bits_per_key),
                           ProbePath::kReaders, LevelDBBloomExpectedRate);
                     },
                     "bloomtable; each filter parsed once by NewReader, "
                     "probed through its FilterReader"});
  entries.push_back({"bloomtable/policy", kLevelDBBloomName, leveldb_baseline,
                     [](int bits_per_key) -> std::unique_ptr<BenchFilter> {
                       return std::make_unique<PolicyBenchFilter>(
                           NewLevelDBBloomFilterPolicy(bits_per_key),
                           ProbePath::kPolicyCalls, LevelDBBloomExpectedRate);
                     },
                     "bloomtable; FilterPolicy::KeyMayMatch with the "
                     "filter's bytes on every probe, as LevelDB does"});
  // The new policies, timed against LevelDB's own Bloom filter (their bytes
  // are compared only with rows of the same policy). The Ribbon's
  // expected rate is that of a million keys (it depends a little on the key
  // count; below 256 keys per filter it is stored as a cache-local Bloom
  // filter).
  constexpr char kAsTableDescription[] =
      "bloomtable; probed as a table does: one reader for a whole-table "
      "filter, KeyMayMatch on the bytes for many small filters";
  entries.push_back({"bloomtable/cache-local-bloom",
                     "bloomtable.CacheLocalBloom", leveldb_baseline,
                     [](int bits_per_key) -> std::unique_ptr<BenchFilter> {
                       return std::make_unique<PolicyBenchFilter>(
                           NewCacheLocalBloomFilterPolicy(bits_per_key),
                           ProbePath::kAsTable, [](int bits) {
                             return CacheLocalBloomExpectedFalsePositiveRate(
                                 bits);
                           });
                     },
                     kAsTableDescription});
  entries.push_back({"bloomtable/ribbon", "bloomtable.Ribbon", leveldb_baseline,
                     [](int bits_per_key) -> std::unique_ptr<BenchFilter> {
                       return std::make_unique<PolicyBenchFilter>(
                           NewRibbonFilterPolicy(bits_per_key),
                           ProbePath::kAsTable, [](int bits) {
                             RibbonBuildOptions options;
                             options.bits_per_key = bits;
                             return RibbonExpectedFalsePositiveRate(1000000,
                                                                    options);
                           });
                     },
                     kAsTableDescription});
#ifdef BLOOMTABLE_FILTER_BENCH_WITH_LEVELDB
  entries.push_back({kLevelDBRow, kLevelDBBloomName, "",
                     [](int bits_per_key) -> std::unique_ptr<BenchFilter> {
                       return std::make_unique<LevelDBBenchFilter>(
                           bits_per_key);
                     },
                     "LevelDB 1.23's own NewBloomFilterPolicy (system "
                     "library)"});
#endif
  return entries;
}

}  // namespace bloomtable
