// Chooses a filter policy, looks up absent keys and reads the table's
// counters: how many data-block reads the filter saved.
//
//   filter_counters [PATH]    (default: ./filtered.table)

#include <cstdio>
#include <memory>
#include <string>

#include "bloomtable/file.h"
#include "bloomtable/filter_policy.h"
#include "bloomtable/options.h"
#include "bloomtable/table.h"
#include "bloomtable/table_builder.h"

int main(int argc, char** argv) {
  const std::string path = argc > 1 ? argv[1] : "filtered.table";
  bloomtable::Options options;
  // LevelDB's own Bloom format at 10 bits per key: tables stay readable by
  // LevelDB, filter included.
  options.filter_policy = bloomtable::NewLevelDBBloomFilterPolicy(10);

  auto file = bloomtable::NewWritableFile(path);
  if (!file.ok()) return 1;
  bloomtable::TableBuilder builder(options, file->get());
  for (int i = 0; i < 10000; i += 2) {
    char key[32];
    std::snprintf(key, sizeof(key), "%016d", i);
    if (!builder.Add(key, "v").ok()) {
      builder.Abandon();
      return 1;
    }
  }
  if (!builder.Finish().ok() || !(*file)->Sync().ok() ||
      !(*file)->Close().ok()) {
    return 1;
  }

  auto size = bloomtable::GetFileSize(path);
  auto input = bloomtable::OpenRandomAccessFile(path);
  if (!size.ok() || !input.ok()) return 1;
  auto table = bloomtable::Table::Open(options, std::move(*input), *size);
  if (!table.ok()) {
    std::fprintf(stderr, "%s\n", table.status().ToString().c_str());
    return 1;
  }
  std::printf("filter: %s (in use: %s)\n",
              (*table)->filter_info().metaindex_key.c_str(),
              (*table)->filter_info().in_use ? "yes" : "no");

  // Odd keys are absent.
  int absent = 0;
  for (int i = 1; i < 10000; i += 2) {
    char key[32];
    std::snprintf(key, sizeof(key), "%016d", i);
    if (absl::IsNotFound(
            (*table)->Get(bloomtable::ReadOptions(), key).status())) {
      ++absent;
    }
  }
  const bloomtable::TableStats stats = (*table)->GetStats();
  std::printf("absent keys looked up: %d\n", absent);
  std::printf("filter checks:         %llu\n",
              static_cast<unsigned long long>(stats.filter_checks));
  std::printf("reads avoided:         %llu\n",
              static_cast<unsigned long long>(stats.filter_negatives));
  std::printf("data blocks read:      %llu\n",
              static_cast<unsigned long long>(stats.data_block_reads));
  return absent == 5000 && stats.filter_negatives > 0 ? 0 : 1;
}
