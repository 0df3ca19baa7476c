// Keys and values given from Python: `bytes`, or any object exporting a
// contiguous buffer (bytearray, memoryview, array, numpy arrays of bytes);
// `str` is refused with a TypeError, since a table holds bytes and an
// implicit encoding would hide which bytes.

#ifndef BLOOMTABLE_PYTHON_SRC_BYTES_ARG_H_
#define BLOOMTABLE_PYTHON_SRC_BYTES_ARG_H_

#include <pybind11/pybind11.h>

#include <string>
#include <string_view>

namespace bloomtable {
namespace python {

// A view of the bytes of a Python object, valid while this lives and the
// GIL is held (a bytearray may change once the GIL is released: copy first).
class BytesArg {
 public:
  // `what` names the argument in the TypeError ("key", "value").
  BytesArg(PyObject* object, const char* what);
  BytesArg(const pybind11::handle& object, const char* what)
      : BytesArg(object.ptr(), what) {}
  BytesArg(const BytesArg&) = delete;
  BytesArg& operator=(const BytesArg&) = delete;
  ~BytesArg();

  std::string_view view() const { return view_; }

 private:
  std::string_view view_;
  Py_buffer buffer_;
  bool has_buffer_ = false;
};

// A file path from str, bytes or an os.PathLike (pathlib.Path), encoded as
// os.fsencode does. TypeError for anything else; ValueError ("embedded null
// byte", as open() says) for a path holding a NUL.
std::string PathArg(const pybind11::handle& path);

// A new `bytes` object holding `data`.
inline pybind11::bytes ToBytes(std::string_view data) {
  return pybind11::bytes(data.data(), data.size());
}

}  // namespace python
}  // namespace bloomtable

#endif  // BLOOMTABLE_PYTHON_SRC_BYTES_ARG_H_
