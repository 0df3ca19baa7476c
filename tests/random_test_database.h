// Test helper: a random database of several levels (level-0 tables that
// overlap, overwrites, deletions, a live log) written with
// TestDatabaseWriter, and the model of its writes that says what a lookup
// must answer as of any sequence. Test-only code.

#ifndef BLOOMTABLE_TESTS_RANDOM_TEST_DATABASE_H_
#define BLOOMTABLE_TESTS_RANDOM_TEST_DATABASE_H_

#include <cstdint>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "tests/test_database_writer.h"

namespace bloomtable {
namespace test_db {

constexpr int kKeys = 400;

inline std::string Key(int k) { return absl::StrFormat("key%05d", k); }

// Every version written, by user key.
using Model = std::map<std::string, std::vector<TestVersion>>;

// The newest version of `key` at or below `snapshot` (a deletion too), or
// null if none.
inline const TestVersion* Newest(const Model& model, const std::string& key,
                                 uint64_t snapshot) {
  auto it = model.find(key);
  if (it == model.end()) return nullptr;
  const TestVersion* newest = nullptr;
  for (const TestVersion& version : it->second) {
    if (version.sequence <= snapshot &&
        (newest == nullptr || version.sequence > newest->sequence)) {
      newest = &version;
    }
  }
  return newest;
}

// What Get must answer for `key` as of `snapshot`: the value of its newest
// version at or below it, or nullopt (none, or a deletion).
inline std::optional<std::string> Expected(const Model& model,
                                           const std::string& key,
                                           uint64_t snapshot) {
  const TestVersion* newest = Newest(model, key, snapshot);
  if (newest == nullptr || newest->deletion) return std::nullopt;
  return newest->value;
}

// A database of two tables on level 2, three on level 1 (each level's
// tables over disjoint key ranges), three overlapping level-0 tables and a
// live log, each newer than the one before; returns the model.
// Sets *first_log_sequence (if set) to the log's first sequence: a version
// at or above it is in the log, one below it in a table.
inline Model WriteRandomDatabase(const std::string& dir, uint32_t seed,
                                 uint64_t* last_sequence,
                                 uint64_t* first_log_sequence = nullptr) {
  std::mt19937 rng(seed);
  TestDatabaseWriter writer(dir);
  Model model;
  uint64_t sequence = 1;
  const auto version = [&](int k) {
    TestVersion v;
    v.user_key = Key(k);
    v.sequence = sequence++;
    v.deletion = rng() % 5 == 0;
    if (!v.deletion) {
      v.value = absl::StrCat("v", v.sequence, std::string(rng() % 40, 'x'));
    }
    model[v.user_key].push_back(v);
    return v;
  };
  for (int level : {2, 1}) {
    const int tables = level == 2 ? 2 : 3;
    for (int t = 0; t < tables; ++t) {
      const int lo = t * kKeys / tables;
      const int hi = (t + 1) * kKeys / tables;
      std::vector<TestVersion> versions;
      for (int n = 0; n < 150; ++n) {
        versions.push_back(version(lo + static_cast<int>(rng() % (hi - lo))));
      }
      writer.AddTable(level, versions);
    }
  }
  for (int t = 0; t < 3; ++t) {
    std::vector<TestVersion> versions;
    for (int n = 0; n < 60; ++n) {
      versions.push_back(version(static_cast<int>(rng() % kKeys)));
    }
    writer.AddTable(0, versions);
  }
  if (first_log_sequence != nullptr) *first_log_sequence = sequence;
  for (int n = 0; n < 40; ++n) {
    writer.AddLogRecord(version(static_cast<int>(rng() % kKeys)));
  }
  writer.Finish();
  *last_sequence = sequence - 1;
  return model;
}

}  // namespace test_db
}  // namespace bloomtable

#endif  // BLOOMTABLE_TESTS_RANDOM_TEST_DATABASE_H_
