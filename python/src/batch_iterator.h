// BatchIterator: the Python iterator over a table's or a database's entries
// (items(), keys(), values(), iterator()), with plyvel's Iterator
// semantics: it stands between two entries; next() (__next__) yields the
// entry after it and moves past it, prev() the entry before it and moves
// back (so next() then prev() yield the same entry); seek_to_start(),
// seek_to_stop() and seek(target) move it without yielding. A reverse
// iterator swaps next() and prev().
//
// Entries are read ahead in batches with the GIL released, in the direction
// of the last move; a change of direction or a seek repositions the C++
// iterator from where the Python iterator stands. Once a walk ends, the C++
// iterator (and the block it holds) is let go, and made again if the
// iterator moves back. __arrow_c_stream__ hands the entries from where it
// stands to the end (in its direction) to Arrow, without moving it: each
// call streams anew (DuckDB asks twice).
//
// Thread-safety: one thread at a time (another thread's call meanwhile
// raises InvalidArgumentError); the handle it belongs to may be closed from
// any thread (table_handle.h), after which every call raises.

#ifndef BLOOMTABLE_PYTHON_SRC_BATCH_ITERATOR_H_
#define BLOOMTABLE_PYTHON_SRC_BATCH_ITERATOR_H_

#include <pybind11/pybind11.h>

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "bloomtable/iterator.h"
#include "python/src/fast_call.h"
#include "python/src/table_handle.h"

namespace bloomtable {
namespace python {

// Makes the C++ iterator, bounds included; called with a CallGuard held
// (or a call entered), without the GIL.
using IteratorFactory = std::function<std::unique_ptr<Iterator>()>;

// Where an iterator stands: before every entry, after every entry, just
// after `key` (next() yields the first entry > key) or just before it (the
// first entry >= key).
struct Cursor {
  enum class Kind { kStart, kEnd, kAfter, kBefore };
  Kind kind = Kind::kStart;
  std::string key;
};

// Positions `it` at the first entry a walk from `cursor` meets, forward or
// backward. False if there is none to meet (from the end going forward, from
// the start going back) without touching `it`.
bool PositionAt(Iterator* it, const Cursor& cursor, bool forward);

// Marks an iterator busy for one call: a second thread's call meanwhile
// raises InvalidArgumentError.
class BusyGuard {
 public:
  explicit BusyGuard(std::atomic<bool>* busy);
  ~BusyGuard() { busy_->store(false); }
  BusyGuard(const BusyGuard&) = delete;
  BusyGuard& operator=(const BusyGuard&) = delete;

 private:
  std::atomic<bool>* const busy_;
};

// What an iterator yields per entry (plyvel's include_key, include_value:
// both yields a (key, value) tuple, neither yields None), and the prefix a
// prefixed database's iterator strips from each key.
struct YieldSpec {
  bool include_key = true;
  bool include_value = true;
  size_t key_prefix_length = 0;
};

class BatchIterator : public RegisteredIterator {
 public:
  // Registers with `handle`, whose Close may drop the C++ iterator.
  // `key_prefix` is added before seek targets (a prefixed database's).
  BatchIterator(std::shared_ptr<ClosableHandle> handle, IteratorFactory make,
                YieldSpec yield, bool reverse, std::string key_prefix = {});
  ~BatchIterator() override;

  void DropIterator() override;

  // __next__: the next entry in the iterator's direction. Raises
  // StopIteration at the end, the iterator's error once the entries before
  // it were handed out, InvalidArgumentError after close or from a second
  // thread.
  pybind11::object Next();
  // The entry before the cursor (after it, for a reverse iterator).
  pybind11::object Prev();
  void SeekToStart();
  void SeekToStop();
  void Seek(const pybind11::object& target);
  // plyvel's close(): lets the C++ iterator go; later calls raise.
  void Close();
  // The rest of the walk as an Arrow stream (key and value columns, as
  // included). The iterator does not move.
  pybind11::capsule ArrowStream();

 private:
  struct Entry {
    size_t key_begin;
    Py_ssize_t key_size;
    Py_ssize_t value_size;
  };

  // The first batch after a move is small, so that taking a few entries
  // stays cheap; later ones grow to amortise releasing the GIL.
  static constexpr size_t kFirstBatch = 16;
  static constexpr size_t kMaxBatch = 1024;
  static constexpr size_t kMaxBatchBytes = 1 << 20;

