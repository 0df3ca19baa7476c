#include "python/src/local_storage.h"

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "bloomtable/local_storage.h"
#include "python/src/bytes_arg.h"
#include "python/src/errors.h"

namespace py = pybind11;

namespace bloomtable {
namespace python {
namespace {

// WTF-8 (UTF-8 that may hold lone surrogates) as a str that keeps them.
py::str Text(const std::string& wtf8) {
  PyObject* text = PyUnicode_DecodeUTF8(
      wtf8.data(), static_cast<Py_ssize_t>(wtf8.size()), "surrogatepass");
  if (text == nullptr) throw py::error_already_set();
  return py::reinterpret_steal<py::str>(text);
}

py::tuple Decode(const py::object& key_arg, const py::object& value_arg) {
  BytesArg key(key_arg, "key");
  BytesArg value(value_arg, "value");
  absl::StatusOr<LocalStorageKey> parsed = ParseLocalStorageKey(key.view());
  if (!parsed.ok()) ThrowStatus(parsed.status(), "");
  const py::bytes raw_value(value.view().data(), value.view().size());
  switch (parsed->kind) {
    case LocalStorageKeyKind::kItem: {
      absl::StatusOr<std::string> decoded =
          DecodeLocalStorageString(value.view());
      if (!decoded.ok()) {
        ThrowStatus(absl::DataLossError(absl::StrCat(
                        "the value's string: ", decoded.status().message())),
                    "");
      }
      return py::make_tuple("item", Text(parsed->origin), Text(parsed->key),
                            Text(*decoded));
    }
    case LocalStorageKeyKind::kMeta:
      return py::make_tuple("meta", Text(parsed->origin), py::none(),
                            raw_value);
    case LocalStorageKeyKind::kMetaAccess:
      return py::make_tuple("meta_access", Text(parsed->origin), py::none(),
                            raw_value);
    case LocalStorageKeyKind::kVersion:
      return py::make_tuple("version", py::none(), py::none(), raw_value);
    case LocalStorageKeyKind::kOther:
      break;
  }
  return py::make_tuple("other", py::none(), py::none(), raw_value);
}

}  // namespace

void DefineLocalStorage(py::module_& module) {
  module.def("decode_local_storage", &Decode, py::arg("key"), py::arg("value"),
             R"doc(
Decodes one entry of Chrome's Local Storage database (a profile's
"Local Storage/leveldb" directory): (kind, origin, key, value).

kind "item" (a key _<origin>\0<string>): origin, the item's key and its
value as str; each string's first byte says UTF-16LE (0) or Latin-1 (1),
and lone surrogates are kept. "meta" and "meta_access" (META:<origin>,
METAACCESS:<origin>): origin, None, the value's bytes (a protocol buffer).
"version" (VERSION) and "other": None, None, the value's bytes.
CorruptionError for an item whose strings do not decode.

    for key, value in db.items():
        kind, origin, name, text = bloomtable.decode_local_storage(key, value)
)doc");
}

}  // namespace python
}  // namespace bloomtable
