// TableHandle owns one open Table for the Python objects that use it (the
// bloomtable.Table and its iterators) and makes closing it safe while other
// threads are inside calls and iterators are alive; ClosableHandle is the
// part it shares with the database's handle (database.cc): a CallGate
// (call_gate.h, the closing machinery, which has no Python in it) that
// releases the GIL while close() waits for the calls in progress.
//
// For Python: close() marks the handle closed at once (no new call starts:
// each raises InvalidArgumentError "table is closed"), then waits, with the
// GIL released, until every call in progress in another thread has left,
// then destroys the C++ iterators of every live Python iterator and the
// Table. An iterator used after that raises the same error. Nothing is freed
// while a thread uses it, so a close never crashes a reader.
//
// Thread-safety: as CallGate; a CallGuard is what a call holds while it uses
// table().

#ifndef BLOOMTABLE_PYTHON_SRC_TABLE_HANDLE_H_
#define BLOOMTABLE_PYTHON_SRC_TABLE_HANDLE_H_

#include <functional>
#include <memory>
#include <string>
#include <utility>

#include "bloomtable/iterator.h"
#include "bloomtable/table.h"
#include "python/src/call_gate.h"

namespace bloomtable {
namespace python {

// A CallGate with the path of the file it guards, whose Close releases the
// GIL while it waits. A subclass owns the C++ object and frees it in Free().
class ClosableHandle : public CallGate {
 public:
  // `what` names the object in errors ("table", "database").
  ClosableHandle(std::string path, const std::string& what)
      : CallGate(what), path_(std::move(path)) {}

  const std::string& path() const { return path_; }

 protected:
  // Releases the GIL around `work`: calls in progress may need it.
  void WithoutInterpreter(const std::function<void()>& work) override;

 private:
  const std::string path_;
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
