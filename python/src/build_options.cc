#include "python/src/build_options.h"

#include <cstdint>
#include <optional>
#include <set>
#include <string>

#include "absl/strings/str_cat.h"
#include "python/src/errors.h"
#include "python/src/filters.h"

namespace py = pybind11;

namespace bloomtable {
namespace python {
namespace {

// zstd's levels as the tool accepts them.
constexpr int kMinZstdLevel = -7;
constexpr int kMaxZstdLevel = 22;

// Reads keyword arguments by name, remembering which were given.
class Kwargs {
 public:
  explicit Kwargs(const py::kwargs& kwargs) : kwargs_(kwargs) {}

  bool Given(const char* name) {
    known_.insert(name);
    return kwargs_.contains(name) && !kwargs_[name].is_none();
  }

  template <typename T>
  T Get(const char* name, T default_value) {
    if (!Given(name)) return default_value;
    try {
      return kwargs_[name].cast<T>();
    } catch (const py::cast_error&) {
      throw py::type_error(
          absl::StrCat("build option '", name, "' has the wrong type: ",
                       std::string(py::str(py::type::of(kwargs_[name])))));
    }
  }

  py::object Object(const char* name) {
    if (!Given(name)) return py::none();
    return kwargs_[name];
  }

  // TypeError for a keyword no Get asked for.
  void CheckAllKnown() const {
    for (auto item : kwargs_) {
      const std::string name = py::str(item.first);
      if (known_.count(name) == 0) {
        throw py::type_error(absl::StrCat("unknown build option '", name, "'"));
      }
    }
  }

