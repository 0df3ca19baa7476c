#include "python/src/batch_iterator.h"

#include <algorithm>
#include <string_view>
#include <utility>

#include "python/src/bytes_arg.h"
#include "python/src/errors.h"

namespace py = pybind11;

namespace bloomtable {
namespace python {

BatchIterator::BatchIterator(std::shared_ptr<ClosableHandle> handle,
                             std::unique_ptr<Iterator> iterator, Yield yield,
                             bool reverse)
    : handle_(std::move(handle)),
      iterator_(std::move(iterator)),
      yield_(yield),
      reverse_(reverse) {
  handle_->Register(this);
}

BatchIterator::~BatchIterator() { handle_->Unregister(this); }

py::object BatchIterator::Next() {
  if (busy_.exchange(true)) {
    ThrowInvalidArgument("iterator is in use by another thread");
  }
  struct Idle {
    std::atomic<bool>* busy;
    ~Idle() { busy->store(false); }
  } idle{&busy_};
  // Entries already read are not handed out after close either.
  if (handle_->closed()) ThrowInvalidArgument(handle_->closed_message());
  if (next_entry_ == entries_.size()) Fill();
  const Entry& entry = entries_[next_entry_++];
  const char* key = buffer_.data() + entry.key_begin;
  const char* value = key + entry.key_size;
  switch (yield_) {
    case Yield::kKeys:
      return ToBytes(std::string_view(key, entry.key_size));
    case Yield::kValues:
      return ToBytes(std::string_view(value, entry.value_size));
    case Yield::kItems:
      break;
  }
  PyObject* pair = PyTuple_New(2);
  if (pair == nullptr) throw py::error_already_set();
  py::object owned = py::reinterpret_steal<py::object>(pair);
  PyObject* key_bytes = PyBytes_FromStringAndSize(key, entry.key_size);
  if (key_bytes == nullptr) throw py::error_already_set();
  PyTuple_SET_ITEM(pair, 0, key_bytes);
  PyObject* value_bytes = PyBytes_FromStringAndSize(value, entry.value_size);
  if (value_bytes == nullptr) throw py::error_already_set();
  PyTuple_SET_ITEM(pair, 1, value_bytes);
  return owned;
}

void BatchIterator::Fill() {
  entries_.clear();
  buffer_.clear();
  next_entry_ = 0;
  if (exhausted_) {
    if (!pending_.ok()) {
      absl::Status status = std::move(pending_);
      pending_ = absl::OkStatus();
      ThrowStatus(status, handle_->path());
    }
    throw py::stop_iteration();
  }
  {
    CallGuard guard(handle_.get());
    if (iterator_ == nullptr) ThrowInvalidArgument(handle_->closed_message());
    py::gil_scoped_release release;
    Iterator* it = iterator_.get();
    if (!started_) {
      if (reverse_) {
        it->SeekToLast();
      } else {
        it->SeekToFirst();
      }
      started_ = true;
    }
    while (it->Valid() && entries_.size() < batch_limit_ &&
           buffer_.size() < kMaxBatchBytes) {
      const std::string_view key = it->key();
      const std::string_view value = it->value();
      entries_.push_back(Entry{buffer_.size(),
                               static_cast<Py_ssize_t>(key.size()),
                               static_cast<Py_ssize_t>(value.size())});
      buffer_.append(key);
      buffer_.append(value);
      if (reverse_) {
        it->Prev();
      } else {
        it->Next();
      }
    }
    if (!it->Valid()) {
      exhausted_ = true;
      pending_ = it->status();
    }
  }
  batch_limit_ = std::min(batch_limit_ * 4, kMaxBatch);
  if (exhausted_) {
    // Frees the blocks the iterator holds now rather than at garbage
    // collection.
    handle_->Unregister(this);
  }
  if (entries_.empty()) Fill();  // ends or raises: exhausted_ is set
}

}  // namespace python
}  // namespace bloomtable
