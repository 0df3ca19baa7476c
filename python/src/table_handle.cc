#include "python/src/table_handle.h"

#include <pybind11/pybind11.h>

#include <utility>

#include "python/src/errors.h"

namespace py = pybind11;

namespace bloomtable {
namespace python {

ClosableHandle::ClosableHandle(std::string path, std::string what)
    : path_(std::move(path)), closed_message_(what + " is closed") {}

bool ClosableHandle::Enter() {
  std::lock_guard<std::mutex> lock(mu_);
  if (closed()) return false;
  ++active_calls_;
  return true;
}

void ClosableHandle::Leave() {
  std::lock_guard<std::mutex> lock(mu_);
  if (--active_calls_ == 0) idle_.notify_all();
}

void ClosableHandle::Close() {
  std::set<RegisteredIterator*> iterators;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (closed()) return;
    closed_.store(true, std::memory_order_release);
  }
  {
    // Calls in progress may need the GIL to finish.
    py::gil_scoped_release release;
    std::unique_lock<std::mutex> lock(mu_);
    idle_.wait(lock, [this] { return active_calls_ == 0; });
    for (RegisteredIterator* iterator : iterators_) iterator->DropIterator();
    iterators_.clear();
    Free();
  }
}

void ClosableHandle::Register(RegisteredIterator* iterator) {
  std::lock_guard<std::mutex> lock(mu_);
  iterators_.insert(iterator);
}

void ClosableHandle::Unregister(RegisteredIterator* iterator) {
  std::lock_guard<std::mutex> lock(mu_);
  if (iterators_.erase(iterator) > 0) iterator->DropIterator();
}

CallGuard::CallGuard(ClosableHandle* handle) : handle_(handle) {
  if (!handle_->Enter()) ThrowInvalidArgument(handle_->closed_message());
}

}  // namespace python
}  // namespace bloomtable
