#include "python/src/table.h"

#include <pybind11/stl.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "bloomtable/cache.h"
#include "bloomtable/file.h"
#include "bloomtable/options.h"
#include "bloomtable/pinned_value.h"
#include "bloomtable/table.h"
#include "python/src/arrow_stream.h"
#include "python/src/batch_iterator.h"
#include "python/src/bytes_arg.h"
#include "python/src/errors.h"
#include "python/src/fast_call.h"
#include "python/src/filters.h"
#include "python/src/iterator_args.h"
#include "python/src/key_batch.h"
#include "python/src/pinned_view.h"
#include "python/src/raw_iterator.h"
#include "python/src/table_handle.h"

namespace py = pybind11;

namespace bloomtable {
namespace python {
namespace {

// The block cache a table gets when Table.open is given none.
constexpr size_t kDefaultBlockCacheBytes = size_t{8} << 20;

struct PyBlockCache {
  std::shared_ptr<Cache> cache;
};

class PyTable {
 public:
  static std::unique_ptr<PyTable> Open(
      const py::object& path_arg, const py::object& filters,
      bool verify_checksums, bool fill_cache,
      std::optional<PyBlockCache> block_cache,
      bool cache_index_and_filter_blocks, bool internal_keys,
      std::optional<PyPrefixExtractor> prefix_extractor, bool mmap) {
    const std::string path = PathArg(path_arg);
    Options options;
    std::vector<std::shared_ptr<const FilterPolicy>> policies;
    if (filters.is_none()) {
      policies = AllReadingPolicies();
    } else {
      for (py::handle policy : py::iterable(filters)) {
        policies.push_back(
            FilterPolicyFromArg(policy, std::nullopt, std::nullopt).policy);
      }
    }
    if (!policies.empty()) {
      options.filter_policy = policies.front();
      options.extra_filter_policies.assign(policies.begin() + 1,
                                           policies.end());
    }
    // As LevelDB's default: a table of its own has an 8 MiB block cache.
    options.block_cache = block_cache.has_value()
                              ? block_cache->cache
                              : NewLRUCache(kDefaultBlockCacheBytes);
    options.cache_index_and_filter_blocks = cache_index_and_filter_blocks;
    options.key_format =
        internal_keys ? KeyFormat::kLevelDBInternal : KeyFormat::kPlain;
    if (prefix_extractor.has_value()) {
      options.prefix_extractor = prefix_extractor->extractor;
    }
    absl::StatusOr<std::unique_ptr<Table>> table;
    uint64_t file_size = 0;
    {
      py::gil_scoped_release release;
      table = OpenTable(options, path, mmap, &file_size);
    }
    if (!table.ok()) ThrowStatus(table.status(), path);
    ReadOptions read_options;
    read_options.verify_checksums = verify_checksums;
    read_options.fill_cache = fill_cache;
    return std::unique_ptr<PyTable>(
        new PyTable(std::make_shared<TableHandle>(path, *std::move(table)),
                    read_options, file_size, internal_keys));
  }

  py::object Get(const py::object& key, const py::object& default_value) {
    // The value pinned in its block, copied once, into the bytes.
    BytesArg arg(key, "key");
    CheckOpen();
    PinnedValue value;
    const absl::Status status =
        handle_->table().Get(read_options_, arg.view(), &value);
    if (status.ok()) return ToBytes(value.view());
    if (IsMissingKey(status)) return default_value;
    ThrowStatus(status, handle_->path());
  }

  // The value of `key` as a read-only memoryview of the block it lies in
  // (no copy), or None if absent. The memoryview's exporter holds the
  // PinnedValue, so the view stays valid after the table is closed.
  py::object GetPinned(const py::object& key) {
    BytesArg arg(key, "key");
    CheckOpen();
    auto pinned = std::make_unique<PyPinnedValue>();
    const absl::Status status =
        handle_->table().Get(read_options_, arg.view(), &pinned->value);
    if (!status.ok()) {
      if (IsMissingKey(status)) return py::none();
      ThrowStatus(status, handle_->path());
    }
    return PinnedMemoryView(std::move(pinned));
  }

