// Writes seed corpora for the fuzz targets into OUT_DIR/<target>/: small
// valid tables of every option combination (block size, restart interval,
// compression, filter layout, key format), raw blocks, footers and filters.
//
//   make_seed_corpus OUT_DIR

#include <sys/stat.h>

#include <cstdio>
#include <string>
#include <vector>

#include "bloomtable/file.h"
#include "bloomtable/filter_policy.h"
#include "bloomtable/options.h"
#include "bloomtable/table_builder.h"
#include "fuzz/fuzz_options.h"
#include "table/block_builder.h"
#include "util/coding.h"

namespace bloomtable {
namespace {

bool WriteSeed(const std::string& dir, const std::string& name,
               const std::string& bytes) {
  ::mkdir(dir.c_str(), 0755);
  std::FILE* file = std::fopen((dir + "/" + name).c_str(), "wb");
  if (file == nullptr) return false;
  const bool ok = std::fwrite(bytes.data(), 1, bytes.size(), file) == bytes.size();
  return std::fclose(file) == 0 && ok;
}

std::string UserKey(int i) {
  char key[32];
  std::snprintf(key, sizeof(key), "key%05d", i);
  return key;
}

// A LevelDB internal key: user key, then fixed64 (sequence << 8) | type.
std::string InternalKey(int i, uint64_t sequence, bool deletion) {
  std::string key = UserKey(i);
  PutFixed64(&key, (sequence << 8) | (deletion ? 0 : 1));
  return key;
}

int Main(const std::string& out) {
  ::mkdir(out.c_str(), 0755);
  int written = 0;
  const std::vector<std::shared_ptr<const FilterPolicy>> policies =
      AllFilterPolicies();
  for (size_t block_size : {64u, 512u, 4096u}) {
    for (int restart_interval : {1, 16}) {
      for (CompressionType compression :
           {CompressionType::kNone, CompressionType::kSnappy}) {
        for (int filter = -1; filter < static_cast<int>(policies.size());
             ++filter) {
          for (FilterLayout layout :
               {FilterLayout::kPerBlock, FilterLayout::kWholeTable}) {
            for (KeyFormat key_format :
                 {KeyFormat::kPlain, KeyFormat::kLevelDBInternal}) {
              if (filter < 0 && layout == FilterLayout::kWholeTable) continue;
              Options options;
              options.block_size = block_size;
              options.block_restart_interval = restart_interval;
              options.compression = compression;
              options.filter_layout = layout;
              options.key_format = key_format;
              if (filter >= 0) options.filter_policy = policies[filter];
              StringWritableFile file;
              TableBuilder builder(options, &file);
              for (int i = 0; i < 40; ++i) {
                const std::string value(i % 7 * 3, static_cast<char>('a' + i % 26));
                if (key_format == KeyFormat::kPlain) {
                  (void)builder.Add(UserKey(i), value);
                } else {
                  // Two versions of every third key, newest first.
                  if (i % 3 == 0) (void)builder.Add(InternalKey(i, 100 + i, i % 2 == 0), "");
                  (void)builder.Add(InternalKey(i, i, false), value);
                }
              }
              if (!builder.Finish().ok()) return 1;
              written += WriteSeed(out + "/table_fuzzer",
                                   "table" + std::to_string(written),
                                   file.contents());
              written += WriteSeed(out + "/format_fuzzer",
                                   "footer" + std::to_string(written),
                                   file.contents().substr(
                                       file.contents().size() - 48));
            }
          }
        }
      }
    }
  }
  for (int restart_interval : {1, 2, 16}) {
    BlockBuilder block(restart_interval);
    for (int i = 0; i < 30; ++i) block.Add(UserKey(i), std::string(i % 5, 'v'));
    written += WriteSeed(out + "/block_fuzzer",
                         "block" + std::to_string(restart_interval),
                         std::string(block.Finish()));
  }
  for (size_t p = 0; p < policies.size(); ++p) {
    for (int n : {0, 1, 10, 100}) {
      std::vector<std::string> keys;
      for (int i = 0; i < n; ++i) keys.push_back(UserKey(i));
      std::vector<std::string_view> views(keys.begin(), keys.end());
      std::string filter;
      policies[p]->CreateFilter(views.data(), views.size(), &filter);
      // The fuzzer reads: policy index, key length, key, filter.
      std::string seed;
      seed.push_back(static_cast<char>(p));
      seed.push_back(8);
      seed += UserKey(0);
      seed += filter;
      written += WriteSeed(out + "/filter_policy_fuzzer",
                           "filter" + std::to_string(p) + "_" + std::to_string(n),
                           seed);
    }
  }
  std::printf("wrote %d seeds into %s\n", written, out.c_str());
  return 0;
}

}  // namespace
}  // namespace bloomtable

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: make_seed_corpus OUT_DIR\n");
    return 2;
  }
  return bloomtable::Main(argv[1]);
}
