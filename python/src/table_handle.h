// TableHandle owns one open Table for the Python objects that use it (the
// bloomtable.Table and its iterators) and makes closing it safe while other
// threads are inside calls and iterators are alive; ClosableHandle is that
// machinery, which the database's handle (database.cc) shares.
//
// The rule: close() marks the handle closed at once (no new call starts:
// each raises InvalidArgumentError "table is closed"), then waits, with the
// GIL released, until every call in progress in another thread has left (a
// call is bounded: one multi_get, one open, one batch of iteration), then
// destroys the C++ iterators of every live Python iterator and the Table.
// An iterator used after that raises the same error. Nothing is freed while
// a thread uses it, so a close never crashes a reader.
//
// Thread-safety: Enter/Leave, Close and the iterator registry may be used
// from any thread; a CallGuard is what a call holds while it uses table().

#ifndef BLOOMTABLE_PYTHON_SRC_TABLE_HANDLE_H_
#define BLOOMTABLE_PYTHON_SRC_TABLE_HANDLE_H_

#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <utility>

#include "bloomtable/iterator.h"
#include "bloomtable/table.h"

namespace bloomtable {
namespace python {

// An iterator that the handle may have to destroy on close.
class RegisteredIterator {
 public:
  virtual ~RegisteredIterator() = default;
  // Destroys the C++ iterator. Called by Close with no call in progress.
  virtual void DropIterator() = 0;
};

// The closing machinery of an open table or database: see the top of this
// file. A subclass owns the C++ object and frees it in Free().
class ClosableHandle {
 public:
  // `what` names the object in errors ("table", "database").
  ClosableHandle(std::string path, std::string what);
  ClosableHandle(const ClosableHandle&) = delete;
  ClosableHandle& operator=(const ClosableHandle&) = delete;
  virtual ~ClosableHandle() = default;

  const std::string& path() const { return path_; }
  bool closed() const { return closed_.load(std::memory_order_acquire); }
  // "table is closed" (or the `what` given).
  const std::string& closed_message() const { return closed_message_; }

  // Starts a call: false if the handle is closed.
  bool Enter();
  void Leave();

  // See the top of this file. Releases the GIL while it waits; idempotent.
  void Close();

  void Register(RegisteredIterator* iterator);
  // Removes `iterator` and calls its DropIterator (under the registry lock,
  // so that it never races with Close). No-op if Close already dropped it.
  void Unregister(RegisteredIterator* iterator);

 protected:
  // Frees the owned object. Called once by Close, with no call in progress
  // and every registered iterator dropped.
  virtual void Free() = 0;

 private:
  const std::string path_;
  const std::string closed_message_;
  std::atomic<bool> closed_{false};

  std::mutex mu_;
  std::condition_variable idle_;
  int active_calls_ = 0;                     // guarded by mu_
  std::set<RegisteredIterator*> iterators_;  // guarded by mu_
};

class TableHandle final : public ClosableHandle {
 public:
  TableHandle(std::string path, std::unique_ptr<Table> table)
      : ClosableHandle(std::move(path), "table"), table_(std::move(table)) {}
  // Iterators hold the handle alive, so none is left here; the table goes.
  ~TableHandle() override = default;

  // The table. REQUIRES: the caller holds a CallGuard, or holds the GIL and
  // saw !closed() without releasing it since.
  const Table& table() const { return *table_; }

 private:
  void Free() override { table_.reset(); }

  std::unique_ptr<Table> table_;
};

// Holds a call open on a handle for its scope. Throws InvalidArgumentError
// (through ThrowInvalidArgument) if the handle is closed.
class CallGuard {
 public:
  explicit CallGuard(ClosableHandle* handle);
  CallGuard(const CallGuard&) = delete;
  CallGuard& operator=(const CallGuard&) = delete;
  ~CallGuard() { handle_->Leave(); }

 private:
  ClosableHandle* const handle_;
};

}  // namespace python
}  // namespace bloomtable

#endif  // BLOOMTABLE_PYTHON_SRC_TABLE_HANDLE_H_
