#include "python/src/filters.h"

#include <pybind11/stl.h>

#include <cmath>
#include <string_view>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "bloomtable/filter_sizing.h"
#include "python/src/bytes_arg.h"
#include "python/src/errors.h"
#include "python/src/key_batch.h"

namespace py = pybind11;

namespace bloomtable {
namespace python {
namespace {

// LevelDB's Bloom caps its probes at 30 (about 43 bits per key); beyond 100
// bits per key every policy only spends memory.
constexpr double kMaxBitsPerKey = 100;

// The bits per key of a reading policy: answers do not depend on it (every
// policy reads its parameters from the filter's own bytes).
constexpr int kReadingBitsPerKey = 10;

bool IsWholeNumberKind(const std::string& kind) {
  return kind == "bloom" || kind == "legacy_bloom";
}

std::shared_ptr<const FilterPolicy> PolicyOfKind(const std::string& kind,
                                                 double bits_per_key) {
  if (kind == "bloom") {
    return NewLevelDBBloomFilterPolicy(static_cast<int>(bits_per_key));
  }
  if (kind == "legacy_bloom") {
    return NewLegacyLevelDBBloomFilterPolicy(static_cast<int>(bits_per_key));
  }
  if (kind == "cache_local_bloom") {
    return NewCacheLocalBloomFilterPolicy(bits_per_key);
  }
  if (kind == "ribbon") return NewRibbonFilterPolicy(bits_per_key);
  ThrowInvalidArgument(absl::StrCat(
      "unknown filter kind '", kind,
      "' (known: bloom, cache_local_bloom, ribbon, legacy_bloom)"));
}

// The kind whose policy stores `name`, or empty.
std::string KindOfStoredName(std::string_view name) {
  for (const char* kind :
       {"bloom", "cache_local_bloom", "ribbon", "legacy_bloom"}) {
    if (PolicyOfKind(kind, kReadingBitsPerKey)->Name() == name) return kind;
  }
  return "";
}

// A filter built from keys or loaded from bytes. The reader refers to
// `bytes_`, which never changes or moves after construction (the object is
// neither copied nor moved).
class PyFilter {
 public:
  PyFilter(const PyFilter&) = delete;
  PyFilter& operator=(const PyFilter&) = delete;

  PyFilter(PyFilterPolicy policy, std::string bytes,
           std::optional<size_t> num_keys)
      : policy_(std::move(policy)),
        bytes_(std::move(bytes)),
        num_keys_(num_keys),
        reader_(policy_.policy->NewReader(bytes_)) {}

  bool MayContain(const py::object& key) const {
    BytesArg arg(key, "key");
    return reader_->KeyMayMatch(arg.view());
  }

  const PyFilterPolicy& policy() const { return policy_; }
  const std::string& bytes() const { return bytes_; }
  std::optional<size_t> num_keys() const { return num_keys_; }