  py::bytes GetItem(const py::object& key) {
    std::string value;
    if (!Lookup(key, &value)) {
      PyErr_SetObject(PyExc_KeyError, key.ptr());
      throw py::error_already_set();
    }
    return ToBytes(value);
  }

  bool Contains(const py::object& key) {
    std::string value;
    return Lookup(key, &value);
  }

  py::list MultiGet(const py::iterable& keys, const py::object& default_value) {
    KeyBatch batch;
    for (py::handle key : keys) batch.Add(key, "key");
    std::vector<absl::StatusOr<std::string>> results;
    {
      CallGuard guard(handle_.get());
      py::gil_scoped_release release;
      const std::vector<std::string_view> views = batch.Views();
      results = handle_->table().MultiGet(read_options_, views);
    }
    py::list values(results.size());
    for (size_t i = 0; i < results.size(); ++i) {
      if (results[i].ok()) {
        values[i] = ToBytes(*results[i]);
      } else if (IsMissingKey(results[i].status())) {
        values[i] = default_value;
      } else {
        ThrowStatus(results[i].status(), handle_->path());
      }
    }
    return values;
  }

  std::unique_ptr<BatchIterator> Iterate(YieldSpec yield,
                                         const py::object& start,
                                         const py::object& stop, bool reverse,
                                         const py::object& prefix) {
    KeyRange range = HalfOpenRange(start, stop, prefix);
    CheckOpen();
    ReadOptions read_options = read_options_;
    read_options.iterate_lower_bound = std::move(range.lower);
    read_options.iterate_upper_bound = std::move(range.upper);
    return std::make_unique<BatchIterator>(
        handle_, Factory(std::move(read_options)), yield, reverse);
  }

  std::unique_ptr<BatchIterator> PlyvelIterator(
      bool reverse, const py::object& start, const py::object& stop,
      bool include_start, bool include_stop, const py::object& prefix,
      bool include_key, bool include_value,
      std::optional<bool> verify_checksums, std::optional<bool> fill_cache) {
    KeyRange range =
        PlyvelRange({}, start, stop, include_start, include_stop, prefix);
    CheckOpen();
    ReadOptions read_options = read_options_;
    read_options.verify_checksums =
        verify_checksums.value_or(read_options_.verify_checksums);
    read_options.fill_cache = fill_cache.value_or(read_options_.fill_cache);
    read_options.iterate_lower_bound = std::move(range.lower);
    read_options.iterate_upper_bound = std::move(range.upper);
    return std::make_unique<BatchIterator>(
        handle_, Factory(std::move(read_options)),
        YieldSpec{include_key, include_value, 0}, reverse);
  }

  std::unique_ptr<RawIterator> NewRawIterator(
      std::optional<bool> verify_checksums, std::optional<bool> fill_cache) {
    CheckOpen();
    ReadOptions read_options = read_options_;
    read_options.verify_checksums =
        verify_checksums.value_or(read_options_.verify_checksums);
    read_options.fill_cache = fill_cache.value_or(read_options_.fill_cache);
    return std::make_unique<RawIterator>(handle_,
                                         Factory(std::move(read_options)));
  }

  py::list Partitions(size_t parts) {
    if (parts < 1) ThrowInvalidArgument("partitions: n must be at least 1");
    std::vector<std::string> cuts;
    {
      CallGuard guard(handle_.get());
      py::gil_scoped_release release;
      cuts = handle_->table().ApproximateSplitKeys(parts);
    }
    return RangesBetween(cuts);
  }

  bool MayContainRange(const py::object& lo, const py::object& hi) {
    BytesArg low(lo, "lo");
    BytesArg high(hi, "hi");
    CheckOpen();
    return handle_->table().MayContainRange(low.view(), high.view());
  }

  uint64_t ApproximateOffsetOf(const py::object& key) {
    BytesArg arg(key, "key");
    CheckOpen();
    return handle_->table().ApproximateOffsetOf(arg.view());
  }

