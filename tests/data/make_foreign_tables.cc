// Writes the corpus of tables "written by other programs" that
// tests/foreign_tables_test.cc reads back: Mojang's Bedrock layout with
// compression types 2 (zlib) and 4 (raw deflate), upstream LevelDB's zstd
// (type 2) and the type-3 zstd of Mojang-derived forks. The layouts and
// where they come from are described in tests/foreign_table_writer.h.
//
//   build/release/tests/make_foreign_tables tests/data
//
// The files are committed; rerun this only when the corpus changes.

#include <cstdio>
#include <string>

#include "tests/foreign_table_writer.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: make_foreign_tables DIRECTORY\n");
    return 2;
  }
  for (const auto& spec : bloomtable::foreign_tables::kCorpus) {
    const std::string path = std::string(argv[1]) + "/" + spec.name;
    const std::string bytes = bloomtable::foreign_tables::WriteCorpusFile(spec);
    std::FILE* file = std::fopen(path.c_str(), "wb");
    if (file == nullptr ||
        std::fwrite(bytes.data(), 1, bytes.size(), file) != bytes.size() ||
        std::fclose(file) != 0) {
      std::fprintf(stderr, "make_foreign_tables: cannot write %s\n",
                   path.c_str());
      return 1;
    }
    std::printf("%s: %zu bytes\n", path.c_str(), bytes.size());
  }
  return 0;
}