 private:
  const py::kwargs& kwargs_;
  std::set<std::string> known_;
};

void ReadFilterOptions(Kwargs& args, Options* options) {
  const py::object filter = args.Object("filter");
  std::optional<double> bits_per_key;
  if (args.Given("bits_per_key"))
    bits_per_key = args.Get<double>("bits_per_key", 0);
  std::optional<double> fp_rate;
  if (args.Given("fp_rate")) fp_rate = args.Get<double>("fp_rate", 0);
  const bool no_filter = (py::isinstance<py::str>(filter) &&
                          filter.cast<std::string>() == "none") ||
                         (bits_per_key.has_value() && *bits_per_key == 0);
  if (no_filter) {
    if ((bits_per_key.has_value() && *bits_per_key != 0) ||
        fp_rate.has_value()) {
      ThrowInvalidArgument("bits_per_key and fp_rate need a filter");
    }
  } else if (filter.is_none()) {
    options->filter_policy =
        FilterPolicyFromArg(py::str("bloom"), bits_per_key, fp_rate).policy;
  } else {
    options->filter_policy =
        FilterPolicyFromArg(filter, bits_per_key, fp_rate).policy;
  }
  const std::string layout =
      args.Get<std::string>("filter_layout", "per_block");
  if (layout == "per_block") {
    options->filter_layout = FilterLayout::kPerBlock;
  } else if (layout == "whole_table") {
    options->filter_layout = FilterLayout::kWholeTable;
  } else if (layout == "partitioned") {
    options->filter_layout = FilterLayout::kPartitioned;
  } else {
    ThrowInvalidArgument(
        absl::StrCat("unknown filter_layout '", layout,
                     "' (per_block, whole_table or partitioned)"));
  }
  if (options->filter_policy != nullptr &&
      options->filter_layout == FilterLayout::kPerBlock &&
      !options->filter_policy->SupportsPerBlock()) {
    ThrowInvalidArgument(absl::StrCat(
        "filter '", std::string(options->filter_policy->Name()),
        "' builds whole-table filters only: use filter_layout='whole_table' "
        "or 'partitioned'"));
  }
  const int64_t partition_keys =
      args.Get<int64_t>("filter_partition_keys", 4096);
  if (partition_keys < 1) {
    ThrowInvalidArgument("filter_partition_keys must be at least 1");
  }
  options->filter_partition_keys = static_cast<size_t>(partition_keys);
}

void ReadScanFilterOptions(Kwargs& args, Options* options) {
  if (args.Given("prefix_extractor")) {
    if (options->filter_policy == nullptr) {
      ThrowInvalidArgument("prefix_extractor needs a filter");
    }
    options->prefix_extractor =
        args.Get<PyPrefixExtractor>("prefix_extractor", PyPrefixExtractor{})
            .extractor;
  } else if (args.Given("whole_key_filtering")) {
    ThrowInvalidArgument("whole_key_filtering needs prefix_extractor");
  }
  options->whole_key_filtering = args.Get<bool>("whole_key_filtering", true);
  const double range_bits = args.Get<double>("range_filter_bits_per_key", 0);
  if (!(range_bits == 0 || (range_bits >= 4 && range_bits <= 40))) {
    ThrowInvalidArgument(absl::StrCat(
        "range_filter_bits_per_key must be 0 (none) or in [4, 40], got ",
        range_bits));
  }
  options->range_filter_bits_per_key = range_bits;
  if (args.Given("max_range_length") && range_bits == 0) {
    ThrowInvalidArgument("max_range_length needs range_filter_bits_per_key");
  }
  const int64_t max_range_length = args.Get<int64_t>("max_range_length", 64);
  if (max_range_length < 1) {
    ThrowInvalidArgument("max_range_length must be at least 1");
  }
  options->range_filter_max_range_length =
      static_cast<uint64_t>(max_range_length);
}

}  // namespace

const char kBuildOptionsDoc[] = R"doc(
Options (keyword arguments; defaults as the `bloomtable build` tool's):

filter: "bloom" (default: LevelDB's Bloom filter), "cache_local_bloom",
    "ribbon", "none", or a FilterPolicy.
bits_per_key: filter size (default 10; 0: no filter); or fp_rate: a target
    false-positive rate.
filter_layout: "per_block" (default, LevelDB's), "whole_table" or
    "partitioned" (Ribbon needs one of the last two).
filter_partition_keys: keys per partition of a partitioned filter (4096).
block_size: data block size before compression (4096).
block_restart_interval: entries between restart points (16).
index_block_restart_interval: the same in the index block (1).
compression: "snappy" (default), "none" or "zstd" (LevelDB 1.23 cannot read
    zstd tables); compression_level: zstd's level, -7 to 22 (1).
prefix_extractor: a PrefixExtractor: the filter also holds each key's
    prefix (a prefix filter); whole_key_filtering: also the whole keys (True).
range_filter_bits_per_key: add a range filter (0: none, else 4 to 40);
    max_range_length: the longest range it bounds (64).
internal_keys: keys are LevelDB internal keys (False).
)doc";

Options BuildOptionsFromKwargs(const py::kwargs& kwargs) {
  Kwargs args(kwargs);
  Options options;
  const int64_t block_size = args.Get<int64_t>("block_size", 4096);
  if (block_size < 1) ThrowInvalidArgument("block_size must be at least 1");
  options.block_size = static_cast<size_t>(block_size);
  const int restart_interval = args.Get<int>("block_restart_interval", 16);
  if (restart_interval < 1) {
    ThrowInvalidArgument("block_restart_interval must be at least 1");
  }
  options.block_restart_interval = restart_interval;
  const int index_restart_interval =
      args.Get<int>("index_block_restart_interval", 1);
  if (index_restart_interval < 1) {
    ThrowInvalidArgument("index_block_restart_interval must be at least 1");
  }
  options.index_block_restart_interval = index_restart_interval;
  const std::string compression =
      args.Get<std::string>("compression", "snappy");
  if (compression == "none") {
    options.compression = CompressionType::kNone;
  } else if (compression == "snappy") {
    options.compression = CompressionType::kSnappy;
  } else if (compression == "zstd") {
    options.compression = CompressionType::kZstd;
  } else {
    ThrowInvalidArgument(absl::StrCat("unknown compression '", compression,
                                      "' (none, snappy or zstd)"));
  }
  if (args.Given("compression_level")) {
    const int level = args.Get<int>("compression_level", 1);
    if (options.compression != CompressionType::kZstd) {
      ThrowInvalidArgument("compression_level needs compression='zstd'");
    }
    if (level < kMinZstdLevel || level > kMaxZstdLevel) {
      ThrowInvalidArgument(absl::StrCat("compression_level must be between ",
                                        kMinZstdLevel, " and ", kMaxZstdLevel,
                                        ", got ", level));
    }
    options.zstd_compression_level = level;
  }
  ReadFilterOptions(args, &options);
  ReadScanFilterOptions(args, &options);
  options.key_format = args.Get<bool>("internal_keys", false)
                           ? KeyFormat::kLevelDBInternal
                           : KeyFormat::kPlain;
  args.CheckAllKnown();
  return options;
}

}  // namespace python
}  // namespace bloomtable
