#include "python/src/database.h"

#include <pybind11/stl.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "bloomtable/cache.h"
#include "bloomtable/database.h"
#include "bloomtable/file.h"
#include "python/src/batch_iterator.h"
#include "python/src/bytes_arg.h"
#include "python/src/comparators.h"
#include "python/src/errors.h"
#include "python/src/table_handle.h"

namespace py = pybind11;

namespace bloomtable {
namespace python {
namespace {

// The block cache a database gets when Database.open is given none.
constexpr size_t kDefaultBlockCacheBytes = size_t{8} << 20;

class DatabaseHandle final : public ClosableHandle {
 public:
  DatabaseHandle(std::string path, std::unique_ptr<Database> database,
                 std::shared_ptr<const Comparator> comparator)
      : ClosableHandle(std::move(path), "database"),
        comparator_(std::move(comparator)),
        database_(std::move(database)) {}

  // The database. REQUIRES: as TableHandle::table().
  const Database& database() const { return *database_; }

 private:
  void Free() override { database_.reset(); }

  // The comparator= the database was opened with, which outlives it.
  const std::shared_ptr<const Comparator> comparator_;
  std::unique_ptr<Database> database_;
};

// bloomtable.SalvageWarning, made by DefineDatabase.
PyObject*& SalvageWarningClass() {
  static PyObject* type = nullptr;
  return type;
}

// With the GIL held: warns (SalvageWarning) that salvage skipped, repaired
// or recovered something, naming the first few things.
void WarnIfSalvaged(const Database& db) {
  if (!db.salvaged() || SalvageWarningClass() == nullptr) return;
  constexpr size_t kShown = 5;
  std::string message =
      absl::StrCat("salvage: the database is read partially (",
                   db.warnings().size(), " warnings in db.warnings)");
  for (size_t i = 0; i < db.warnings().size() && i < kShown; ++i) {
    absl::StrAppend(&message, "\n  ", db.warnings()[i]);
  }
  if (PyErr_WarnEx(SalvageWarningClass(), message.c_str(), 2) != 0) {
    throw py::error_already_set();
  }
}

// A distinct Python type for the database's iterators.
class DatabaseIterator final : public BatchIterator {
 public:
  using BatchIterator::BatchIterator;
};

// One version of one key, as Database.versions() lists it.
struct PyVersionRecord {
  py::bytes key;
  uint64_t sequence;
  std::string type;  // "put" or "del"
  py::bytes value;
  std::string file;
  uint64_t offset;
  std::string status;  // RecordStatusName: "live", ..., "recovered"
};

class PyDatabase {
 public:
  static std::unique_ptr<PyDatabase> Open(
      const py::object& path_arg, bool verify_checksums, bool fill_cache,
      std::optional<size_t> cache_bytes, int max_open_files,
      bool read_leftovers, bool salvage, const py::object& comparator_arg,
      const py::object& comparator_name, const py::object& filters_dir,
      bool filters_in_memory) {
    const std::string path = PathArg(path_arg);
    std::shared_ptr<const Comparator> comparator =
        ComparatorArg(comparator_arg, comparator_name);
    if (max_open_files < 1) {
      ThrowInvalidArgument("max_open_files must be at least 1");
    }
    DatabaseOptions options;
    options.max_open_files = max_open_files;
    options.read_leftovers = read_leftovers;
    options.comparator = comparator.get();
    if (salvage) options.salvage = SalvageOptions::All();
    if (!filters_dir.is_none()) options.filters_dir = PathArg(filters_dir);
    options.build_filters_in_memory = filters_in_memory;
    const size_t bytes = cache_bytes.value_or(kDefaultBlockCacheBytes);
    if (bytes > 0) options.block_cache = NewLRUCache(bytes);
    absl::StatusOr<std::unique_ptr<Database>> database;
    {
      py::gil_scoped_release release;
      database = Database::OpenReadOnly(path, options);
    }
    if (!database.ok()) ThrowStatus(database.status(), path);
    if (salvage) WarnIfSalvaged(**database);
    DatabaseReadOptions read_options;
    read_options.verify_checksums = verify_checksums;
    read_options.fill_cache = fill_cache;
    return std::unique_ptr<PyDatabase>(
        new PyDatabase(std::make_shared<DatabaseHandle>(
                           path, *std::move(database), std::move(comparator)),
                       read_options));
  }

