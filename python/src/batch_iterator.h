// BatchIterator: the Python iterator over a bloomtable::Iterator of a table
// or a database, reading entries in batches with the GIL released and
// handing them out one by one as bytes or (key, value) tuples.
//
// Thread-safety: one thread at a time (another thread's __next__ meanwhile
// raises InvalidArgumentError); the handle it belongs to may be closed from
// any thread (table_handle.h), after which __next__ raises.

#ifndef BLOOMTABLE_PYTHON_SRC_BATCH_ITERATOR_H_
#define BLOOMTABLE_PYTHON_SRC_BATCH_ITERATOR_H_

#include <pybind11/pybind11.h>

#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "bloomtable/iterator.h"
#include "python/src/table_handle.h"

namespace bloomtable {
namespace python {

// What an iterator yields per entry.
enum class Yield { kItems, kKeys, kValues };

// The Python iterator over a table or a database: entries are read in batches
// with the GIL released, then handed out one by one. One thread at a time
// (another thread's __next__ meanwhile raises InvalidArgumentError).
class BatchIterator : public RegisteredIterator {
 public:
  // Registers with `handle`, whose Close may drop `iterator`.
  BatchIterator(std::shared_ptr<ClosableHandle> handle,
                std::unique_ptr<Iterator> iterator, Yield yield, bool reverse);
  ~BatchIterator() override;

  void DropIterator() override { iterator_.reset(); }

  // The next entry: bytes or a (key, value) tuple. Raises StopIteration at
  // the end, the iterator's error once the entries before it were handed
  // out, InvalidArgumentError after close or from a second thread.
  pybind11::object Next();

 private:
  struct Entry {
    size_t key_begin;
    Py_ssize_t key_size;
    Py_ssize_t value_size;
  };

  // The first batch is small, so that taking a few entries stays cheap;
  // later ones grow to amortise releasing the GIL.
  static constexpr size_t kFirstBatch = 16;
  static constexpr size_t kMaxBatch = 1024;
  static constexpr size_t kMaxBatchBytes = 1 << 20;

  // Reads the next batch into entries_; throws StopIteration at the end, or
  // the iterator's error once the entries before it were handed out.
  void Fill();

  const std::shared_ptr<ClosableHandle> handle_;
  std::unique_ptr<Iterator> iterator_;  // reset by the handle's Close
  const Yield yield_;
  const bool reverse_;
  std::atomic<bool> busy_{false};
  bool started_ = false;
  bool exhausted_ = false;
  absl::Status pending_;
  size_t batch_limit_ = kFirstBatch;
  std::string buffer_;
  std::vector<Entry> entries_;
  size_t next_entry_ = 0;
};

}  // namespace python
}  // namespace bloomtable

#endif  // BLOOMTABLE_PYTHON_SRC_BATCH_ITERATOR_H_
