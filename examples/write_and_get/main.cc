// Writes a small table file, opens it and looks keys up.
//
//   write_and_get [PATH]    (default: ./example.table)

#include <cstdio>
#include <memory>
#include <string>

#include "bloomtable/file.h"
#include "bloomtable/filter_policy.h"
#include "bloomtable/options.h"
#include "bloomtable/table.h"
#include "bloomtable/table_builder.h"

int main(int argc, char** argv) {
  const std::string path = argc > 1 ? argv[1] : "example.table";

  bloomtable::Options options;
  options.filter_policy = bloomtable::NewLevelDBBloomFilterPolicy(10);

  // Write: keys in increasing order, then Finish, Sync and Close.
  auto file = bloomtable::NewWritableFile(path);
  if (!file.ok()) {
    std::fprintf(stderr, "%s\n", file.status().ToString().c_str());
    return 1;
  }
  bloomtable::TableBuilder builder(options, file->get());
  for (int i = 0; i < 1000; ++i) {
    char key[32];
    std::snprintf(key, sizeof(key), "user%06d", i);
    absl::Status status = builder.Add(key, "value of " + std::string(key));
    if (!status.ok()) {
      builder.Abandon();
      std::fprintf(stderr, "%s\n", status.ToString().c_str());
      return 1;
    }
  }
  absl::Status status = builder.Finish();
  if (status.ok()) status = (*file)->Sync();
  if (status.ok()) status = (*file)->Close();
  if (!status.ok()) {
    std::fprintf(stderr, "%s\n", status.ToString().c_str());
    return 1;
  }

  // Read: open once, then Get from any thread.
  auto size = bloomtable::GetFileSize(path);
  auto input = bloomtable::OpenRandomAccessFile(path);
  if (!size.ok() || !input.ok()) {
    std::fprintf(stderr, "cannot open %s\n", path.c_str());
    return 1;
  }
  auto table = bloomtable::Table::Open(options, std::move(*input), *size);
  if (!table.ok()) {
    std::fprintf(stderr, "%s\n", table.status().ToString().c_str());
    return 1;
  }
  auto value = (*table)->Get(bloomtable::ReadOptions(), "user000042");
  if (!value.ok()) {
    std::fprintf(stderr, "%s\n", value.status().ToString().c_str());
    return 1;
  }
  std::printf("user000042 -> %s\n", value->c_str());

  auto missing = (*table)->Get(bloomtable::ReadOptions(), "user999999");
  std::printf("user999999 -> %s\n",
              absl::IsNotFound(missing.status()) ? "not found" : "unexpected!");
  return absl::IsNotFound(missing.status()) ? 0 : 1;
}
