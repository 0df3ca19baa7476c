// KeyBatch copies byte strings given from Python into one buffer, so that a
// call can then release the GIL and work on them: the copies cannot change
// under it, as a bytearray could.

#ifndef BLOOMTABLE_PYTHON_SRC_KEY_BATCH_H_
#define BLOOMTABLE_PYTHON_SRC_KEY_BATCH_H_

#include <pybind11/pybind11.h>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "python/src/bytes_arg.h"

namespace bloomtable {
namespace python {

class KeyBatch {
 public:
  // Appends the bytes of `object` (see BytesArg; `what` names it in a
  // TypeError).
  void Add(const pybind11::handle& object, const char* what) {
    BytesArg arg(object, what);
    ends_.push_back(buffer_.size() + arg.view().size());
    buffer_.append(arg.view());
  }

  size_t size() const { return ends_.size(); }
  size_t bytes() const { return buffer_.size(); }

  // Views of every string added, valid until the next Add.
  std::vector<std::string_view> Views() const {
    std::vector<std::string_view> views;
    views.reserve(ends_.size());
    size_t begin = 0;
    for (size_t end : ends_) {
      views.emplace_back(buffer_.data() + begin, end - begin);
      begin = end;
    }
    return views;
  }

  void Clear() {
    buffer_.clear();
    ends_.clear();
  }

 private:
  std::string buffer_;
  std::vector<size_t> ends_;
};

}  // namespace python
}  // namespace bloomtable

#endif  // BLOOMTABLE_PYTHON_SRC_KEY_BATCH_H_
