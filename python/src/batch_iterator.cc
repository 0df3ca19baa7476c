#include "python/src/batch_iterator.h"

#include <algorithm>
#include <mutex>
#include <string_view>
#include <utility>

#include "python/src/arrow_stream.h"
#include "python/src/bytes_arg.h"
#include "python/src/errors.h"

namespace py = pybind11;

namespace bloomtable {
namespace python {
namespace {

void Move(Iterator* it, bool forward) {
  if (forward) {
    it->Next();
  } else {
    it->Prev();
  }
}

// The walk from a cursor to the end, as Arrow batches of key and value
// columns. Holds a call on the handle while it fills a batch, and lets the
// handle's Close drop its iterator.
class IteratorArrowSource final : public ArrowBatchSource,
                                  public RegisteredIterator {
 public:
  IteratorArrowSource(std::shared_ptr<ClosableHandle> handle,
                      IteratorFactory make, Cursor cursor, bool forward,
                      YieldSpec yield)
      : handle_(std::move(handle)),
        make_(std::move(make)),
        cursor_(std::move(cursor)),
        forward_(forward),
        yield_(yield) {
    if (yield_.include_key) fields_.push_back({"key", ArrowType::kBinary});
    if (yield_.include_value) {
      fields_.push_back({"value", ArrowType::kBinary});
    }
    handle_->Register(this);
  }
  ~IteratorArrowSource() override { handle_->Unregister(this); }

  void DropIterator() override {
    iterator_.reset();
    dropped_ = true;
  }

  const std::vector<ArrowField>& fields() const override { return fields_; }

  absl::Status Fill(ArrowBatch* batch, bool* done) override {
    SourceCall call(handle_.get(), dropped_);
    if (!call.status().ok()) return call.status();
    if (iterator_ == nullptr) {
      iterator_ = make_();
      if (!PositionAt(iterator_.get(), cursor_, forward_)) {
        *done = true;
        return absl::OkStatus();
      }
    }
    Iterator* it = iterator_.get();
    const size_t strip = yield_.key_prefix_length;
    while (it->Valid() && !batch->Full()) {
      const std::string_view key = it->key().substr(strip);
      const std::string_view value = it->value();
      size_t column = 0;
      const bool fits =
          (!yield_.include_key || batch->Fits(column++, key.size())) &&
          (!yield_.include_value || batch->Fits(column, value.size()));
      if (!fits) {
        if (batch->rows() > 0) return absl::OkStatus();  // the next batch
        return absl::ResourceExhaustedError(
            "an entry of 2 GiB or more does not fit an Arrow binary column");
      }
      column = 0;
      if (yield_.include_key) batch->AppendBytes(column++, key);
      if (yield_.include_value) batch->AppendBytes(column, value);
      batch->EndRow();
      Move(it, forward_);
    }
    if (!it->Valid()) {
      *done = true;
      absl::Status status = it->status();
      iterator_.reset();
      return status;
    }
    return absl::OkStatus();
  }

 private:
  const std::shared_ptr<ClosableHandle> handle_;
  const IteratorFactory make_;
  const Cursor cursor_;
  const bool forward_;
  const YieldSpec yield_;
  std::vector<ArrowField> fields_;
  std::unique_ptr<Iterator> iterator_;
  bool dropped_ = false;  // by the handle's Close
};

}  // namespace

BusyGuard::BusyGuard(std::atomic<bool>* busy) : busy_(busy) {
  if (busy_->exchange(true)) {
    ThrowInvalidArgument("iterator is in use by another thread");
  }
}

bool PositionAt(Iterator* it, const Cursor& cursor, bool forward) {
  switch (cursor.kind) {
    case Cursor::Kind::kStart:
      if (!forward) return false;
      it->SeekToFirst();
      return true;
    case Cursor::Kind::kEnd:
      if (forward) return false;
      it->SeekToLast();
      return true;
    case Cursor::Kind::kAfter:
      if (forward) {
        it->Seek(cursor.key);
        if (it->Valid() && it->key() == cursor.key) it->Next();
      } else {
        it->SeekForPrev(cursor.key);
      }
      return true;
    case Cursor::Kind::kBefore:
      if (forward) {
        it->Seek(cursor.key);
      } else {
        it->SeekForPrev(cursor.key);
        if (it->Valid() && it->key() == cursor.key) it->Prev();
      }
      return true;
  }
  return false;
}

BatchIterator::BatchIterator(std::shared_ptr<ClosableHandle> handle,
                             IteratorFactory make, YieldSpec yield,
                             bool reverse, std::string key_prefix)
    : handle_(std::move(handle)),
      make_(std::move(make)),
      yield_(yield),
      reverse_(reverse),
      key_prefix_(std::move(key_prefix)) {
  if (reverse_) cursor_.kind = Cursor::Kind::kEnd;
}

BatchIterator::~BatchIterator() { handle_->Unregister(this); }

void BatchIterator::DropIterator() { iterator_.reset(); }

void BatchIterator::CheckUsable() const {
  if (closed_) ThrowInvalidArgument("iterator is closed");
  // Entries already read are not handed out after close either.
  if (handle_->closed()) ThrowInvalidArgument(handle_->closed_message());
}

py::object BatchIterator::Next() {
  BusyGuard busy(&busy_);
  CheckUsable();
  return Step(!reverse_);
}

py::object BatchIterator::Prev() {
  BusyGuard busy(&busy_);
  CheckUsable();
  return Step(reverse_);
}

py::object BatchIterator::Step(bool forward) {
  for (;;) {
    if (buffer_forward_ != forward) {
      Discard();
      buffer_forward_ = forward;
      continue;
    }
    if (next_entry_ < entries_.size()) return Yield(entries_[next_entry_++]);
    if (!exhausted_) {
      Fill(forward);
      continue;
    }
    // The walk ends: the cursor is past every entry in this direction, and
    // the C++ iterator (and its block) goes until a move needs it again.
    cursor_ = Cursor{forward ? Cursor::Kind::kEnd : Cursor::Kind::kStart, {}};
    entries_.clear();
    buffer_.clear();
    next_entry_ = 0;
    exhausted_ = false;
    positioned_ = false;
    handle_->Unregister(this);
    registered_ = false;
    if (!pending_.ok()) {
      absl::Status status = std::move(pending_);
      pending_ = absl::OkStatus();
      ThrowStatus(status, handle_->path());
    }
    throw py::stop_iteration();
  }
}

Cursor BatchIterator::StandsAt() const {
  if (next_entry_ == 0) return cursor_;
  const Entry& last = entries_[next_entry_ - 1];
  return Cursor{
      buffer_forward_ ? Cursor::Kind::kAfter : Cursor::Kind::kBefore,
      buffer_.substr(last.key_begin, static_cast<size_t>(last.key_size))};
}

void BatchIterator::Discard() {
  cursor_ = StandsAt();
  entries_.clear();
  buffer_.clear();
  next_entry_ = 0;
  exhausted_ = false;
  pending_ = absl::OkStatus();
  positioned_ = false;
  batch_limit_ = kFirstBatch;
}

void BatchIterator::Fill(bool forward) {
  // The next batch continues the walk (buffer_forward_ is `forward`): the
  // cursor follows it.
  cursor_ = StandsAt();
  entries_.clear();
  buffer_.clear();
  next_entry_ = 0;
  {
    CallGuard guard(handle_.get());
    if (iterator_ == nullptr) {
      if (!registered_) {
        handle_->Register(this);
        registered_ = true;
      }
      py::gil_scoped_release release;
      iterator_ = make_();
      positioned_ = false;
    }
    py::gil_scoped_release release;
    Iterator* it = iterator_.get();
    bool any = true;
    if (!positioned_) {
      any = PositionAt(it, cursor_, forward);
      positioned_ = true;
    }
    while (any && it->Valid() && entries_.size() < batch_limit_ &&
           buffer_.size() < kMaxBatchBytes) {
      const std::string_view key = it->key();
      const std::string_view value = it->value();
      entries_.push_back(Entry{buffer_.size(),
                               static_cast<Py_ssize_t>(key.size()),
                               static_cast<Py_ssize_t>(value.size())});
      buffer_.append(key);
      buffer_.append(value);
      Move(it, forward);
    }
    if (!any || !it->Valid()) {
      exhausted_ = true;
      pending_ = any ? it->status() : absl::OkStatus();
    }
  }
  batch_limit_ = std::min(batch_limit_ * 4, kMaxBatch);
}

py::object BatchIterator::Yield(const Entry& entry) const {
  const char* key = buffer_.data() + entry.key_begin;
  const char* value = key + entry.key_size;
  const Py_ssize_t strip = static_cast<Py_ssize_t>(yield_.key_prefix_length);
  const std::string_view key_view(key + strip,
                                  static_cast<size_t>(entry.key_size - strip));
  const std::string_view value_view(value,
                                    static_cast<size_t>(entry.value_size));
  if (!yield_.include_value) {
    return yield_.include_key ? py::object(ToBytes(key_view)) : py::none();
  }
  if (!yield_.include_key) return ToBytes(value_view);
  PyObject* pair = PyTuple_New(2);
  if (pair == nullptr) throw py::error_already_set();
  py::object owned = py::reinterpret_steal<py::object>(pair);
  PyObject* key_bytes =
      PyBytes_FromStringAndSize(key_view.data(), key_view.size());
  if (key_bytes == nullptr) throw py::error_already_set();
  PyTuple_SET_ITEM(pair, 0, key_bytes);
  PyObject* value_bytes =
      PyBytes_FromStringAndSize(value_view.data(), value_view.size());
  if (value_bytes == nullptr) throw py::error_already_set();
  PyTuple_SET_ITEM(pair, 1, value_bytes);
  return owned;
}

void BatchIterator::SeekToStart() {
  BusyGuard busy(&busy_);
  CheckUsable();
  Discard();
  cursor_ = Cursor{Cursor::Kind::kStart, {}};
}

void BatchIterator::SeekToStop() {
  BusyGuard busy(&busy_);
  CheckUsable();
  Discard();
  cursor_ = Cursor{Cursor::Kind::kEnd, {}};
}

void BatchIterator::Seek(const py::object& target) {
  BytesArg arg(target, "target");
  BusyGuard busy(&busy_);
  CheckUsable();
  Discard();
  std::string key = key_prefix_;
  key.append(arg.view());
  cursor_ = Cursor{Cursor::Kind::kBefore, std::move(key)};
}

void BatchIterator::Close() {
  BusyGuard busy(&busy_);
  closed_ = true;
  handle_->Unregister(this);
  registered_ = false;
  entries_.clear();
  buffer_.clear();
  next_entry_ = 0;
}

py::capsule BatchIterator::ArrowStream() {
  BusyGuard busy(&busy_);
  CheckUsable();
  return ExportArrowStream(std::make_unique<IteratorArrowSource>(
      handle_, make_, StandsAt(), !reverse_, yield_));
}

}  // namespace python
}  // namespace bloomtable
