// CallGate: the closing machinery of an object that calls from many threads
// use (the Python package's open tables and databases, table_handle.h),
// without Python: it counts the calls in progress, refuses new ones once
// closing starts, and frees the object only when the last call has left.
//
// The rule: Close() marks the gate closed at once (Enter fails from then
// on), then waits until every call in progress has left (a call is bounded:
// one multi_get, one open, one batch of iteration), then drops every
// registered iterator and calls Free(). Nothing is freed while a call uses
// it. The wait runs inside WithoutInterpreter(), which the Python binding
// overrides to release the GIL (a call in progress may need it to finish).
//
// Thread-safety: every method may be called from any thread.

#ifndef BLOOMTABLE_PYTHON_SRC_CALL_GATE_H_
#define BLOOMTABLE_PYTHON_SRC_CALL_GATE_H_

#include <atomic>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <set>
#include <string>

namespace bloomtable {
namespace python {

// An iterator that the gate may have to destroy on close.
class RegisteredIterator {
 public:
  virtual ~RegisteredIterator() = default;
  // Destroys the C++ iterator. Called by Close with no call in progress.
  virtual void DropIterator() = 0;
};

class CallGate {
 public:
  // `what` names the object in errors ("table", "database").
  explicit CallGate(const std::string& what);
  CallGate(const CallGate&) = delete;
  CallGate& operator=(const CallGate&) = delete;
  virtual ~CallGate() = default;

  bool closed() const { return closed_.load(std::memory_order_acquire); }
  // "table is closed" (or the `what` given).
  const std::string& closed_message() const { return closed_message_; }

  // Starts a call: false if the gate is closed.
  bool Enter();
  // Ends a call that Enter started.
  void Leave();

  // See the top of this file. Idempotent: a second call returns at once.
  void Close();

  void Register(RegisteredIterator* iterator);
  // Removes `iterator` and calls its DropIterator (under the gate's lock, so
  // that it never races with Close). No-op if Close already dropped it.
  void Unregister(RegisteredIterator* iterator);

 protected:
  // Frees the owned object. Called once by Close, with no call in progress
  // and every registered iterator dropped.
  virtual void Free() = 0;
  // Runs `work` (Close's wait for the calls in progress, then the freeing).
  // The default runs it as is.
  virtual void WithoutInterpreter(const std::function<void()>& work) { work(); }
  // Called by Close, under the gate's lock, each time it finds calls still
  // in progress and is about to block until one leaves. The default does
  // nothing; a test overrides it to know that Close is waiting.
  virtual void WaitingForCalls(int /*calls_in_progress*/) {}

 private:
  const std::string closed_message_;
  std::atomic<bool> closed_{false};

  std::mutex mu_;
  std::condition_variable idle_;
  int active_calls_ = 0;                     // guarded by mu_
  std::set<RegisteredIterator*> iterators_;  // guarded by mu_
};

}  // namespace python
}  // namespace bloomtable

#endif  // BLOOMTABLE_PYTHON_SRC_CALL_GATE_H_
