#include "python/src/call_gate.h"

namespace bloomtable {
namespace python {

CallGate::CallGate(const std::string& what)
    : closed_message_(what + " is closed") {}

bool CallGate::Enter() {
  std::lock_guard<std::mutex> lock(mu_);
  if (closed()) return false;
  ++active_calls_;
  return true;
}

void CallGate::Leave() {
  std::lock_guard<std::mutex> lock(mu_);
  if (--active_calls_ == 0) idle_.notify_all();
}

void CallGate::Close() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (closed()) return;
    closed_.store(true, std::memory_order_release);
  }
  WithoutInterpreter([this] {
    std::unique_lock<std::mutex> lock(mu_);
    while (active_calls_ > 0) {
      WaitingForCalls(active_calls_);
      idle_.wait(lock);
    }
    for (RegisteredIterator* iterator : iterators_) iterator->DropIterator();
    iterators_.clear();
    Free();
  });
}

void CallGate::Register(RegisteredIterator* iterator) {
  std::lock_guard<std::mutex> lock(mu_);
  iterators_.insert(iterator);
}

void CallGate::Unregister(RegisteredIterator* iterator) {
  std::lock_guard<std::mutex> lock(mu_);
  if (iterators_.erase(iterator) > 0) iterator->DropIterator();
}

}  // namespace python
}  // namespace bloomtable