  size_t ApproximateMemoryUsage() {
    CheckOpen();
    return handle_->table().ApproximateMemoryUsage();
  }

  py::dict Stats() {
    CheckOpen();
    const TableStats stats = handle_->table().GetStats();
    py::dict d;
    d["filter_checks"] = stats.filter_checks;
    d["filter_negatives"] = stats.filter_negatives;
    d["data_block_reads"] = stats.data_block_reads;
    d["bytes_read"] = stats.bytes_read;
    d["checksum_failures"] = stats.checksum_failures;
    d["block_cache_hits"] = stats.block_cache_hits;
    d["block_cache_misses"] = stats.block_cache_misses;
    d["filter_partition_reads"] = stats.filter_partition_reads;
    d["prefix_filter_checks"] = stats.prefix_filter_checks;
    d["prefix_filter_negatives"] = stats.prefix_filter_negatives;
    d["range_filter_checks"] = stats.range_filter_checks;
    d["range_filter_negatives"] = stats.range_filter_negatives;
    return d;
  }

  py::dict FilterInfo() {
    CheckOpen();
    const bloomtable::TableFilterInfo& info = handle_->table().filter_info();
    py::dict d;
    d["metaindex_key"] = info.metaindex_key;
    d["in_use"] = info.in_use;
    d["unused_reason"] = info.unused_reason;
    return d;
  }

  py::dict ScanFilterInfo() {
    CheckOpen();
    const bloomtable::ScanFilterInfo& info =
        handle_->table().scan_filter_info();
    py::dict d;
    d["prefix_metaindex_key"] = info.prefix_metaindex_key;
    d["prefix_extractor"] = info.prefix_extractor;
    d["prefix_whole_keys"] = info.prefix_whole_keys;
    d["prefix_loaded"] = info.prefix_loaded;
    d["prefix_in_use"] = info.prefix_in_use;
    d["prefix_unused_reason"] = info.prefix_unused_reason;
    d["range_metaindex_key"] = info.range_metaindex_key;
    d["range_in_use"] = info.range_in_use;
    d["range_unused_reason"] = info.range_unused_reason;
    d["range_num_keys"] = info.range_num_keys;
    d["range_bits_per_key"] = info.range_bits_per_key;
    d["range_filter_bytes"] = info.range_filter_bytes;
    return d;
  }

  // Seconds that Table::Get takes for every key of `keys`, called from C++
  // in a loop with the GIL released: what a Python get costs without the
  // binding, for the benchmark (python/bench/bench_python.py).
  double CppGetSeconds(const py::iterable& keys) {
    KeyBatch batch;
    for (py::handle key : keys) batch.Add(key, "key");
    CallGuard guard(handle_.get());
    py::gil_scoped_release release;
    const std::vector<std::string_view> views = batch.Views();
    std::string value;
    size_t found = 0;
    const auto start = std::chrono::steady_clock::now();
    for (std::string_view key : views) {
      found += handle_->table().Get(read_options_, key, &value).ok();
    }
    const auto end = std::chrono::steady_clock::now();
    // `found` keeps the loop from being optimised away.
    return std::chrono::duration<double>(end - start).count() +
           (found > views.size() ? 1 : 0);
  }

  void Close() { handle_->Close(); }
  bool closed() const { return handle_->closed(); }
  const std::string& path() const { return handle_->path(); }
  uint64_t file_size() const { return file_size_; }
  bool internal_keys() const { return internal_keys_; }

 private:
  PyTable(std::shared_ptr<TableHandle> handle, ReadOptions read_options,
          uint64_t file_size, bool internal_keys)
      : handle_(std::move(handle)),
        read_options_(std::move(read_options)),
        file_size_(file_size),
        internal_keys_(internal_keys) {}

