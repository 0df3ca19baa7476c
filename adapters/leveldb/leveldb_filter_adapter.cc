#include "bloomtable/leveldb_filter_adapter.h"

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "leveldb/slice.h"
#include "util/string_util.h"

namespace bloomtable {
namespace {

std::string_view ToStringView(const leveldb::Slice& slice) {
  return std::string_view(slice.data(), slice.size());
}

class LevelDBFilterPolicyAdapter final : public leveldb::FilterPolicy {
 public:
  // (Inside this class the plain name FilterPolicy is LevelDB's base class.)
  explicit LevelDBFilterPolicyAdapter(
      std::shared_ptr<const bloomtable::FilterPolicy> policy)
      : policy_(std::move(policy)), name_(policy_->Name()) {}

  // LevelDB stores this name in the metaindex ("filter.<name>"), so a table
  // written through the adapter names the bloomtable policy.
  const char* Name() const override { return name_.c_str(); }

  void CreateFilter(const leveldb::Slice* keys, int n,
                    std::string* dst) const override {
    std::vector<std::string_view> views;
    views.reserve(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) views.push_back(ToStringView(keys[i]));
    policy_->CreateFilter(views.data(), views.size(), dst);
  }

  bool KeyMayMatch(const leveldb::Slice& key,
                   const leveldb::Slice& filter) const override {
    return policy_->KeyMayMatch(ToStringView(key), ToStringView(filter));
  }

 private:
  const std::shared_ptr<const bloomtable::FilterPolicy> policy_;
  const std::string name_;
};

}  // namespace

absl::StatusOr<std::unique_ptr<leveldb::FilterPolicy>>
NewLevelDBFilterPolicyAdapter(std::shared_ptr<const FilterPolicy> policy) {
  if (policy == nullptr) {
    return absl::InvalidArgumentError("no filter policy to adapt");
  }
  if (!policy->SupportsPerBlock()) {
    const std::string_view name = policy->Name();
    return absl::InvalidArgumentError(absl::StrCat(
        "filter policy ", ToAbsl(name),
        " builds whole-table filters only; LevelDB asks for one filter per "
        "2 KiB of data blocks"));
  }
  return std::unique_ptr<leveldb::FilterPolicy>(
      std::make_unique<LevelDBFilterPolicyAdapter>(std::move(policy)));
}

}  // namespace bloomtable
