// bloomtable.VersionIterator and VersionRecord: Database.versions(), every
// version of every key, streamed from Database::NewVersionStream in batches
// read with the GIL released, so that listing a database of any size holds
// one batch (and what the stream itself holds: a block per table it reads).
// __arrow_c_stream__ hands the rest of the listing to Arrow (key, sequence,
// type, value, status, file and offset columns) without moving the iterator.
//
// Thread-safety: as BatchIterator (batch_iterator.h).

#ifndef BLOOMTABLE_PYTHON_SRC_VERSION_ITERATOR_H_
#define BLOOMTABLE_PYTHON_SRC_VERSION_ITERATOR_H_

#include <pybind11/pybind11.h>

#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "bloomtable/database.h"
#include "python/src/table_handle.h"

namespace bloomtable {
namespace python {

// The database a Python Database holds, with its closing machinery.
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

class VersionIterator : public RegisteredIterator {
 public:
  // Lists the versions `options` select whose keys begin with
  // `key_prefix` (a check of its own: for a database without a known
  // comparator, where the listing cannot be bounded).
  VersionIterator(std::shared_ptr<DatabaseHandle> handle,
                  DatabaseReadOptions options, std::string key_prefix);
  ~VersionIterator() override;

  void DropIterator() override { stream_.reset(); }

  // The next VersionRecord. Raises StopIteration at the end, the listing's
  // error once the records before it were handed out.
  pybind11::object Next();
  // The rest of the listing as an Arrow stream, read anew (the records
  // handed out skipped); the iterator does not move.
  pybind11::capsule ArrowStream();

 private:
  static constexpr size_t kMaxBatch = 1024;
  static constexpr size_t kMaxBatchBytes = 1 << 20;

  void Fill();

  const std::shared_ptr<DatabaseHandle> handle_;
  const DatabaseReadOptions options_;
  const std::string key_prefix_;
  std::atomic<bool> busy_{false};
  std::unique_ptr<VersionStream> stream_;  // reset by the handle's Close
  bool started_ = false;
  bool exhausted_ = false;
  absl::Status pending_;
  // The read-ahead: records_[next_, count_) are yet to be handed out (the
  // vector's strings are reused from batch to batch).
  std::vector<VersionRecord> records_;
  size_t count_ = 0;
  size_t next_ = 0;
  uint64_t handed_out_ = 0;
};

void DefineVersions(pybind11::module_& module);

}  // namespace python
}  // namespace bloomtable

#endif  // BLOOMTABLE_PYTHON_SRC_VERSION_ITERATOR_H_
