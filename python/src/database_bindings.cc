// The Python types of database.h: Database, DatabaseIterator and
// PrefixedDatabase, with their docstrings.

#include <pybind11/stl.h>

#include <optional>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "python/src/bytes_arg.h"
#include "python/src/database.h"
#include "python/src/fast_call.h"

namespace py = pybind11;

namespace bloomtable {
namespace python {
namespace {

// Database.prefixed_db(prefix): the keys beginning with `prefix`, with the
// prefix taken off (plyvel's PrefixedDB, read-only).
class PyPrefixedDatabase {
 public:
  PyPrefixedDatabase(py::object db, std::string prefix)
      : db_(std::move(db)), prefix_(std::move(prefix)) {}

  PyDatabase& database() const { return db_.cast<PyDatabase&>(); }
  const py::object& db() const { return db_; }
  const std::string& prefix() const { return prefix_; }

 private:
  const py::object db_;  // the Database
  const std::string prefix_;
};

constexpr char kIterateDoc[] =
    "The newest version of each key (deletions hidden), in key order, or in "
    "reverse with reverse=True, confined to [start, stop) (half-open) and to "
    "keys beginning with `prefix`. With `sequence`, the database as it was at "
    "that sequence number. Entries are read in batches with the GIL "
    "released; the iterator raises InvalidArgumentError once its database "
    "is closed.";

constexpr char kPlyvelIteratorDoc[] = R"doc(
An iterator with plyvel's arguments and meanings (all keyword-only):
start (included unless include_start=False) and stop (excluded unless
include_stop=True), or prefix (not with start or stop: TypeError); reverse;
include_key and include_value choose what each step yields: (key, value),
the key, the value, or None. verify_checksums and fill_cache (None: as
opened) and sequence (the database as of that sequence number).

    for key, value in db.iterator(prefix=b"user:"):
        ...
    it = db.iterator(start=b"b", include_stop=True, stop=b"d")
    next(it); it.prev(); it.seek(b"c"); it.seek_to_stop()

The iterator stands between two entries: next() returns the entry after it,
prev() the entry before it. Entries are read in batches with the GIL
released. __arrow_c_stream__ exports what is left of it to Arrow.
)doc";

constexpr char kRawIteratorDoc[] = R"doc(
plyvel's raw iterator: the C++ iterator's moves one by one, over every key
of the database (newest versions, deletions hidden). verify_checksums and
fill_cache (None: as opened), sequence (the database as of it).

