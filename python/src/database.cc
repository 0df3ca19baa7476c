#include "python/src/database.h"

#include <pybind11/stl.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "bloomtable/cache.h"
#include "bloomtable/file.h"
#include "python/src/bytes_arg.h"
#include "python/src/comparators.h"
#include "python/src/errors.h"
#include "python/src/iterator_args.h"
#include "python/src/key_batch.h"
#include "python/src/pinned_view.h"

namespace py = pybind11;

namespace bloomtable {
namespace python {
namespace {

// The block cache a database gets when Database.open is given none.
constexpr size_t kDefaultBlockCacheBytes = size_t{8} << 20;

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

}  // namespace

PyObject*& SalvageWarningClass() {
  static PyObject* type = nullptr;
  return type;
}

std::unique_ptr<PyDatabase> PyDatabase::Open(
    const py::object& path_arg, bool verify_checksums, bool fill_cache,
    std::optional<size_t> cache_bytes, int max_open_files, bool read_leftovers,
    bool salvage, const py::object& comparator_arg,
    const py::object& comparator_name, const py::object& filters_dir,
    bool filters_in_memory, bool mmap) {
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
  options.mmap_reads = mmap;
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

py::object PyDatabase::Get(std::string_view key_prefix, const py::object& key,
                           const py::object& default_value,
                           std::optional<uint64_t> sequence) {
  // The value pinned in its block, copied once, into the bytes.
  PinnedValue value;
  if (!Lookup(key_prefix, key, sequence, nullptr, &value)) {
    return default_value;
  }
  return ToBytes(value.view());
}

py::object PyDatabase::GetPinned(std::string_view key_prefix,
                                 const py::object& key,
                                 std::optional<uint64_t> sequence) {
  auto pinned = std::make_unique<PyPinnedValue>();
  if (!Lookup(key_prefix, key, sequence, nullptr, &pinned->value)) {
    return py::none();
  }
  return PinnedMemoryView(std::move(pinned));
}

py::list PyDatabase::MultiGet(const py::iterable& keys,
                              const py::object& default_value,
                              std::optional<uint64_t> sequence) {
  KeyBatch batch;
  for (py::handle key : keys) batch.Add(key, "key");
  CheckOrdered();
  DatabaseReadOptions read_options = read_options_;
  read_options.sequence = sequence;
  std::vector<absl::StatusOr<std::string>> results;
  {
    CallGuard guard(handle_.get());
    py::gil_scoped_release release;
    const std::vector<std::string_view> views = batch.Views();
    results = handle_->database().MultiGet(read_options, views);
  }
  py::list values(results.size());
  for (size_t i = 0; i < results.size(); ++i) {
    if (results[i].ok()) {
      values[i] = ToBytes(*results[i]);
    } else if (absl::IsNotFound(results[i].status()) &&
               FileErrorNumber(results[i].status()) == 0) {
      values[i] = default_value;
    } else {
      ThrowStatus(results[i].status(), handle_->path());
    }
  }
  return values;
}

py::bytes PyDatabase::GetItem(std::string_view key_prefix,
                              const py::object& key) {
  std::string value;
  if (!Lookup(key_prefix, key, std::nullopt, &value)) {
    PyErr_SetObject(PyExc_KeyError, key.ptr());
    throw py::error_already_set();
  }
  return ToBytes(value);
}

bool PyDatabase::Contains(std::string_view key_prefix, const py::object& key) {
  std::string value;
  return Lookup(key_prefix, key, std::nullopt, &value);
}

IteratorFactory PyDatabase::Factory(DatabaseReadOptions read_options) const {
  std::shared_ptr<DatabaseHandle> handle = handle_;
  return [handle, read_options = std::move(read_options)]() {
    return handle->database().NewIterator(read_options);
  };
}

std::unique_ptr<DatabaseIterator> PyDatabase::Iterate(
    YieldSpec yield, const py::object& start, const py::object& stop,
    bool reverse, const py::object& prefix, std::optional<uint64_t> sequence) {
  KeyRange range = HalfOpenRange(start, stop, prefix);
  CheckOrdered();
  DatabaseReadOptions read_options = read_options_;
  read_options.sequence = sequence;
  read_options.lower_bound = std::move(range.lower);
  read_options.upper_bound = std::move(range.upper);
  return std::make_unique<DatabaseIterator>(
      handle_, Factory(std::move(read_options)), yield, reverse);
}

std::unique_ptr<DatabaseIterator> PyDatabase::PlyvelIterator(
    std::string_view db_prefix, const py::object& start, const py::object& stop,
    bool include_start, bool include_stop, const py::object& prefix,
    const PlyvelIteratorArgs& args) {
  KeyRange range =
      PlyvelRange(db_prefix, start, stop, include_start, include_stop, prefix);
  CheckOrdered();
  DatabaseReadOptions read_options = read_options_;
  read_options.sequence = args.sequence;
  read_options.verify_checksums =
      args.verify_checksums.value_or(read_options_.verify_checksums);
  read_options.fill_cache = args.fill_cache.value_or(read_options_.fill_cache);
  read_options.lower_bound = std::move(range.lower);
  read_options.upper_bound = std::move(range.upper);
  YieldSpec yield{args.include_key, args.include_value, db_prefix.size()};
  return std::make_unique<DatabaseIterator>(
      handle_, Factory(std::move(read_options)), yield, args.reverse,
      std::string(db_prefix));
}

std::unique_ptr<RawIterator> PyDatabase::NewRawIterator(
    std::optional<bool> verify_checksums, std::optional<bool> fill_cache,
    std::optional<uint64_t> sequence) {
  CheckOrdered();
  DatabaseReadOptions read_options = read_options_;
  read_options.sequence = sequence;
  read_options.verify_checksums =
      verify_checksums.value_or(read_options_.verify_checksums);
  read_options.fill_cache = fill_cache.value_or(read_options_.fill_cache);
  return std::make_unique<RawIterator>(handle_,
                                       Factory(std::move(read_options)));
}

std::unique_ptr<VersionIterator> PyDatabase::Versions(
    const py::object& start, const py::object& stop, const py::object& prefix,
    std::optional<uint64_t> sequence) {
  KeyRange range = HalfOpenRange(start, stop, py::none());
  std::string key_prefix;
  if (!prefix.is_none()) key_prefix = BytesArg(prefix, "prefix").view();
  CheckOpen();
  DatabaseReadOptions read_options = read_options_;
  read_options.sequence = sequence;
  if (handle_->database().ordered()) {
    // The prefix bounds the listing; the check below then passes them all.
    if (!key_prefix.empty()) {
      range = HalfOpenRange(start, stop, prefix);
    }
  } else if (range.lower.has_value() || range.upper.has_value()) {
    CheckOrdered();  // start and stop need the key order: raises
  }
  read_options.lower_bound = std::move(range.lower);
  read_options.upper_bound = std::move(range.upper);
  return std::make_unique<VersionIterator>(handle_, std::move(read_options),
                                           std::move(key_prefix));
}

py::list PyDatabase::Partitions(size_t parts) {
  if (parts < 1) ThrowInvalidArgument("partitions: n must be at least 1");
  CheckOrdered();
  absl::StatusOr<std::vector<std::string>> cuts;
  {
    CallGuard guard(handle_.get());
    py::gil_scoped_release release;
    cuts = handle_->database().ApproximateSplitKeys(parts);
  }
  if (!cuts.ok()) ThrowStatus(cuts.status(), handle_->path());
  return RangesBetween(*cuts);
}

py::tuple PyDatabase::CppScanSeconds() {
  CheckOrdered();
  uint64_t entries = 0;
  uint64_t bytes = 0;
  double seconds = 0;
  absl::Status status;
  {
    CallGuard guard(handle_.get());
    py::gil_scoped_release release;
    const auto start = std::chrono::steady_clock::now();
    std::unique_ptr<Iterator> it =
        handle_->database().NewIterator(read_options_);
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      ++entries;
      bytes += it->key().size() + it->value().size();
    }
    status = it->status();
    seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count();
  }
  if (!status.ok()) ThrowStatus(status, handle_->path());
  // `bytes` keeps the loop from being optimised away.
  return py::make_tuple(seconds, entries + (bytes == UINT64_MAX ? 1 : 0));
}

py::list PyDatabase::Tables() {
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

py::list PyDatabase::Logs() {
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

py::dict PyDatabase::Stats() {
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

bool PyDatabase::ordered() const {
  CheckOpen();
  return handle_->database().ordered();
}
std::string PyDatabase::comparator_name() const {
  CheckOpen();
  return handle_->database().comparator_name();
}
uint64_t PyDatabase::last_sequence() const {
  CheckOpen();
  return handle_->database().last_sequence();
}
std::string PyDatabase::manifest() const {
  CheckOpen();
  return handle_->database().manifest();
}
std::vector<std::string> PyDatabase::warnings() const {
  CheckOpen();
  return handle_->database().warnings();
}

void PyDatabase::CheckOpen() const {
  if (handle_->closed()) ThrowInvalidArgument(handle_->closed_message());
}

void PyDatabase::CheckOrdered() const {
  CheckOpen();
  if (!handle_->database().ordered()) {
    ThrowStatus(absl::UnimplementedError(absl::StrCat(
        handle_->path(), ": the database's comparator \"",
        handle_->database().comparator_name(),
        "\" is not one this build knows: get and iteration need its key "
        "order; versions() lists the records in file order")));
  }
}

bool PyDatabase::Lookup(std::string_view key_prefix, const py::object& key,
                        std::optional<uint64_t> sequence, std::string* value,
                        PinnedValue* pinned) {
  BytesArg arg(key, "key");
  CheckOrdered();
  // The options as opened, copied only to add a sequence number.
  std::optional<DatabaseReadOptions> with_sequence;
  if (sequence.has_value()) {
    with_sequence = read_options_;
    with_sequence->sequence = sequence;
  }
  const DatabaseReadOptions& read_options =
      with_sequence.has_value() ? *with_sequence : read_options_;
  std::string prefixed;
  std::string_view lookup = arg.view();
  if (!key_prefix.empty()) {
    prefixed.assign(key_prefix);
    prefixed.append(arg.view());
    lookup = prefixed;
  }
  absl::Status status;
  if (pinned != nullptr) {
    status = handle_->database().Get(read_options, lookup, pinned);
  } else {
    absl::StatusOr<std::string> result =
        handle_->database().Get(read_options, lookup);
    if (result.ok()) *value = *std::move(result);
    status = result.status();
  }
  if (status.ok()) return true;
  if (absl::IsNotFound(status) && FileErrorNumber(status) == 0) {
    return false;
  }
  ThrowStatus(status, handle_->path());
}

}  // namespace python
}  // namespace bloomtable
