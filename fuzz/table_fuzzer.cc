// Table::Open on arbitrary bytes, then Gets and a MultiGet of keys taken from
// the input and from the table, Seeks, full forward and backward iteration,
// and bounded iterators (bounds and prefix_same_as_start from those keys,
// which ask the prefix and range filters) with MayContainRange. Every answer
// must be a value, NotFound or an error; never a crash, a hang, an
// out-of-bounds read, or a key outside an iterator's bounds.
//
// Each input is read twice: as given (block checksums almost always wrong
// after a mutation, so Open mostly stops at the index), and with every block
// checksum it names rewritten to match (fix_checksums.h), so that mutated
// blocks reach the parsers; that pass also reads through a small block cache
// and, on alternate inputs, without data-block checksum checks.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "bloomtable/cache.h"
#include "bloomtable/file.h"
#include "bloomtable/prefix_extractor.h"
#include "bloomtable/table.h"
#include "fuzz/fix_checksums.h"
#include "fuzz/fuzz_options.h"
#include "fuzz/touch_entry.h"
#include "table/internal_key.h"
#include "table/table_salvage.h"

namespace bloomtable {
namespace {

// Bounds the walks: a 16 KiB input cannot hold more entries than this.
constexpr size_t kMaxSteps = 100000;

// Aborts unless every entry a bounded iterator yields lies in [lower, upper)
// (plain keys: the bytewise order of the fuzz options).
void CheckInBounds(const Iterator& it, KeyFormat key_format,
                   std::string_view lower, std::string_view upper) {
  if (key_format != KeyFormat::kPlain) return;
  if (it.key() < lower || it.key() >= upper) __builtin_trap();
}

// Bounded walks both ways and seeks to both bounds, in total order or in
// prefix mode; MayContainRange over the bounds both ways round.
uint64_t ExerciseBounds(const Table& table, KeyFormat key_format,
                        ReadOptions read_options, const std::string& lower,
                        const std::string& upper, bool prefix_mode) {
  read_options.iterate_lower_bound = lower;
  read_options.iterate_upper_bound = upper;
  read_options.prefix_same_as_start = prefix_mode;
  auto it = table.NewIterator(read_options);
  uint64_t sum = 0;
  size_t steps = 0;
  for (it->SeekToFirst(); it->Valid() && steps < kMaxSteps; it->Next()) {
    CheckInBounds(*it, key_format, lower, upper);
    sum += TouchEntry(*it);
    ++steps;
  }
  for (it->SeekToLast(); it->Valid() && steps < 2 * kMaxSteps; it->Prev()) {
    CheckInBounds(*it, key_format, lower, upper);
    sum += TouchEntry(*it);
    ++steps;
  }
  for (const std::string* target : {&lower, &upper}) {
    it->Seek(*target);
    for (int step = 0; step < 3 && it->Valid(); ++step) {
      CheckInBounds(*it, key_format, lower, upper);
      sum += TouchEntry(*it);
      it->Next();
    }
    it->SeekForPrev(*target);
    for (int step = 0; step < 3 && it->Valid(); ++step) {
      CheckInBounds(*it, key_format, lower, upper);
      sum += TouchEntry(*it);
      it->Prev();
    }
  }
  (void)it->status();
  sum += table.MayContainRange(lower, upper) ? 1 : 0;
  sum += table.MayContainRange(upper, lower) ? 1 : 0;
  return sum;
}

void Exercise(const std::string& bytes, KeyFormat key_format,
              const ReadOptions& read_options,
              std::shared_ptr<Cache> block_cache) {
  Options options = FuzzReadOptions(key_format);
  options.block_cache = std::move(block_cache);
  options.cache_index_and_filter_blocks = options.block_cache != nullptr;
  auto table =
      Table::Open(options, NewMemoryRandomAccessFile(bytes), bytes.size());
  if (!table.ok()) return;
  // A prefix filter's prefixes are used with the extractor it names.
  const ScanFilterInfo& scan_filters = (*table)->scan_filter_info();
  if (scan_filters.prefix_loaded && !scan_filters.prefix_in_use) {
    options.prefix_extractor =
        NewPrefixExtractorFromName(scan_filters.prefix_extractor);
    if (options.prefix_extractor != nullptr) {
      table =
          Table::Open(options, NewMemoryRandomAccessFile(bytes), bytes.size());
      if (!table.ok()) return;
    }
  }
  std::vector<std::string> keys = {"", "a", bytes.substr(0, 8),
                                   std::string(8, '\xff')};

  auto it = (*table)->NewIterator(read_options);
  uint64_t sum = 0;
  size_t forward = 0;
  for (it->SeekToFirst(); it->Valid() && forward < kMaxSteps; it->Next()) {
    sum += TouchEntry(*it);
    if (forward < 4 || forward % 16 == 0) {
      keys.emplace_back(it->key());
      if (key_format == KeyFormat::kLevelDBInternal && it->key().size() >= 8) {
        keys.back().resize(it->key().size() - 8);  // the user key
      }
    }
    ++forward;
  }
  size_t backward = 0;
  for (it->SeekToLast(); it->Valid() && backward < kMaxSteps; it->Prev()) {
    sum += TouchEntry(*it);
    ++backward;
  }
  std::string value;
  for (const std::string& key : keys) {
    (void)(*table)->Get(read_options, key, &value);
    it->Seek(key);
    // A short walk both ways from every seek.
    for (int step = 0; step < 3 && it->Valid(); ++step) {
      sum += TouchEntry(*it);
      it->Next();
    }
    for (int step = 0; step < 6 && it->Valid(); ++step) {
      sum += TouchEntry(*it);
      it->Prev();
    }
    (void)it->status();
    (void)(*table)->ApproximateOffsetOf(key);
  }
  for (size_t i = 0; i + 1 < keys.size() && i < 8; ++i) {
    sum += ExerciseBounds(**table, key_format, read_options, keys[i],
                          keys[keys.size() - 1 - i], i % 2 == 0);
  }
  const std::vector<std::string_view> views(keys.begin(), keys.end());
  (void)(*table)->MultiGet(read_options, views);
  (void)(*table)->GetStats();
  (void)(*table)->ApproximateMemoryUsage();
  (void)(*table)->filter_info();
  (void)(*table)->scan_filter_info();
  // Never true: keeps the reads of TouchEntry from being optimised away.
  if (sum == ~uint64_t{0}) __builtin_trap();
}

}  // namespace
}  // namespace bloomtable

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using bloomtable::KeyFormat;
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  const bloomtable::ReadOptions verified;
  bloomtable::Exercise(bytes, KeyFormat::kPlain, verified, nullptr);
  bloomtable::Exercise(bytes, KeyFormat::kLevelDBInternal, verified, nullptr);

  const std::string fixed =
      bloomtable::fuzz_internal::WithChecksumsFixed(bytes);
  bloomtable::ReadOptions read_options;
  read_options.verify_checksums = size % 2 == 0;
  // Small enough that blocks are evicted while the table is read.
  auto cache = bloomtable::NewLRUCache(16 << 10, 0);
  bloomtable::Exercise(fixed, KeyFormat::kPlain, read_options, cache);
  bloomtable::Exercise(fixed, KeyFormat::kLevelDBInternal, read_options, cache);

  // Salvage reads what it can of either, never past the bytes it was given.
  for (const std::string* input : {&bytes, &fixed}) {
    std::unique_ptr<bloomtable::RandomAccessFile> file =
        bloomtable::NewMemoryRandomAccessFile(*input);
    std::vector<std::string> problems;
    if (!bloomtable::SalvageTable(
             *file, input->size(), bloomtable::TableSalvageOptions(),
             [](std::string_view key, std::string_view, uint64_t) {
               bloomtable::ParsedInternalKey parsed;
               if (!bloomtable::ParseInternalKey(key, &parsed)) {
                 __builtin_trap();
               }
             },
             &problems)
             .ok()) {
      __builtin_trap();
    }
  }
  return 0;
}