    it = db.raw_iterator()
    it.seek(b"k")
    while it.valid():
        print(it.key(), it.value())
        it.next()
)doc";

// Database.get(key, default=None, *, sequence=None), without pybind11's
// dispatcher (fast_call.h): a get from the block cache or a mapped file
// takes about a microsecond, which the generic argument matching would
// add a fifth to.
PyObject* DatabaseGet(PyObject* self, PyObject* const* args, Py_ssize_t nargs,
                      PyObject* kwnames) {
  return CatchingErrors([&]() -> PyObject* {
    static const char* const kNames[] = {"key", "default", "sequence"};
    PyObject* values[3];
    if (!ParseFastArgs("get", kNames, 3, /*positional=*/2, /*required=*/1, args,
                       nargs, kwnames, values)) {
      return nullptr;
    }
    std::optional<uint64_t> sequence;
    if (!SequenceArg("get", values[2], &sequence)) return nullptr;
    PyDatabase& db = FastSelf<PyDatabase>(self);
    const py::handle default_value =
        values[1] != nullptr ? py::handle(values[1]) : py::none();
    return db
        .Get({}, py::reinterpret_borrow<py::object>(values[0]),
             py::reinterpret_borrow<py::object>(default_value), sequence)
        .release()
        .ptr();
  });
}

const PyMethodDef kGetMethod = {
    "get",
    reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(&DatabaseGet)),
    METH_FASTCALL | METH_KEYWORDS,
    "get($self, /, key, default=None, *, sequence=None)\n--\n\n"
    "The newest value of `key` (bytes), or `default` if it has none or its "
    "newest version is a deletion. With `sequence`, as of that sequence "
    "number."};

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
  DefineIteratorType<DatabaseIterator>(
      module, "DatabaseIterator",
      "An iterator over a database's entries (Database.iterator, items, "
      "keys, values), with plyvel's Iterator moves. One thread at a time.");

  auto plyvel_iterator =
      [](PyDatabase& db, std::string_view db_prefix, bool reverse,
         const py::object& start, const py::object& stop, bool include_start,
         bool include_stop, const py::object& prefix, bool include_key,
         bool include_value, std::optional<bool> verify_checksums,
         std::optional<bool> fill_cache, std::optional<uint64_t> sequence) {
        PlyvelIteratorArgs args;
        args.reverse = reverse;
        args.include_key = include_key;
        args.include_value = include_value;
        args.verify_checksums = verify_checksums;
        args.fill_cache = fill_cache;
        args.sequence = sequence;
        return db.PlyvelIterator(db_prefix, start, stop, include_start,
                                 include_stop, prefix, args);
      };

  py::class_<PyPrefixedDatabase>(module, "PrefixedDatabase", R"doc(
The keys of a Database that begin with a prefix, with the prefix taken off
(plyvel's PrefixedDB, read-only): Database.prefixed_db(prefix).

    users = db.prefixed_db(b"user:")
    users.get(b"17")                 # db.get(b"user:17")
    for key, value in users.iterator():
        ...                          # keys without b"user:"
)doc")
      .def_property_readonly(
          "prefix",
          [](const PyPrefixedDatabase& self) { return ToBytes(self.prefix()); },
          "The prefix (bytes).")
      .def_property_readonly("db", &PyPrefixedDatabase::db,
                             "The Database it is part of.")
      .def(
          "get",
          [](PyPrefixedDatabase& self, const py::object& key,
             const py::object& default_value,
             std::optional<uint64_t> sequence) {
            return self.database().Get(self.prefix(), key, default_value,
                                       sequence);
          },
          py::arg("key"), py::arg("default") = py::none(), py::kw_only(),
          py::arg("sequence") = py::none(),
          "The newest value of prefix + key, or `default`.")
      .def(
          "__getitem__",
          [](PyPrefixedDatabase& self, const py::object& key) {
            return self.database().GetItem(self.prefix(), key);
          },
          py::arg("key"), "The newest value of prefix + key; KeyError if none.")
      .def(
          "__contains__",
          [](PyPrefixedDatabase& self, const py::object& key) {
            return self.database().Contains(self.prefix(), key);
          },
          py::arg("key"), "Whether prefix + key has a value.")
      .def(
          "iterator",
          [plyvel_iterator](
              PyPrefixedDatabase& self, bool reverse, const py::object& start,
              const py::object& stop, bool include_start, bool include_stop,
              const py::object& prefix, bool include_key, bool include_value,
              std::optional<bool> verify_checksums,
              std::optional<bool> fill_cache,
              std::optional<uint64_t> sequence) {
            return plyvel_iterator(self.database(), self.prefix(), reverse,
                                   start, stop, include_start, include_stop,
                                   prefix, include_key, include_value,
                                   verify_checksums, fill_cache, sequence);
          },
          py::kw_only(), py::arg("reverse") = false,
          py::arg("start") = py::none(), py::arg("stop") = py::none(),
          py::arg("include_start") = true, py::arg("include_stop") = false,
          py::arg("prefix") = py::none(), py::arg("include_key") = true,
          py::arg("include_value") = true,
          py::arg("verify_checksums") = py::none(),
          py::arg("fill_cache") = py::none(), py::arg("sequence") = py::none(),
          "Database.iterator over the prefixed keys: start, stop and prefix "
          "are taken after the prefix, and the keys yielded lose it.")
      .def(
          "__iter__",
          [](PyPrefixedDatabase& self) {
            PlyvelIteratorArgs args;
            args.include_value = false;
            return self.database().PlyvelIterator(self.prefix(), py::none(),
                                                  py::none(), true, false,
                                                  py::none(), args);
          },
          "The keys (without the prefix) in order.")
      .def(
          "prefixed_db",
          [](const PyPrefixedDatabase& self, const py::object& prefix) {
            return PyPrefixedDatabase(
                self.db(),
                self.prefix() + std::string(BytesArg(prefix, "prefix").view()));
          },
          py::arg("prefix"),
          "A PrefixedDatabase of the keys beginning with this prefix + "
          "`prefix`.")
      .def(
          "__arrow_c_stream__",
          [](PyPrefixedDatabase& self, const py::object&) {
            return self.database()
                .PlyvelIterator(self.prefix(), py::none(), py::none(), true,
                                false, py::none(), PlyvelIteratorArgs())
                ->ArrowStream();
          },
          py::arg("requested_schema") = py::none(),
          "Every prefixed key (without the prefix) and its value as an "
          "Arrow stream, as Database.__arrow_c_stream__.")
      .def("__repr__", [](const PyPrefixedDatabase& self) {
        return absl::StrCat(
            "<bloomtable.PrefixedDatabase ",
            py::repr(ToBytes(self.prefix())).cast<std::string>(), " of ",
            py::repr(self.db()).cast<std::string>(), ">");
      });

  py::class_<PyDatabase, std::unique_ptr<PyDatabase>> database(
      module, "Database", R"doc(
A read-only view of a LevelDB database directory: the tables its MANIFEST
lists and the records of its live logs, as LevelDB sees them after recovery.
It takes no LOCK and writes nothing: it opens a copy, a read-only mount, or a
directory a running program holds.

    with bloomtable.Database("chrome/Local Storage/leveldb") as db:
        db.get(b"key")                  # b"value", or None
        db[b"key"]                      # KeyError if absent or deleted
        b"key" in db
        for key, value in db.iterator(prefix=b"user:"):   # plyvel's
            ...
        for key, value in db.items(start=b"a", stop=b"c"):
            ...
        for r in db.versions():         # every version of every key
            print(r.key, r.sequence, r.type, r.status, r.file, r.offset)
        pyarrow.table(db)               # key and value columns

iter(db) yields keys, as a mapping does (plyvel's yields pairs: use
db.iterator() for those). Keys and values are bytes. Errors: CorruptionError
for a damaged MANIFEST or table; UnsupportedError for another engine's
directory (RocksDB, Pebble) and, from get and iteration, for a comparator
this build does not know (the listing still works); OSError with errno for
file-system errors (a missing directory: FileNotFoundError);
bloomtable.Error for a directory that holds no LevelDB database;
InvalidArgumentError for misuse.

Threads: as Table. close() waits for calls in progress in other threads,
then frees the view; later calls and live iterators raise
InvalidArgumentError ("database is closed").
)doc");
  constexpr char kOpenDoc[] = R"doc(
Opens the database in directory `path` (the GIL is released meanwhile):
reads CURRENT, the MANIFEST and the live logs; tables are opened when first
needed. Database(path, ...) is the same.

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
mmap: read the table files through memory maps instead of pread (default
    False). A mapped file that is truncated while open kills the process
    with SIGBUS: only for a copy, or a directory no writer changes.
)doc";
  database
      .def(py::init(&PyDatabase::Open), py::arg("path"), py::kw_only(),
           py::arg("verify_checksums") = true, py::arg("fill_cache") = true,
           py::arg("block_cache_bytes") = py::none(),
           py::arg("max_open_files") = 1000, py::arg("read_leftovers") = false,
           py::arg("salvage") = false, py::arg("comparator") = py::none(),
           py::arg("comparator_name") = py::none(),
           py::arg("filters_dir") = py::none(),
           py::arg("filters_in_memory") = false, py::arg("mmap") = false,
           kOpenDoc)
      .def_static(
          "open", &PyDatabase::Open, py::arg("path"), py::kw_only(),
          py::arg("verify_checksums") = true, py::arg("fill_cache") = true,
          py::arg("block_cache_bytes") = py::none(),
          py::arg("max_open_files") = 1000, py::arg("read_leftovers") = false,
          py::arg("salvage") = false, py::arg("comparator") = py::none(),
          py::arg("comparator_name") = py::none(),
          py::arg("filters_dir") = py::none(),
          py::arg("filters_in_memory") = false, py::arg("mmap") = false,
          kOpenDoc)
      .def(
          "get_pinned",
          [](PyDatabase& self, const py::object& key,
             std::optional<uint64_t> sequence) {
            return self.GetPinned({}, key, sequence);
          },
          py::arg("key"), py::kw_only(), py::arg("sequence") = py::none(),
          "The newest value of `key` as a read-only memoryview, without a "
          "copy, or None if it has none or its newest version is a "
          "deletion. With `sequence`, as of that sequence number. A value "
          "in a table is a view of the data block holding it, which the "
          "view keeps alive, also after the database is closed; a value in "
          "the log is copied into the view. bytes(view) copies it.")
      .def("multi_get", &PyDatabase::MultiGet, py::arg("keys"),
           py::arg("default") = py::none(), py::kw_only(),
           py::arg("sequence") = py::none(),
           "The values of many keys at once, as a list in the order of "
           "`keys`, each what get() returns (`default` for a key without a "
           "value). With `sequence`, as of that sequence number. The keys "
           "waiting on one table are looked up there together: each data "
           "block needed is read once; the GIL is released meanwhile.")
      .def(
          "__getitem__",
          [](PyDatabase& self, const py::object& key) {
            return self.GetItem({}, key);
          },
          py::arg("key"),
          "The newest value of `key`; KeyError if absent or deleted.")
      .def(
          "__contains__",
          [](PyDatabase& self, const py::object& key) {
            return self.Contains({}, key);
          },
          py::arg("key"),
          "Whether `key` has a value (its newest version is not a "
          "deletion).")
      .def(
          "iterator",
          [plyvel_iterator](
              PyDatabase& self, bool reverse, const py::object& start,
              const py::object& stop, bool include_start, bool include_stop,
              const py::object& prefix, bool include_key, bool include_value,
              std::optional<bool> verify_checksums,
              std::optional<bool> fill_cache,
              std::optional<uint64_t> sequence) {
            return plyvel_iterator(self, {}, reverse, start, stop,
                                   include_start, include_stop, prefix,
                                   include_key, include_value, verify_checksums,
                                   fill_cache, sequence);
          },
          py::kw_only(), py::arg("reverse") = false,
          py::arg("start") = py::none(), py::arg("stop") = py::none(),
          py::arg("include_start") = true, py::arg("include_stop") = false,
          py::arg("prefix") = py::none(), py::arg("include_key") = true,
          py::arg("include_value") = true,
          py::arg("verify_checksums") = py::none(),
          py::arg("fill_cache") = py::none(), py::arg("sequence") = py::none(),
          kPlyvelIteratorDoc)
      .def("raw_iterator", &PyDatabase::NewRawIterator, py::kw_only(),
           py::arg("verify_checksums") = py::none(),
           py::arg("fill_cache") = py::none(), py::arg("sequence") = py::none(),
           kRawIteratorDoc)
      .def(
          "prefixed_db",
          [](py::object self, const py::object& prefix) {
            return PyPrefixedDatabase(
                self, std::string(BytesArg(prefix, "prefix").view()));
          },
          py::arg("prefix"),
          "A PrefixedDatabase: the keys beginning with `prefix`, with the "
          "prefix taken off (plyvel's prefixed_db, read-only).")
      .def(
          "__iter__",
          [](PyDatabase& self) {
            return self.Iterate(YieldSpec{true, false, 0}, py::none(),
                                py::none(), false, py::none(), std::nullopt);
          },
          "The keys in order, as keys() (a mapping's iteration; "
          "db.iterator() yields (key, value) pairs as plyvel's does).")
      .def(
          "__arrow_c_stream__",
          [](PyDatabase& self, const py::object&) {
            return self
                .PlyvelIterator({}, py::none(), py::none(), true, false,
                                py::none(), PlyvelIteratorArgs())
                ->ArrowStream();
          },
          py::arg("requested_schema") = py::none(),
          "Every key and its newest value as an Arrow stream (the Arrow "
          "PyCapsule interface): binary columns key and value, in key order, "
          "in batches of at most 65,536 rows and less than 2 GiB per column, "
          "filled with the GIL released. pyarrow.table(db), "
          "polars.DataFrame(db) and duckdb.sql('select ... from db') read it.")
      .def("versions", &PyDatabase::Versions, py::arg("start") = py::none(),
           py::arg("stop") = py::none(), py::kw_only(),
           py::arg("prefix") = py::none(), py::arg("sequence") = py::none(),
           "Every version of every key in the live tables and logs (and "
           "leftover files with read_leftovers=True), as a VersionIterator "
           "of VersionRecord, streamed: by key, newest first, if the "
           "comparator is known, else in file order (then gathered whole "
           "before the first record, and start and stop raise "
           "UnsupportedError). [start, stop) and `prefix` confine the keys. "
           "With `sequence`, statuses as of that sequence number and later "
           "versions left out. Read in batches with the GIL released; "
           "pyarrow.table(db.versions()) takes it as Arrow columns.")
      .def("partitions", &PyDatabase::Partitions, py::arg("n"),
           "At most `n` key ranges (start, stop) of about equal bytes that "
           "cover every key once, in order: (None, k1), (k1, k2), ..., (kn, "
           "None), each the bounds of one scan, e.g. "
           "db.iterator(start=start, stop=stop) (stop excluded; None: "
           "open). From the MANIFEST and the tables' index blocks: no data "
           "block is read. Fewer ranges for a small database.")
      .def("_cpp_scan_seconds", &PyDatabase::CppScanSeconds,
           "For benchmarks: (seconds, entries) of the C++ iterator's full "
           "scan, without the binding.")
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
  AddFastMethod(database, &kGetMethod);
  // items(), keys() and values(): one iteration, yielding different parts.
  struct YieldingMethod {
    const char* name;
    YieldSpec yield;
    const char* what;
  };
  for (const YieldingMethod& method :
       {YieldingMethod{"items", YieldSpec{true, true, 0},
                       "(key, value) pairs. "},
        YieldingMethod{"keys", YieldSpec{true, false, 0}, "Keys. "},
        YieldingMethod{"values", YieldSpec{false, true, 0}, "Values. "}}) {
    database.def(
        method.name,
        [yield = method.yield](PyDatabase& self, const py::object& start,
                               const py::object& stop, bool reverse,
                               const py::object& prefix,
                               std::optional<uint64_t> sequence) {
          return self.Iterate(yield, start, stop, reverse, prefix, sequence);
        },
        py::arg("start") = py::none(), py::arg("stop") = py::none(),
        py::kw_only(), py::arg("reverse") = false,
        py::arg("prefix") = py::none(), py::arg("sequence") = py::none(),
        (std::string(method.what) + kIterateDoc).c_str());
  }
}

}  // namespace python
}  // namespace bloomtable