  py::object Get(const py::object& key, const py::object& default_value,
                 std::optional<uint64_t> sequence) {
    std::string value;
    if (!Lookup(key, sequence, &value)) return default_value;
    return ToBytes(value);
  }

  py::bytes GetItem(const py::object& key) {
    std::string value;
    if (!Lookup(key, std::nullopt, &value)) {
      PyErr_SetObject(PyExc_KeyError, key.ptr());
      throw py::error_already_set();
    }
    return ToBytes(value);
  }

  bool Contains(const py::object& key) {
    std::string value;
    return Lookup(key, std::nullopt, &value);
  }

  std::unique_ptr<DatabaseIterator> Iterate(Yield yield,
                                            const py::object& start,
                                            const py::object& stop,
                                            bool reverse,
                                            std::optional<uint64_t> sequence) {
    DatabaseReadOptions read_options = read_options_;
    read_options.sequence = sequence;
    if (!start.is_none()) {
      read_options.lower_bound = std::string(BytesArg(start, "start").view());
    }
    if (!stop.is_none()) {
      read_options.upper_bound = std::string(BytesArg(stop, "stop").view());
    }
    CheckOrdered();
    CallGuard guard(handle_.get());
    std::unique_ptr<Iterator> iterator;
    {
      py::gil_scoped_release release;
      iterator = handle_->database().NewIterator(read_options);
    }
    return std::make_unique<DatabaseIterator>(handle_, std::move(iterator),
                                              yield, reverse);
  }

  py::list Versions(std::optional<uint64_t> sequence) {
    DatabaseReadOptions read_options = read_options_;
    read_options.sequence = sequence;
    std::vector<VersionRecord> records;
    absl::Status status;
    {
      CallGuard guard(handle_.get());
      py::gil_scoped_release release;
      status = handle_->database().ListVersions(
          read_options, [&records](const VersionRecord& record) {
            records.push_back(record);
            return true;
          });
    }
    if (!status.ok()) ThrowStatus(status, handle_->path());
    py::list list(records.size());
    for (size_t i = 0; i < records.size(); ++i) {
      const VersionRecord& r = records[i];
      list[i] = py::cast(
          PyVersionRecord{ToBytes(r.user_key), r.sequence,
                          r.deletion ? "del" : "put", ToBytes(r.value), r.file,
                          r.offset, std::string(RecordStatusName(r.status))});
    }
    return list;
  }

  py::list Tables() {
    CheckOpen();
    py::list list;
    for (const DatabaseTableFile& file : handle_->database().tables()) {
      py::dict d;
      d["level"] = file.level;
      d["number"] = file.number;
      d["size"] = file.size;
      d["name"] = file.name;
      list.append(d);
    }
    return list;
  }

  py::dict Stats() {
    CheckOpen();
    const DatabaseStats stats = handle_->database().GetStats();
    py::dict d;
    d["open_tables"] = stats.open_tables;
    d["table_memory_bytes"] = stats.table_memory_bytes;
    d["filter_checks"] = stats.tables.filter_checks;
    d["filter_negatives"] = stats.tables.filter_negatives;
    d["data_block_reads"] = stats.tables.data_block_reads;
    d["bytes_read"] = stats.tables.bytes_read;
    d["block_cache_hits"] = stats.tables.block_cache_hits;
    d["block_cache_misses"] = stats.tables.block_cache_misses;
    d["sidecar_tables"] = stats.sidecar_tables;
    d["sidecar_memory_bytes"] = stats.sidecar_memory_bytes;
    d["sidecar_filter_checks"] = stats.sidecar_filter_checks;
    d["sidecar_filter_negatives"] = stats.sidecar_filter_negatives;
    d["sidecar_range_checks"] = stats.sidecar_range_checks;
    d["sidecar_range_negatives"] = stats.sidecar_range_negatives;
    d["sidecars_pending"] = stats.sidecars_pending;
    d["sidecar_build_failures"] = stats.sidecar_build_failures;
    return d;
  }