  // A walk in key order (forward) or against it.
  pybind11::object Step(bool forward);
  // Reads the next batch going `forward`; throws StopIteration at the end,
  // or the iterator's error once the entries before it were handed out.
  void Fill(bool forward);
  // Where the iterator stands: after (going forward; before, going back)
  // the entry handed out last, or cursor_ if none was since it was set.
  Cursor StandsAt() const;
  // Forgets the read-ahead: the cursor becomes StandsAt().
  void Discard();
  void CheckUsable() const;
  pybind11::object Yield(const Entry& entry) const;

  const std::shared_ptr<ClosableHandle> handle_;
  const IteratorFactory make_;
  const YieldSpec yield_;
  const bool reverse_;
  const std::string key_prefix_;
  std::atomic<bool> busy_{false};
  bool closed_ = false;                 // by Close()
  std::unique_ptr<Iterator> iterator_;  // reset by the handle's Close
  bool registered_ = false;
  // iterator_ stands right after the read-ahead (or where the cursor says
  // the next batch starts); false: it must be positioned from the cursor.
  bool positioned_ = false;
  Cursor cursor_;
  // The read-ahead: entries going `buffer_forward_` from the cursor, the
  // first `next_entry_` of them handed out.
  bool buffer_forward_ = true;
  bool exhausted_ = false;  // the walk ends after the read-ahead
  absl::Status pending_;
  size_t batch_limit_ = kFirstBatch;
  std::string buffer_;
  std::vector<Entry> entries_;
  size_t next_entry_ = 0;
};

// The tp_iternext slot of the iterator types: Next() for a `for` loop or
// next(), called directly rather than through __next__'s dispatch
// (fast_call.h). The end of the walk sets StopIteration.
template <typename T>
PyObject* IteratorNextSlot(PyObject* self) {
  return CatchingErrors(
      [self]() { return FastSelf<T>(self).Next().release().ptr(); });
}

// Adds the Python type `name` for the iterator class T (a BatchIterator):
// the iteration protocol, plyvel's moves, close and the Arrow stream.
template <typename T>
void DefineIteratorType(pybind11::module_& module, const char* name,
                        const char* doc) {
  namespace py = pybind11;
  py::class_<T, std::unique_ptr<T>> type(module, name, doc);
  type.def("__iter__", [](py::object self) { return self; })
      .def("__next__", &T::Next)
      .def("prev", &T::Prev,
           "Moves one entry back and returns it: the entry the last next() "
           "returned, if any (for a reverse iterator, one entry forward). "
           "StopIteration at the start.")
      .def("seek_to_start", &T::SeekToStart,
           "Moves before the first entry of the range (in key order): next() "
           "then returns the first entry (a reverse iterator: StopIteration).")
      .def("seek_to_stop", &T::SeekToStop,
           "Moves past the last entry of the range (in key order): prev() "
           "then returns the last entry (a reverse iterator: next() does).")
      .def("seek", &T::Seek, py::arg("target"),
           "Moves just before the first entry whose key is at or after "
           "`target`, within the range: next() returns it (prev() the entry "
           "before it).")
      .def("close", &T::Close,
           "Lets the iterator's resources go; later calls raise "
           "InvalidArgumentError. Leaving a `with` block closes it too.")
      .def("__enter__", [](py::object self) { return self; })
      .def(
          "__exit__",
          [](T& self, const py::object&, const py::object&, const py::object&) {
            self.Close();
            return false;
          })
      .def(
          "__arrow_c_stream__",
          [](T& self, const py::object&) { return self.ArrowStream(); },
          py::arg("requested_schema") = py::none(),
          "The entries from where the iterator stands to its end (in its "
          "direction) as an Arrow stream (the Arrow PyCapsule interface): "
          "binary columns key and value (as included), in batches of at "
          "most 65,536 rows and less than 2 GiB per column, filled with the "
          "GIL released. The iterator does not move, and each call streams "
          "anew (DuckDB asks twice).");
  // After __next__'s definition, which set the slot to look it up.
  reinterpret_cast<PyTypeObject*>(type.ptr())->tp_iternext =
      &IteratorNextSlot<T>;
}

}  // namespace python
}  // namespace bloomtable

#endif  // BLOOMTABLE_PYTHON_SRC_BATCH_ITERATOR_H_