  static absl::StatusOr<std::unique_ptr<Table>> OpenTable(
      const Options& options, const std::string& path, bool mmap,
      uint64_t* file_size) {
    absl::StatusOr<std::unique_ptr<RandomAccessFile>> file =
        mmap ? OpenMmapRandomAccessFile(path) : OpenRandomAccessFile(path);
    if (!file.ok()) return file.status();
    absl::StatusOr<uint64_t> size = GetFileSize(path);
    if (!size.ok()) return size.status();
    *file_size = *size;
    return Table::Open(options, *std::move(file), *size);
  }

  IteratorFactory Factory(ReadOptions read_options) const {
    std::shared_ptr<TableHandle> handle = handle_;
    return [handle, read_options = std::move(read_options)]() {
      return handle->table().NewIterator(read_options);
    };
  }

  // A missing key, as opposed to a file that went missing (which carries
  // its errno).
  static bool IsMissingKey(const absl::Status& status) {
    return absl::IsNotFound(status) && FileErrorNumber(status) == 0;
  }

  // Raises if closed. The GIL is held from here to the end of the call, so
  // no Close can free the table meanwhile (it waits for the GIL).
  void CheckOpen() const {
    if (handle_->closed()) ThrowInvalidArgument("table is closed");
  }

  // A single lookup, with the GIL held (see CheckOpen).
  bool Lookup(const py::object& key, std::string* value) {
    BytesArg arg(key, "key");
    CheckOpen();
    const absl::Status status =
        handle_->table().Get(read_options_, arg.view(), value);
    if (status.ok()) return true;
    if (IsMissingKey(status)) return false;
    ThrowStatus(status, handle_->path());
  }

