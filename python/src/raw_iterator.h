// RawIterator: plyvel's RawIterator over a table or a database, the C++
// Iterator as it is (valid, seek_to_first, seek_to_last, seek,
// seek_for_prev, next, prev, key, value, item). Moves release the GIL; a
// move that meets damage raises its error; key(), value(), next() and
// prev() on an iterator that is not valid raise InvalidArgumentError.
//
// Thread-safety: one thread at a time (another thread's call meanwhile
// raises InvalidArgumentError); the handle may be closed from any thread,
// after which every call raises.

#ifndef BLOOMTABLE_PYTHON_SRC_RAW_ITERATOR_H_
#define BLOOMTABLE_PYTHON_SRC_RAW_ITERATOR_H_

#include <pybind11/pybind11.h>

#include <atomic>
#include <memory>

#include "bloomtable/iterator.h"
#include "python/src/batch_iterator.h"
#include "python/src/table_handle.h"

namespace bloomtable {
namespace python {

class RawIterator : public RegisteredIterator {
 public:
  RawIterator(std::shared_ptr<ClosableHandle> handle, IteratorFactory make);
  ~RawIterator() override;

  void DropIterator() override { iterator_.reset(); }

  bool Valid();
  void SeekToFirst();
  void SeekToLast();
  void Seek(const pybind11::object& target);
  void SeekForPrev(const pybind11::object& target);
  void Next();
  void Prev();
  pybind11::bytes Key();
  pybind11::bytes Value();
  pybind11::tuple Item();
  void Close();

 private:
  enum class Move { kFirst, kLast, kSeek, kSeekForPrev, kNext, kPrev };
  // Runs `move` with the GIL released, then raises the iterator's error if
  // it met one.
  void Run(Move move, std::string_view target = {});
  // The iterator, made on first use. REQUIRES: the GIL held.
  Iterator* Get();

  const std::shared_ptr<ClosableHandle> handle_;
  const IteratorFactory make_;
  std::atomic<bool> busy_{false};
  bool closed_ = false;
  std::unique_ptr<Iterator> iterator_;  // reset by the handle's Close
};

void DefineRawIterator(pybind11::module_& module);

}  // namespace python
}  // namespace bloomtable

#endif  // BLOOMTABLE_PYTHON_SRC_RAW_ITERATOR_H_