 private:
  const PyFilterPolicy policy_;
  const std::string bytes_;
  const std::optional<size_t> num_keys_;
  const std::unique_ptr<FilterReader> reader_;
};

std::unique_ptr<PyFilter> BuildFilter(const py::iterable& keys,
                                      const py::object& policy_arg,
                                      std::optional<double> bits_per_key,
                                      std::optional<double> fp_rate) {
  PyFilterPolicy policy =
      FilterPolicyFromArg(policy_arg, bits_per_key, fp_rate);
  KeyBatch batch;
  for (py::handle key : keys) batch.Add(key, "key");
  std::string bytes;
  {
    py::gil_scoped_release release;
    const std::vector<std::string_view> views = batch.Views();
    policy.policy->CreateFilter(views.data(), views.size(), &bytes);
  }
  const size_t count = batch.size();
  return std::make_unique<PyFilter>(std::move(policy), std::move(bytes), count);
}

std::string PolicyRepr(const PyFilterPolicy& policy) {
  if (policy.fp_rate.has_value()) {
    return absl::StrFormat("FilterPolicy.for_rate('%s', %g)", policy.kind,
                           *policy.fp_rate);
  }
  return absl::StrFormat("FilterPolicy('%s', bits_per_key=%g)", policy.kind,
                         policy.bits_per_key.value_or(0));
}

}  // namespace

PyFilterPolicy MakeFilterPolicy(const std::string& kind, double bits_per_key) {
  if (!std::isfinite(bits_per_key) || bits_per_key <= 0 ||
      bits_per_key > kMaxBitsPerKey) {
    ThrowInvalidArgument(absl::StrCat("bits_per_key must be in (0, ",
                                      kMaxBitsPerKey, "], got ", bits_per_key));
  }
  if (IsWholeNumberKind(kind) && bits_per_key != std::floor(bits_per_key)) {
    ThrowInvalidArgument(absl::StrCat("filter kind '", kind,
                                      "' (LevelDB's Bloom) takes whole bits "
                                      "per key, got ",
                                      bits_per_key));
  }
  return PyFilterPolicy{kind, bits_per_key, std::nullopt,
                        PolicyOfKind(kind, bits_per_key)};
}

PyFilterPolicy MakeFilterPolicyForRate(const std::string& kind,
                                       double fp_rate) {
  if (!(fp_rate > 0 && fp_rate < 1)) {
    ThrowInvalidArgument(
        absl::StrCat("fp_rate must be in (0, 1), got ", fp_rate));
  }
  if (kind == "ribbon") {
    return PyFilterPolicy{kind, std::nullopt, fp_rate,
                          NewRibbonFilterPolicyForRate(fp_rate)};
  }
  double bits_per_key = BloomSizingForRate(fp_rate).bits_per_key;
  if (IsWholeNumberKind(kind)) bits_per_key = std::ceil(bits_per_key);
  bits_per_key = std::min(bits_per_key, kMaxBitsPerKey);
  PyFilterPolicy policy = MakeFilterPolicy(kind, bits_per_key);
  policy.fp_rate = fp_rate;
  return policy;
}

PyFilterPolicy FilterPolicyFromArg(const py::handle& arg,
                                   std::optional<double> bits_per_key,
                                   std::optional<double> fp_rate) {
  if (py::isinstance<PyFilterPolicy>(arg)) {
    if (bits_per_key.has_value() || fp_rate.has_value()) {
      ThrowInvalidArgument(
          "bits_per_key and fp_rate apply to a filter kind given by name, "
          "not to a FilterPolicy (which has its own)");
    }
    return arg.cast<PyFilterPolicy>();
  }
  if (!py::isinstance<py::str>(arg)) {
    throw py::type_error(
        "policy must be a FilterPolicy or a filter kind (str)");
  }
  std::string kind = arg.cast<std::string>();
  const std::string stored_kind = KindOfStoredName(kind);
  if (!stored_kind.empty()) kind = stored_kind;
  if (fp_rate.has_value()) {
    if (bits_per_key.has_value()) {
      ThrowInvalidArgument("give bits_per_key or fp_rate, not both");
    }
    return MakeFilterPolicyForRate(kind, *fp_rate);
  }
  return MakeFilterPolicy(kind, bits_per_key.value_or(10));
}

std::vector<std::shared_ptr<const FilterPolicy>> AllReadingPolicies() {
  return {NewLevelDBBloomFilterPolicy(kReadingBitsPerKey),
          NewCacheLocalBloomFilterPolicy(kReadingBitsPerKey),
          NewRibbonFilterPolicy(kReadingBitsPerKey),
          NewLegacyLevelDBBloomFilterPolicy(kReadingBitsPerKey)};
}

void DefineFilters(py::module_& module) {
  py::class_<PyFilterPolicy>(module, "FilterPolicy", R"doc(
A filter policy: which filter to build and how large.

Kinds (the name stored in a table in brackets):

- ``"bloom"`` (leveldb.BuiltinBloomFilter2): LevelDB's Bloom filter, byte for
  byte; whole bits per key only. The only kind LevelDB itself uses.
- ``"cache_local_bloom"`` (bloomtable.CacheLocalBloom): every probe of a key
  in one 64-byte cache line; fractional bits per key.
- ``"ribbon"`` (bloomtable.Ribbon): about 30% smaller than a Bloom filter at
  the same false-positive rate; builds cost more; whole-table layouts only.
- ``"legacy_bloom"`` (leveldb.BuiltinBloomFilter): reads goleveldb's and
  geth's filters; whole bits per key.

``FilterPolicy(kind, bits_per_key=10)`` sizes by memory;
``FilterPolicy.for_rate(kind, fp_rate)`` by a target false-positive rate.
Immutable; safe to share between threads and tables.
)doc")
      .def(py::init(&MakeFilterPolicy), py::arg("kind"),
           py::arg("bits_per_key") = 10.0,
           "A policy of `kind` storing `bits_per_key` bits per key (in (0, "
           "100]).")
      .def_static("for_rate", &MakeFilterPolicyForRate, py::arg("kind"),
                  py::arg("fp_rate"),
                  "A policy of `kind` sized for a false-positive rate in (0, "
                  "1): Ribbon by its result bits, the Bloom kinds by "
                  "bloom_sizing_for_rate (rounded up to whole bits for "
                  "'bloom' and 'legacy_bloom').")
      .def_readonly("kind", &PyFilterPolicy::kind,
                    "The kind: 'bloom', 'cache_local_bloom', 'ribbon' or "
                    "'legacy_bloom'.")
      .def_property_readonly(
          "name",
          [](const PyFilterPolicy& self) {
            return std::string(self.policy->Name());
          },
          "The name stored in a table's metaindex.")
      .def_readonly("bits_per_key", &PyFilterPolicy::bits_per_key,
                    "Bits per key asked for (None when sized by rate for "
                    "Ribbon).")
      .def_readonly("fp_rate", &PyFilterPolicy::fp_rate,
                    "The target false-positive rate, if sized by rate.")
      .def_property_readonly(
          "supports_per_block",
          [](const PyFilterPolicy& self) {
            return self.policy->SupportsPerBlock();
          },
          "Whether the policy builds LevelDB's per-block filters (Ribbon "
          "does not).")
      .def("__repr__", &PolicyRepr);

  py::class_<PyFilter>(module, "Filter", R"doc(
A filter over a set of keys, on its own (no table): a fast, compact "may this
key be in the set?".

    f = bloomtable.Filter.build(keys, "ribbon", fp_rate=0.01)
    b"k" in f                 # False: certainly absent; True: maybe present
    data = f.to_bytes()       # save; keep f.policy.name with it
    g = bloomtable.Filter(data, f.policy)   # load

A filter never answers False for a key it was built from. Loading bytes that
are no filter of the policy is not an error: the filter then answers True
("maybe") where it cannot tell; bytes damaged so that they still look like a
filter may answer False for a key that was added (keep a checksum with
saved bytes if that matters). Immutable; safe to query from many threads.
)doc")
      .def(py::init([](const py::object& data, const py::object& policy) {
             BytesArg bytes(data, "data");
             return std::make_unique<PyFilter>(
                 FilterPolicyFromArg(policy, std::nullopt, std::nullopt),
                 std::string(bytes.view()), std::nullopt);
           }),
           py::arg("data"), py::arg("policy"),
           "Loads a filter from bytes that to_bytes() returned. `policy` is "
           "a FilterPolicy, a kind or the stored policy name "
           "(FilterPolicy.name).")
      .def_static("build", &BuildFilter, py::arg("keys"),
                  py::arg("policy") = "ribbon", py::kw_only(),
                  py::arg("bits_per_key") = py::none(),
                  py::arg("fp_rate") = py::none(),
                  "Builds a filter over the keys of an iterable (bytes or "
                  "bytes-like; repeats allowed). `policy`: a FilterPolicy, "
                  "or a kind sized by `bits_per_key` (default 10) or "
                  "`fp_rate`. The GIL is released while the filter is "
                  "built.")
      .def("may_contain", &PyFilter::MayContain, py::arg("key"),
           "False if `key` is certainly not in the set; True if it may be.")
      .def("__contains__", &PyFilter::MayContain, py::arg("key"))
      .def(
          "to_bytes",
          [](const PyFilter& self) { return ToBytes(self.bytes()); },
          "The filter's bytes, as a table stores them.")
      .def("__bytes__",
           [](const PyFilter& self) { return ToBytes(self.bytes()); })
      .def_property_readonly(
          "nbytes", [](const PyFilter& self) { return self.bytes().size(); },
          "Size of the filter in bytes.")
      .def_property_readonly("policy", &PyFilter::policy,
                             "The FilterPolicy that built or reads it.")
      .def_property_readonly(
          "num_keys", &PyFilter::num_keys,
          "Keys it was built from (repeats counted), or None if loaded.")
      .def("__repr__", [](const PyFilter& self) {
        return absl::StrFormat("<bloomtable.Filter %s, %d bytes>",
                               PolicyRepr(self.policy()), self.bytes().size());
      });

  py::class_<PyPrefixExtractor>(module, "PrefixExtractor", R"doc(
Maps a key to its prefix, for prefix filters (build option
``prefix_extractor``) and prefix scans. Built-in extractors only:
``fixed(n)``, ``capped(n)``, ``delimited(b":", 2)``, or ``from_name`` with the
name a table stores. Immutable.
)doc")
      .def_static(
          "fixed",
          [](size_t length) {
            return PyPrefixExtractor{NewFixedPrefixExtractor(length)};
          },
          py::arg("length"),
          "The first `length` bytes; shorter keys have no prefix.")
      .def_static(
          "capped",
          [](size_t length) {
            return PyPrefixExtractor{NewCappedPrefixExtractor(length)};
          },
          py::arg("length"),
          "The first `length` bytes, or the whole key if shorter.")
      .def_static(
          "delimited",
          [](const py::object& delimiter, size_t count) {
            BytesArg arg(delimiter, "delimiter");
            if (arg.view().size() != 1) {
              ThrowInvalidArgument("delimiter must be exactly one byte");
            }
            return PyPrefixExtractor{
                NewDelimitedPrefixExtractor(arg.view()[0], count)};
          },
          py::arg("delimiter"), py::arg("count") = 1,
          "Up to and including the `count`-th `delimiter` byte (b':' and 2 "
          "give b'user:<id>:'); keys with fewer have no prefix.")
      .def_static(
          "from_name",
          [](const std::string& name) {
            std::shared_ptr<const PrefixExtractor> extractor =
                NewPrefixExtractorFromName(name);
            if (extractor == nullptr) {
              ThrowInvalidArgument(absl::StrCat(
                  "no built-in prefix extractor is named '", name, "'"));
            }
            return PyPrefixExtractor{std::move(extractor)};
          },
          py::arg("name"),
          "The built-in extractor whose name is `name` (as "
          "Table.scan_filter_info()['prefix_extractor'] reports).")
      .def_property_readonly(
          "name",
          [](const PyPrefixExtractor& self) {
            return std::string(self.extractor->Name());
          },
          "The name stored in a table.")
      .def(
          "in_domain",
          [](const PyPrefixExtractor& self, const py::object& key) {
            BytesArg arg(key, "key");
            return self.extractor->InDomain(arg.view());
          },
          py::arg("key"), "Whether `key` has a prefix.")
      .def(
          "transform",
          [](const PyPrefixExtractor& self,
             const py::object& key) -> py::object {
            BytesArg arg(key, "key");
            if (!self.extractor->InDomain(arg.view())) return py::none();
            return ToBytes(self.extractor->Transform(arg.view()));
          },
          py::arg("key"), "The prefix of `key`, or None if it has none.")
      .def("__repr__", [](const PyPrefixExtractor& self) {
        return absl::StrCat("<bloomtable.PrefixExtractor ",
                            std::string(self.extractor->Name()), ">");
      });

  module.def(
      "bloom_sizing_for_rate",
      [](double rate) {
        const BloomSizing sizing = BloomSizingForRate(rate);
        return py::make_tuple(sizing.bits_per_key, sizing.num_probes);
      },
      py::arg("fp_rate"),
      "(bits_per_key, num_probes) of an ideal Bloom filter reaching "
      "`fp_rate` (0 < fp_rate < 1).");
  module.def("bloom_false_positive_rate", &BloomFalsePositiveRate,
             py::arg("bits_per_key"), py::arg("num_probes"),
             "The false-positive rate of an ideal Bloom filter with "
             "`bits_per_key` bits per key and `num_probes` probes.");
}

}  // namespace python
}  // namespace bloomtable
