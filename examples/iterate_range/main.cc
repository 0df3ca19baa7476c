// Writes a table of 100 keys and prints the entries in [from, to), forward
// and then backward.
//
//   iterate_range [PATH]    (default: ./range.table)

#include <cstdio>
#include <memory>
#include <string>

#include "bloomtable/file.h"
#include "bloomtable/iterator.h"
#include "bloomtable/options.h"
#include "bloomtable/table.h"
#include "bloomtable/table_builder.h"

namespace {

std::string KeyOf(int i) {
  char key[16];
  std::snprintf(key, sizeof(key), "k%03d", i);
  return key;
}

absl::Status WriteTable(const std::string& path) {
  auto file = bloomtable::NewWritableFile(path);
  if (!file.ok()) return file.status();
  bloomtable::TableBuilder builder(bloomtable::Options(), file->get());
  for (int i = 0; i < 100; ++i) {
    absl::Status status = builder.Add(KeyOf(i), std::to_string(i * i));
    if (!status.ok()) {
      builder.Abandon();
      return status;
    }
  }
  absl::Status status = builder.Finish();
  if (status.ok()) status = (*file)->Sync();
  if (status.ok()) status = (*file)->Close();
  return status;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string path = argc > 1 ? argv[1] : "range.table";
  absl::Status written = WriteTable(path);
  if (!written.ok()) {
    std::fprintf(stderr, "%s\n", written.ToString().c_str());
    return 1;
  }
  auto size = bloomtable::GetFileSize(path);
  auto input = bloomtable::OpenRandomAccessFile(path);
  if (!size.ok() || !input.ok()) return 1;
  auto table =
      bloomtable::Table::Open(bloomtable::Options(), std::move(*input), *size);
  if (!table.ok()) {
    std::fprintf(stderr, "%s\n", table.status().ToString().c_str());
    return 1;
  }

  const std::string from = KeyOf(10), to = KeyOf(15);
  std::unique_ptr<bloomtable::Iterator> it =
      (*table)->NewIterator(bloomtable::ReadOptions());
  int forward = 0;
  for (it->Seek(from); it->Valid() && it->key() < to; it->Next()) {
    std::printf("%.*s = %.*s\n", static_cast<int>(it->key().size()),
                it->key().data(), static_cast<int>(it->value().size()),
                it->value().data());
    ++forward;
  }
  // Backward from the last key before `to`.
  int backward = 0;
  for (it->Seek(to), it->Prev(); it->Valid() && it->key() >= from; it->Prev()) {
    ++backward;
  }
  if (!it->status().ok()) {
    std::fprintf(stderr, "%s\n", it->status().ToString().c_str());
    return 1;
  }
  std::printf("%d entries forward, %d backward\n", forward, backward);
  return forward == 5 && backward == 5 ? 0 : 1;
}