  py::list Logs() {
    CheckOpen();
    py::list list;
    for (const DatabaseLogFile& file : handle_->database().logs()) {
      py::dict d;
      d["number"] = file.number;
      d["name"] = file.name;
      d["records"] = file.records;
      d["damaged"] = file.damaged;
      d["min_sequence"] = file.min_sequence;
      d["max_sequence"] = file.max_sequence;
      list.append(d);
    }
    return list;
  }

  bool ordered() const {
    CheckOpen();
    return handle_->database().ordered();
  }
  std::string comparator_name() const {
    CheckOpen();
    return handle_->database().comparator_name();
  }
  uint64_t last_sequence() const {
    CheckOpen();
    return handle_->database().last_sequence();
  }
  std::string manifest() const {
    CheckOpen();
    return handle_->database().manifest();
  }
  std::vector<std::string> warnings() const {
    CheckOpen();
    return handle_->database().warnings();
  }

  void Close() { handle_->Close(); }
  bool closed() const { return handle_->closed(); }
  const std::string& path() const { return handle_->path(); }

 private:
  PyDatabase(std::shared_ptr<DatabaseHandle> handle,
             DatabaseReadOptions read_options)
      : handle_(std::move(handle)), read_options_(std::move(read_options)) {}

  // Raises if closed. The GIL is held from here to the end of the call, so
  // no Close can free the database meanwhile (it waits for the GIL).
  void CheckOpen() const {
    if (handle_->closed()) ThrowInvalidArgument(handle_->closed_message());
  }

  // Get and iteration need the database's key order: a comparator this
  // build does not know makes them unsupported (versions() still works).
  void CheckOrdered() const {
    CheckOpen();
    if (!handle_->database().ordered()) {
      ThrowStatus(absl::UnimplementedError(absl::StrCat(
          handle_->path(), ": the database's comparator \"",
          handle_->database().comparator_name(),
          "\" is not one this build knows: get and iteration need its key "
          "order; versions() lists the records in file order")));
    }
  }

  // A single lookup, with the GIL held (see CheckOpen).
  bool Lookup(const py::object& key, std::optional<uint64_t> sequence,
              std::string* value) {
    BytesArg arg(key, "key");
    CheckOrdered();
    DatabaseReadOptions read_options = read_options_;
    read_options.sequence = sequence;
    absl::StatusOr<std::string> result =
        handle_->database().Get(read_options, arg.view());
    if (result.ok()) {
      *value = *std::move(result);
      return true;
    }
    if (absl::IsNotFound(result.status()) &&
        FileErrorNumber(result.status()) == 0) {
      return false;
    }
    ThrowStatus(result.status(), handle_->path());
  }