  const std::shared_ptr<TableHandle> handle_;
  const ReadOptions read_options_;
  const uint64_t file_size_;
  const bool internal_keys_;
};

constexpr char kIterateDoc[] =
    "Entries in key order, or in reverse with reverse=True, confined to "
    "[start, stop) (half-open, as the C++ iterator bounds) and to keys "
    "beginning with `prefix`. A bounded scan asks the table's range and "
    "prefix filters first. Entries are read in batches with the GIL "
    "released. For internal_keys tables the bounds are user keys and the "
    "keys yielded are internal keys. An iterator raises "
    "InvalidArgumentError once its table is closed.";

// Table.get(key, default=None), without pybind11's dispatcher
// (fast_call.h), as Database.get.
PyObject* TableGet(PyObject* self, PyObject* const* args, Py_ssize_t nargs,
                   PyObject* kwnames) {
  return CatchingErrors([&]() -> PyObject* {
    static const char* const kNames[] = {"key", "default"};
    PyObject* values[2];
    if (!ParseFastArgs("get", kNames, 2, /*positional=*/2, /*required=*/1, args,
                       nargs, kwnames, values)) {
      return nullptr;
    }
    const py::handle default_value =
        values[1] != nullptr ? py::handle(values[1]) : py::none();
    return FastSelf<PyTable>(self)
        .Get(py::reinterpret_borrow<py::object>(values[0]),
             py::reinterpret_borrow<py::object>(default_value))
        .release()
        .ptr();
  });
}

const PyMethodDef kTableGetMethod = {
    "get",
    reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(&TableGet)),
    METH_FASTCALL | METH_KEYWORDS,
    "get($self, /, key, default=None)\n--\n\n"
    "The value of `key` (bytes), or `default` if absent."};

}  // namespace

void DefineTable(py::module_& module) {
  py::class_<PyBlockCache>(module, "BlockCache", R"doc(
A cache of uncompressed data blocks shared by the tables opened with it
(Table.open(..., block_cache=cache)): an LRU of `capacity_bytes`, sharded,
safe from many threads.
)doc")
      .def(py::init([](size_t capacity_bytes) {
             return PyBlockCache{NewLRUCache(capacity_bytes)};
           }),
           py::arg("capacity_bytes"))
      .def_property_readonly(
          "capacity",
          [](const PyBlockCache& self) { return self.cache->capacity(); },
          "Capacity in bytes.")
      .def_property_readonly(
          "usage", [](const PyBlockCache& self) { return self.cache->usage(); },
          "Bytes charged now.")
      .def(
          "stats",
          [](const PyBlockCache& self) {
            const CacheStats stats = self.cache->GetStats();
            py::dict d;
            d["hits"] = stats.hits;
            d["misses"] = stats.misses;
            d["inserts"] = stats.inserts;
            d["evictions"] = stats.evictions;
            d["usage"] = stats.usage;
            d["capacity"] = stats.capacity;
            return d;
          },
          "Counters as a dict: hits, misses, inserts, evictions, usage, "
          "capacity.");

  DefineIteratorType<BatchIterator>(
      module, "TableIterator",
      "An iterator over a table's entries (Table.iterator, items, keys, "
      "values), with plyvel's Iterator moves. One thread at a time.");

  py::class_<PyPinnedValue>(module, "_PinnedValue", py::buffer_protocol())
      .def_buffer([](PyPinnedValue& pinned) {
        static char empty = 0;
        const std::string_view view = pinned.value.view();
        char* data = view.empty() ? &empty : const_cast<char*>(view.data());
        return py::buffer_info(data, 1, "B", 1,
                               {static_cast<py::ssize_t>(view.size())}, {1},
                               /*readonly=*/true);
      });

  py::class_<PyTable, std::unique_ptr<PyTable>> table(module, "Table", R"doc(
An open table file (an SSTable in LevelDB's format): point lookups and
ordered scans, with the table's filters.

    with bloomtable.Table.open("users.ldb") as t:
        t.get(b"alice")                 # b"1", or None
        t[b"bob"]                       # KeyError if absent
        b"carol" in t
        t.multi_get([b"a", b"b"])       # [value or None, ...]
        for key, value in t.items(start=b"a", stop=b"c"):
            ...

Keys and values are bytes (any bytes-like object is accepted as input; str
is refused with TypeError). Errors: CorruptionError for damaged bytes,
UnsupportedError for a valid table this build cannot read, OSError (with
errno) for file-system errors, InvalidArgumentError for misuse.

Threads: any number of threads may use one Table at once; open, multi_get
and iteration release the GIL. close() may be called at any time: it waits
for calls in progress in other threads to finish, then frees the table;
later calls, and iterators still alive, raise InvalidArgumentError ("table
is closed"). Leaving a ``with`` block closes the table.
)doc");
  constexpr char kOpenDoc[] = R"doc(
Opens the table file at `path` (the GIL is released meanwhile).
Table(path, ...) is the same.

filters: the filter policies to recognise (FilterPolicy objects or kinds);
    None (default): every policy this build reads; []: use no filter. A
    table whose filter is of none of them is read without one.
verify_checksums: verify every data block read (default True; the index and
    filter blocks are always verified).
fill_cache: put data blocks read into block_cache (default True).
block_cache: a BlockCache shared between tables; None (default): a cache of
    8 MiB for this table alone, as LevelDB's default; BlockCache(0): none,
    every data block is read from the file.
cache_index_and_filter_blocks: charge the index and filters to block_cache
    too (default False).
internal_keys: the keys are LevelDB internal keys (a database's .ldb files):
    get takes a user key and returns the newest value (a deletion reads as
    absent); iteration yields internal keys (default False).
prefix_extractor: the PrefixExtractor that prefix scans use; a table's
    prefix filter serves scans only if it names this extractor (see
    scan_filter_info()['prefix_extractor']; default None).
mmap: read through a memory mapping instead of pread (default False). A
    mapped file that is truncated while open kills the process with SIGBUS:
    only for files nothing rewrites.
)doc";
  table
      .def(py::init(&PyTable::Open), py::arg("path"), py::kw_only(),
           py::arg("filters") = py::none(), py::arg("verify_checksums") = true,
           py::arg("fill_cache") = true, py::arg("block_cache") = py::none(),
           py::arg("cache_index_and_filter_blocks") = false,
           py::arg("internal_keys") = false,
           py::arg("prefix_extractor") = py::none(), py::arg("mmap") = false,
           kOpenDoc)
      .def_static(
          "open", &PyTable::Open, py::arg("path"), py::kw_only(),
          py::arg("filters") = py::none(), py::arg("verify_checksums") = true,
          py::arg("fill_cache") = true, py::arg("block_cache") = py::none(),
          py::arg("cache_index_and_filter_blocks") = false,
          py::arg("internal_keys") = false,
          py::arg("prefix_extractor") = py::none(), py::arg("mmap") = false,
          kOpenDoc)
      .def("get_pinned", &PyTable::GetPinned, py::arg("key"),
           "The value of `key` as a read-only memoryview of the data block "
           "holding it, without a copy, or None if absent. The view keeps "
           "the block alive, also after the table is closed; bytes(view) "
           "copies it.")
      .def("__getitem__", &PyTable::GetItem, py::arg("key"),
           "The value of `key`; KeyError if absent.")
      .def("__contains__", &PyTable::Contains, py::arg("key"),
           "Whether the table holds `key`.")
      .def("multi_get", &PyTable::MultiGet, py::arg("keys"),
           py::arg("default") = py::none(),
           "The values of many keys at once, as a list in the order of "
           "`keys` (`default` for an absent key). Every key's filter is "
           "asked first, then each data block needed is read once; the GIL "
           "is released meanwhile.")
      .def(
          "items",
          [](PyTable& self, const py::object& start, const py::object& stop,
             bool reverse, const py::object& prefix) {
            return self.Iterate(YieldSpec{true, true, 0}, start, stop, reverse,
                                prefix);
          },
          py::arg("start") = py::none(), py::arg("stop") = py::none(),
          py::kw_only(), py::arg("reverse") = false,
          py::arg("prefix") = py::none(),
          (std::string("(key, value) pairs. ") + kIterateDoc).c_str())
      .def(
          "keys",
          [](PyTable& self, const py::object& start, const py::object& stop,
             bool reverse, const py::object& prefix) {
            return self.Iterate(YieldSpec{true, false, 0}, start, stop, reverse,
                                prefix);
          },
          py::arg("start") = py::none(), py::arg("stop") = py::none(),
          py::kw_only(), py::arg("reverse") = false,
          py::arg("prefix") = py::none(),
          (std::string("Keys. ") + kIterateDoc).c_str())
      .def(
          "values",
          [](PyTable& self, const py::object& start, const py::object& stop,
             bool reverse, const py::object& prefix) {
            return self.Iterate(YieldSpec{false, true, 0}, start, stop, reverse,
                                prefix);
          },
          py::arg("start") = py::none(), py::arg("stop") = py::none(),
          py::kw_only(), py::arg("reverse") = false,
          py::arg("prefix") = py::none(),
          (std::string("Values. ") + kIterateDoc).c_str())
      .def(
          "__iter__",
          [](PyTable& self) {
            return self.Iterate(YieldSpec{true, false, 0}, py::none(),
                                py::none(), false, py::none());
          },
          "The keys in order, as keys() (a mapping's iteration; "
          "t.iterator() yields (key, value) pairs as plyvel's does).")
      .def("iterator", &PyTable::PlyvelIterator, py::kw_only(),
           py::arg("reverse") = false, py::arg("start") = py::none(),
           py::arg("stop") = py::none(), py::arg("include_start") = true,
           py::arg("include_stop") = false, py::arg("prefix") = py::none(),
           py::arg("include_key") = true, py::arg("include_value") = true,
           py::arg("verify_checksums") = py::none(),
           py::arg("fill_cache") = py::none(),
           "An iterator with plyvel's arguments and meanings, as "
           "Database.iterator (without sequence): start (included unless "
           "include_start=False), stop (excluded unless include_stop=True) "
           "or prefix, reverse, include_key, include_value; next(), prev(), "
           "seek(), seek_to_start(), seek_to_stop(). For internal_keys "
           "tables the bounds are user keys and the keys yielded are "
           "internal keys.")
      .def("raw_iterator", &PyTable::NewRawIterator, py::kw_only(),
           py::arg("verify_checksums") = py::none(),
           py::arg("fill_cache") = py::none(),
           "plyvel's raw iterator over the table (see Database.raw_iterator).")
      .def("partitions", &PyTable::Partitions, py::arg("n"),
           "At most `n` key ranges (start, stop) of about equal stored bytes "
           "that cover every key once, in order: (None, k1), ..., (kn, "
           "None), each the bounds of one scan (stop excluded). From the "
           "index block: no data block is read (user keys for internal_keys "
           "tables).")
      .def(
          "__arrow_c_stream__",
          [](PyTable& self, const py::object&) {
            return self
                .PlyvelIterator(false, py::none(), py::none(), true, false,
                                py::none(), true, true, std::nullopt,
                                std::nullopt)
                ->ArrowStream();
          },
          py::arg("requested_schema") = py::none(),
          "Every entry as an Arrow stream (the Arrow PyCapsule interface): "
          "binary columns key and value, in key order, in batches of at most "
          "65,536 rows and less than 2 GiB per column, filled with the GIL "
          "released. pyarrow.table(t), polars.DataFrame(t) and "
          "duckdb.sql('select ... from t') read it.")
      .def("may_contain_range", &PyTable::MayContainRange, py::arg("lo"),
           py::arg("hi"),
           "False only if no key lies in [lo, hi), as the table's range "
           "filter (or prefix filter) tells without reading a data block; "
           "True when it has no filter for the range. lo >= hi is False.")
      .def("approximate_offset_of", &PyTable::ApproximateOffsetOf,
           py::arg("key"),
           "The approximate file offset where the data for `key` begins.")
      .def("approximate_memory_usage", &PyTable::ApproximateMemoryUsage,
           "Bytes the open table holds in memory (index, filters, blocks of "
           "live iterators).")
      .def("stats", &PyTable::Stats,
           "Counters since open, as a dict: filter_checks, "
           "filter_negatives, data_block_reads, bytes_read, "
           "checksum_failures, block_cache_hits, block_cache_misses, "
           "filter_partition_reads, prefix_filter_checks, "
           "prefix_filter_negatives, range_filter_checks, "
           "range_filter_negatives.")
      .def("filter_info", &PyTable::FilterInfo,
           "The point filter, as a dict: metaindex_key ('' if none), in_use, "
           "unused_reason.")
      .def("scan_filter_info", &PyTable::ScanFilterInfo,
           "The scan filters, as a dict: prefix_metaindex_key, "
           "prefix_extractor, prefix_whole_keys, prefix_loaded, "
           "prefix_in_use, prefix_unused_reason, range_metaindex_key, "
           "range_in_use, range_unused_reason, range_num_keys, "
           "range_bits_per_key, range_filter_bytes.")
      .def("_cpp_get_seconds", &PyTable::CppGetSeconds, py::arg("keys"),
           "For benchmarks: seconds the C++ Table::Get takes for all `keys` "
           "in a loop, without the binding.")
      .def("close", &PyTable::Close,
           "Closes the table: waits for calls in progress in other threads, "
           "then frees it; later calls and live iterators raise "
           "InvalidArgumentError. Idempotent.")
      .def_property_readonly("closed", &PyTable::closed,
                             "Whether close() was called.")
      .def_property_readonly("path", &PyTable::path, "The file's path.")
      .def_property_readonly("file_size", &PyTable::file_size,
                             "The file's size in bytes at open.")
      .def_property_readonly("internal_keys", &PyTable::internal_keys,
                             "Whether opened with internal_keys=True.")
      .def("__enter__", [](py::object self) { return self; })
      .def("__exit__",
           [](PyTable& self, const py::object&, const py::object&,
              const py::object&) {
             self.Close();
             return false;
           })
      .def("__repr__", [](const PyTable& self) {
        return absl::StrCat("<bloomtable.Table '", self.path(), "'",
                            self.closed() ? " closed" : "", ">");
      });
  AddFastMethod(table, &kTableGetMethod);
}

}  // namespace python
}  // namespace bloomtable
