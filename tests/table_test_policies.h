// Small filter policies for the table-layer tests: exact enough to reject
// nearly every absent key, simple enough to trust, and independent of the
// production policies.

#ifndef BLOOMTABLE_TESTS_TABLE_TEST_POLICIES_H_
#define BLOOMTABLE_TESTS_TABLE_TEST_POLICIES_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "bloomtable/filter_policy.h"
#include "util/coding.h"
#include "util/hash.h"

namespace bloomtable {
namespace testing_policies {

// A filter is the fixed32 hash of each key, in order. A length that is not a
// multiple of 4 is damage and answers "maybe". False positives only on
// 32-bit hash collisions.
class HashListPolicy : public FilterPolicy {
 public:
  explicit HashListPolicy(std::string name = "test.HashList",
                          bool supports_per_block = true)
      : name_(std::move(name)), supports_per_block_(supports_per_block) {}

  std::string_view Name() const override { return name_; }

  void CreateFilter(const std::string_view* keys, size_t n,
                    std::string* dst) const override {
    for (size_t i = 0; i < n; ++i) PutFixed32(dst, Hash(keys[i]));
  }

  bool KeyMayMatch(std::string_view key,
                   std::string_view filter) const override {
    if (filter.size() % 4 != 0) return true;
    const uint32_t h = Hash(key);
    for (size_t i = 0; i < filter.size(); i += 4) {
      if (DecodeFixed32(filter.data() + i) == h) return true;
    }
    return false;
  }

  bool SupportsPerBlock() const override { return supports_per_block_; }

  static uint32_t Hash(std::string_view key) {
    // Any fixed seed: the policy is only ever read by these tests.
    return LevelDBHash(key.data(), key.size(), 0x1234abcd);
  }

 private:
  const std::string name_;
  const bool supports_per_block_;
};

inline std::shared_ptr<const FilterPolicy> NewHashListPolicy(
    std::string name = "test.HashList") {
  return std::make_shared<HashListPolicy>(std::move(name));
}

// Whole-table only (SupportsPerBlock() == false).
inline std::shared_ptr<const FilterPolicy> NewWholeTableOnlyPolicy() {
  return std::make_shared<HashListPolicy>("test.WholeTableOnly", false);
}

}  // namespace testing_policies
}  // namespace bloomtable

#endif  // BLOOMTABLE_TESTS_TABLE_TEST_POLICIES_H_