  const std::shared_ptr<DatabaseHandle> handle_;
  const DatabaseReadOptions read_options_;
};

constexpr char kIterateDoc[] =
    "The newest version of each key (deletions hidden), in key order, or in "
    "reverse with reverse=True, confined to [start, stop) (half-open). With "
    "`sequence`, the database as it was at that sequence number. Entries are "
    "read in batches with the GIL released; the iterator raises "
    "InvalidArgumentError once its database is closed.";

}  // namespace

void DefineDatabase(py::module_& module) {
  SalvageWarningClass() = PyErr_NewExceptionWithDoc(
      "bloomtable.SalvageWarning",
      "Database.open(..., salvage=True) read past damage: what it returns is "
      "partial. db.warnings names each block, table and log region skipped, "
      "repaired or recovered, with its file and offset.",
      PyExc_UserWarning, /*dict=*/nullptr);
  if (SalvageWarningClass() == nullptr) throw py::error_already_set();
  module.add_object("SalvageWarning",
                    py::reinterpret_borrow<py::object>(SalvageWarningClass()));
  py::class_<DatabaseIterator, std::unique_ptr<DatabaseIterator>>(
      module, "DatabaseIterator",
      "An iterator over a database's keys (Database.items, keys, values). "
      "One thread at a time.")
      .def("__iter__", [](py::object self) { return self; })
      .def("__next__", &DatabaseIterator::Next);

  py::class_<PyVersionRecord>(module, "VersionRecord",
                              "One version of one key, as "
                              "Database.versions() lists it.")
      .def_readonly("key", &PyVersionRecord::key, "The user key (bytes).")
      .def_readonly("sequence", &PyVersionRecord::sequence,
                    "Its sequence number.")
      .def_readonly("type", &PyVersionRecord::type,
                    "'put' (a value) or 'del' (a deletion marker).")
      .def_readonly("value", &PyVersionRecord::value,
                    "The value (bytes); b'' for a deletion.")
      .def_readonly("file", &PyVersionRecord::file,
                    "The file of the directory it came from.")
      .def_readonly("offset", &PyVersionRecord::offset,
                    "For a log, the offset of the record holding its batch; "
                    "for a table, the offset of its data block.")
      .def_readonly("status", &PyVersionRecord::status,
                    "'live' (what get returns), 'overwritten' (a newer value "
                    "exists), 'deleted' (a deletion marker that is newest, or "
                    "a value it deletes), 'leftover' (only in a file the "
                    "database's version does not list) or 'recovered' (with "
                    "salvage=True: a log record LevelDB's recovery skips, "
                    "read after damage).")
      .def("__repr__", [](const PyVersionRecord& self) {
        return absl::StrCat(
            "VersionRecord(key=", py::repr(self.key).cast<std::string>(),
            ", sequence=", self.sequence, ", type='", self.type,
            "', value=", py::repr(self.value).cast<std::string>(), ", file='",
            self.file, "', offset=", self.offset, ", status='", self.status,
            "')");
      });

  py::class_<PyDatabase, std::unique_ptr<PyDatabase>>(module, "Database", R"doc(
A read-only view of a LevelDB database directory: the tables its MANIFEST
lists and the records of its live logs, as LevelDB sees them after recovery.
It takes no LOCK and writes nothing: it opens a copy, a read-only mount, or a
directory a running program holds.

    with bloomtable.Database.open("chrome/Local Storage/leveldb") as db:
        db.get(b"key")                  # b"value", or None
        db[b"key"]                      # KeyError if absent or deleted
        b"key" in db
        for key, value in db.items(start=b"a", stop=b"c"):
            ...
        for r in db.versions():         # every version of every key
            print(r.key, r.sequence, r.type, r.status, r.file, r.offset)

Keys and values are bytes. Errors: CorruptionError for a damaged MANIFEST or
table; UnsupportedError for another engine's directory (RocksDB, Pebble) and,
from get and iteration, for a comparator this build does not know (the
listing still works); OSError with errno for file-system errors (a missing
directory: FileNotFoundError); bloomtable.Error for a directory that holds
no LevelDB database; InvalidArgumentError for misuse.

Threads: as Table. close() waits for calls in progress in other threads,
then frees the view; later calls and live iterators raise
InvalidArgumentError ("database is closed").
)doc")
      .def_static(
          "open", &PyDatabase::Open, py::arg("path"), py::kw_only(),
          py::arg("verify_checksums") = true, py::arg("fill_cache") = true,
          py::arg("block_cache_bytes") = py::none(),
          py::arg("max_open_files") = 1000, py::arg("read_leftovers") = false,
          py::arg("salvage") = false, py::arg("comparator") = py::none(),
          py::arg("comparator_name") = py::none(),
          py::arg("filters_dir") = py::none(),
          py::arg("filters_in_memory") = false,
          R"doc(
Opens the database in directory `path` (the GIL is released meanwhile):
reads CURRENT, the MANIFEST and the live logs; tables are opened when first
needed.

verify_checksums: verify every data block read (default True).
fill_cache: put data blocks read into the block cache (default True).
block_cache_bytes: capacity of the block cache the tables share; None
    (default): 8 MiB; 0: none.
max_open_files: tables kept open at once (at least 1; default 1000).
read_leftovers: versions() also lists the records of table and log files
    the database's version does not list, with status 'leftover' (default
    False; get and iteration never read them).
salvage: read past damage that LevelDB refuses, skipping it with a warning
    (db.warnings): a damaged or undecodable MANIFEST edit is left out, so
    the version may be older than the database's own; a log fragment or
    table block with one damaged byte is repaired by its checksum, else
    skipped, and the log is read on at the next whole fragment (records
    found so have status 'recovered' in versions()); a table whose footer
    or index is lost is walked block by block; every table is read whole
    into memory at open. If anything was skipped, repaired or recovered,
    open warns with bloomtable.SalvageWarning: the answers are partial.
    Default False: such a database raises CorruptionError, as LevelDB
    refuses it, and damaged tables fail the reads that need them.

    db = bloomtable.Database.open("damaged/leveldb", salvage=True)
    print(db.warnings)
comparator: None (default): the comparator the MANIFEST names, if built in
    ("leveldb.BytewiseComparator", "idb_cmp1" for Chromium's IndexedDB).
    A str: that built-in comparator, and a database whose MANIFEST names
    another raises InvalidArgumentError (as LevelDB refuses it). A callable
    f(a: bytes, b: bytes) -> int (<0, 0, >0) with comparator_name, the name
    the MANIFEST must give: called with the GIL taken back for each
    comparison (0.2 to 0.3 us each: a get costs about 5 times a built-in
    comparator's; threads compare one at a time);
    if it raises, the read raises CorruptionError naming the key.

    db = bloomtable.Database.open("profile/IndexedDB/x.indexeddb.leveldb")
    db = bloomtable.Database.open("dir", comparator=lambda a, b: (a > b) - (a < b),
                                  comparator_name="my.Comparator")
filters_dir: a directory of sidecar filters (bloomtable.build_filters) to
    ask before each table; one that is missing, stale or damaged is ignored
    (see warnings) and the table's own filter answers. Default None.
filters_in_memory: build the missing sidecar filters in memory, on a
    background thread, without writing anything (default False).
)doc")
      .def("get", &PyDatabase::Get, py::arg("key"),
           py::arg("default") = py::none(), py::kw_only(),
           py::arg("sequence") = py::none(),
           "The newest value of `key` (bytes), or `default` if it has none or "
           "its newest version is a deletion. With `sequence`, as of that "
           "sequence number.")
      .def("__getitem__", &PyDatabase::GetItem, py::arg("key"),
           "The newest value of `key`; KeyError if absent or deleted.")
      .def("__contains__", &PyDatabase::Contains, py::arg("key"),
           "Whether `key` has a value (its newest version is not a "
           "deletion).")
      .def(
          "items",
          [](PyDatabase& self, const py::object& start, const py::object& stop,
             bool reverse, std::optional<uint64_t> sequence) {
            return self.Iterate(Yield::kItems, start, stop, reverse, sequence);
          },
          py::arg("start") = py::none(), py::arg("stop") = py::none(),
          py::kw_only(), py::arg("reverse") = false,
          py::arg("sequence") = py::none(),
          (std::string("(key, value) pairs. ") + kIterateDoc).c_str())
      .def(
          "keys",
          [](PyDatabase& self, const py::object& start, const py::object& stop,
             bool reverse, std::optional<uint64_t> sequence) {
            return self.Iterate(Yield::kKeys, start, stop, reverse, sequence);
          },
          py::arg("start") = py::none(), py::arg("stop") = py::none(),
          py::kw_only(), py::arg("reverse") = false,
          py::arg("sequence") = py::none(),
          (std::string("Keys. ") + kIterateDoc).c_str())
      .def(
          "values",
          [](PyDatabase& self, const py::object& start, const py::object& stop,
             bool reverse, std::optional<uint64_t> sequence) {
            return self.Iterate(Yield::kValues, start, stop, reverse, sequence);
          },
          py::arg("start") = py::none(), py::arg("stop") = py::none(),
          py::kw_only(), py::arg("reverse") = false,
          py::arg("sequence") = py::none(),
          (std::string("Values. ") + kIterateDoc).c_str())
      .def(
          "__iter__",
          [](PyDatabase& self) {
            return self.Iterate(Yield::kKeys, py::none(), py::none(), false,
                                std::nullopt);
          },
          "The keys in order, as keys().")
      .def("versions", &PyDatabase::Versions, py::kw_only(),
           py::arg("sequence") = py::none(),
           "Every version of every key in the live tables and logs (and "
           "leftover files with read_leftovers=True), as a list of "
           "VersionRecord: by key, newest first, if the comparator is known, "
           "else in file order. With `sequence`, statuses as of that "
           "sequence number and later versions left out. The GIL is "
           "released while reading.")
      .def("tables", &PyDatabase::Tables,
           "The table files of the database's version, as dicts: level, "
           "number, size, name.")
      .def("logs", &PyDatabase::Logs,
           "The live logs, oldest first, as dicts: number, name, records, "
           "damaged, min_sequence, max_sequence.")
      .def("stats", &PyDatabase::Stats,
           "Counts of the tables open now and of the sidecar filters, as a "
           "dict: open_tables, table_memory_bytes, filter_checks, "
           "filter_negatives, data_block_reads, bytes_read, "
           "block_cache_hits, block_cache_misses, sidecar_tables, "
           "sidecar_memory_bytes, sidecar_filter_checks, "
           "sidecar_filter_negatives, sidecar_range_checks, "
           "sidecar_range_negatives, sidecars_pending, "
           "sidecar_build_failures. Opens no table.")
      .def_property_readonly("ordered", &PyDatabase::ordered,
                             "Whether the comparator is known (bytewise): "
                             "get and iteration need it.")
      .def_property_readonly("comparator_name", &PyDatabase::comparator_name,
                             "The comparator name the MANIFEST records.")
      .def_property_readonly("last_sequence", &PyDatabase::last_sequence,
                             "The last sequence number.")
      .def_property_readonly("manifest", &PyDatabase::manifest,
                             "The MANIFEST file read.")
      .def_property_readonly("warnings", &PyDatabase::warnings,
                             "Problems found at open that did not fail it "
                             "(damaged log records skipped, a torn log "
                             "tail, a MANIFEST found without CURRENT).")
      .def("close", &PyDatabase::Close,
           "Closes the view: waits for calls in progress in other threads, "
           "then frees it; later calls and live iterators raise "
           "InvalidArgumentError. Idempotent.")
      .def_property_readonly("closed", &PyDatabase::closed,
                             "Whether close() was called.")
      .def_property_readonly("path", &PyDatabase::path, "The directory's path.")
      .def("__enter__", [](py::object self) { return self; })
      .def("__exit__",
           [](PyDatabase& self, const py::object&, const py::object&,
              const py::object&) {
             self.Close();
             return false;
           })
      .def("__repr__", [](const PyDatabase& self) {
        return absl::StrCat("<bloomtable.Database '", self.path(), "'",
                            self.closed() ? " closed" : "", ">");
      });
}

}  // namespace python
}  // namespace bloomtable
