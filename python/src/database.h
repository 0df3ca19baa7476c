// bloomtable.Database, its iterators, and PrefixedDatabase: a read-only view
// of a LevelDB database directory (bloomtable::Database), from Python.
//
// A Database opens a directory without taking its LOCK or writing into it:
// get, ordered iteration over the newest version of each key (deletions
// hidden) as a mapping (items, keys, values) or as plyvel's iterators
// (iterator, raw_iterator), the listing of every version of every key with
// its status (versions), key ranges of about equal bytes for parallel scans
// (partitions), and an Arrow stream of its entries (__arrow_c_stream__).
// Threads and closing follow bloomtable.Table (table_handle.h): open,
// iteration batches and the listing release the GIL, a single get does not;
// close waits for calls in progress, then invalidates iterators.

#ifndef BLOOMTABLE_PYTHON_SRC_DATABASE_H_
#define BLOOMTABLE_PYTHON_SRC_DATABASE_H_

#include <pybind11/pybind11.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bloomtable/database.h"
#include "python/src/batch_iterator.h"
#include "python/src/raw_iterator.h"
#include "python/src/version_iterator.h"

namespace bloomtable {
namespace python {

// A distinct Python type for the database's iterators.
class DatabaseIterator final : public BatchIterator {
 public:
  using BatchIterator::BatchIterator;
};

// plyvel's iterator arguments beyond the range.
struct PlyvelIteratorArgs {
  bool reverse = false;
  bool include_key = true;
  bool include_value = true;
  std::optional<bool> verify_checksums;  // unset: as opened
  std::optional<bool> fill_cache;
  std::optional<uint64_t> sequence;
};

class PyDatabase {
 public:
  static std::unique_ptr<PyDatabase> Open(
      const pybind11::object& path_arg, bool verify_checksums, bool fill_cache,
      std::optional<size_t> cache_bytes, int max_open_files,
      bool read_leftovers, bool salvage, const pybind11::object& comparator_arg,
      const pybind11::object& comparator_name,
      const pybind11::object& filters_dir, bool filters_in_memory, bool mmap);

  // Lookups of `key_prefix` + key (a prefixed database's prefix, or empty).
  pybind11::object Get(std::string_view key_prefix, const pybind11::object& key,
                       const pybind11::object& default_value,
                       std::optional<uint64_t> sequence);
  // multi_get: the values of `keys` in their order (`default_value` for a
  // key without one), with the GIL released during the lookups.
  pybind11::list MultiGet(const pybind11::iterable& keys,
                          const pybind11::object& default_value,
                          std::optional<uint64_t> sequence);
  // get_pinned: the value as a read-only memoryview that owns it (pinned to
  // its block, or a copy for a value in the log), or None.
  pybind11::object GetPinned(std::string_view key_prefix,
                             const pybind11::object& key,
                             std::optional<uint64_t> sequence);
  pybind11::bytes GetItem(std::string_view key_prefix,
                          const pybind11::object& key);
  bool Contains(std::string_view key_prefix, const pybind11::object& key);

  // items(), keys(), values(), iter(db): [start, stop) and a prefix.
  std::unique_ptr<DatabaseIterator> Iterate(YieldSpec yield,
                                            const pybind11::object& start,
                                            const pybind11::object& stop,
                                            bool reverse,
                                            const pybind11::object& prefix,
                                            std::optional<uint64_t> sequence);
  // iterator(): plyvel's, over the keys beginning with `db_prefix` (whose
  // bytes the keys yielded lose).
  std::unique_ptr<DatabaseIterator> PlyvelIterator(
      std::string_view db_prefix, const pybind11::object& start,
      const pybind11::object& stop, bool include_start, bool include_stop,
      const pybind11::object& prefix, const PlyvelIteratorArgs& args);
  std::unique_ptr<RawIterator> NewRawIterator(
      std::optional<bool> verify_checksums, std::optional<bool> fill_cache,
      std::optional<uint64_t> sequence);
  std::unique_ptr<VersionIterator> Versions(const pybind11::object& start,
                                            const pybind11::object& stop,
                                            const pybind11::object& prefix,
                                            std::optional<uint64_t> sequence);
  pybind11::list Partitions(size_t parts);
  // Seconds the C++ iterator takes to walk every entry (their sizes read),
  // and the entries it met, from C++ with the GIL released: the C++ view's
  // full scan, for the benchmark (python/bench/bench_python.py).
  pybind11::tuple CppScanSeconds();

  pybind11::list Tables();
  pybind11::list Logs();
  // Counts of the open tables and of the sidecar filters (GetStats).
  pybind11::dict Stats();
  bool ordered() const;
  std::string comparator_name() const;
  uint64_t last_sequence() const;
  std::string manifest() const;
  std::vector<std::string> warnings() const;

  void Close() { handle_->Close(); }
  bool closed() const { return handle_->closed(); }
  const std::string& path() const { return handle_->path(); }

 private:
  PyDatabase(std::shared_ptr<DatabaseHandle> handle,
             DatabaseReadOptions read_options)
      : handle_(std::move(handle)), read_options_(std::move(read_options)) {}

  // Raises if closed. The GIL is held from here to the end of the call, so
  // no Close can free the database meanwhile (it waits for the GIL).
  void CheckOpen() const;
  // Get and iteration need the database's key order: a comparator this
  // build does not know makes them unsupported (versions() still works).
  void CheckOrdered() const;
  // Database::Get of `key_prefix` + key into `*value`, or with `pinned`
  // set, into `*pinned`: false if it has no value; raises on errors.
  bool Lookup(std::string_view key_prefix, const pybind11::object& key,
              std::optional<uint64_t> sequence, std::string* value,
              PinnedValue* pinned = nullptr);
  IteratorFactory Factory(DatabaseReadOptions read_options) const;

  const std::shared_ptr<DatabaseHandle> handle_;
  const DatabaseReadOptions read_options_;
};

// bloomtable.SalvageWarning, made by DefineDatabase.
PyObject*& SalvageWarningClass();

void DefineDatabase(pybind11::module_& module);

}  // namespace python
}  // namespace bloomtable

#endif  // BLOOMTABLE_PYTHON_SRC_DATABASE_H_
