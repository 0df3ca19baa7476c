#include "python/src/raw_iterator.h"

#include <string>
#include <utility>

#include "python/src/bytes_arg.h"
#include "python/src/errors.h"

namespace py = pybind11;

namespace bloomtable {
namespace python {
RawIterator::RawIterator(std::shared_ptr<ClosableHandle> handle,
                         IteratorFactory make)
    : handle_(std::move(handle)), make_(std::move(make)) {
  handle_->Register(this);
}

RawIterator::~RawIterator() { handle_->Unregister(this); }

Iterator* RawIterator::Get() {
  if (closed_) ThrowInvalidArgument("iterator is closed");
  // The GIL is held: no Close of the handle completes meanwhile.
  if (handle_->closed()) ThrowInvalidArgument(handle_->closed_message());
  if (iterator_ == nullptr) {
    CallGuard guard(handle_.get());
    py::gil_scoped_release release;
    iterator_ = make_();
  }
  return iterator_.get();
}

void RawIterator::Run(Move move, std::string_view target) {
  BusyGuard busy(&busy_);
  Iterator* it = Get();
  if ((move == Move::kNext || move == Move::kPrev) && !it->Valid()) {
    ThrowInvalidArgument("iterator is not valid");
  }
  {
    CallGuard guard(handle_.get());
    py::gil_scoped_release release;
    switch (move) {
      case Move::kFirst:
        it->SeekToFirst();
        break;
      case Move::kLast:
        it->SeekToLast();
        break;
      case Move::kSeek:
        it->Seek(target);
        break;
      case Move::kSeekForPrev:
        it->SeekForPrev(target);
        break;
      case Move::kNext:
        it->Next();
        break;
      case Move::kPrev:
        it->Prev();
        break;
    }
  }
  if (!it->Valid() && !it->status().ok()) {
    ThrowStatus(it->status(), handle_->path());
  }
}

bool RawIterator::Valid() {
  BusyGuard busy(&busy_);
  return Get()->Valid();
}
void RawIterator::SeekToFirst() { Run(Move::kFirst); }
void RawIterator::SeekToLast() { Run(Move::kLast); }
void RawIterator::Seek(const py::object& target) {
  BytesArg arg(target, "target");
  const std::string key(arg.view());
  Run(Move::kSeek, key);
}
void RawIterator::SeekForPrev(const py::object& target) {
  BytesArg arg(target, "target");
  const std::string key(arg.view());
  Run(Move::kSeekForPrev, key);
}
void RawIterator::Next() { Run(Move::kNext); }
void RawIterator::Prev() { Run(Move::kPrev); }

py::bytes RawIterator::Key() {
  BusyGuard busy(&busy_);
  Iterator* it = Get();
  if (!it->Valid()) ThrowInvalidArgument("iterator is not valid");
  return ToBytes(it->key());
}

py::bytes RawIterator::Value() {
  BusyGuard busy(&busy_);
  Iterator* it = Get();
  if (!it->Valid()) ThrowInvalidArgument("iterator is not valid");
  return ToBytes(it->value());
}

py::tuple RawIterator::Item() {
  BusyGuard busy(&busy_);
  Iterator* it = Get();
  if (!it->Valid()) ThrowInvalidArgument("iterator is not valid");
  return py::make_tuple(ToBytes(it->key()), ToBytes(it->value()));
}

void RawIterator::Close() {
  BusyGuard busy(&busy_);
  closed_ = true;
  handle_->Unregister(this);
}

void DefineRawIterator(py::module_& module) {
  py::class_<RawIterator, std::unique_ptr<RawIterator>>(module, "RawIterator",
                                                        R"doc(
plyvel's RawIterator over a table or a database (Table.raw_iterator,
Database.raw_iterator): the C++ iterator's moves one by one. Moves release
the GIL; key(), value(), item(), next() and prev() on an iterator that is not
valid() raise InvalidArgumentError; a move that meets damage raises its error.
One thread at a time.
)doc")
      .def("valid", &RawIterator::Valid, "Whether it is at an entry.")
      .def("seek_to_first", &RawIterator::SeekToFirst,
           "Moves to the first entry (if any).")
      .def("seek_to_last", &RawIterator::SeekToLast,
           "Moves to the last entry (if any).")
      .def("seek", &RawIterator::Seek, py::arg("target"),
           "Moves to the first entry whose key is at or after `target`.")
      .def("seek_for_prev", &RawIterator::SeekForPrev, py::arg("target"),
           "Moves to the last entry whose key is at or before `target`.")
      .def("next", &RawIterator::Next, "Moves one entry forward.")
      .def("prev", &RawIterator::Prev, "Moves one entry back.")
      .def("key", &RawIterator::Key, "The current key (bytes).")
      .def("value", &RawIterator::Value, "The current value (bytes).")
      .def("item", &RawIterator::Item, "The current (key, value).")
      .def("close", &RawIterator::Close,
           "Lets the iterator go; later calls raise InvalidArgumentError.")
      .def("__enter__", [](py::object self) { return self; })
      .def("__exit__", [](RawIterator& self, const py::object&,
                          const py::object&, const py::object&) {
        self.Close();
        return false;
      });
}

}  // namespace python
}  // namespace bloomtable
