#include "bloomtable/filter_policy.h"

namespace bloomtable {
namespace {

// Answers through the policy's own KeyMayMatch, for policies with nothing to
// parse up front.
class PolicyFilterReader final : public FilterReader {
 public:
  PolicyFilterReader(const FilterPolicy* policy, std::string_view filter)
      : policy_(policy), filter_(filter) {}

  bool KeyMayMatch(std::string_view key) const override {
    return policy_->KeyMayMatch(key, filter_);
  }

 private:
  const FilterPolicy* const policy_;
  const std::string_view filter_;
};

}  // namespace

FilterReader::~FilterReader() = default;
void FilterReader::Prefetch(std::string_view /*key*/) const {}
FilterPolicy::~FilterPolicy() = default;

std::unique_ptr<FilterReader> FilterPolicy::NewReader(
    std::string_view filter) const {
  return std::make_unique<PolicyFilterReader>(this, filter);
}

}  // namespace bloomtable
