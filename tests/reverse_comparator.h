// ReverseComparator: the reverse of the bytewise order, for tests that need
// a comparator other than the bytewise one (code with a bytewise fast path
// must fall back to calling the comparator). Stateless: safe from any thread.

#ifndef BLOOMTABLE_TESTS_REVERSE_COMPARATOR_H_
#define BLOOMTABLE_TESTS_REVERSE_COMPARATOR_H_

#include <string>
#include <string_view>

#include "bloomtable/comparator.h"

namespace bloomtable {

class ReverseComparator final : public Comparator {
 public:
  int Compare(std::string_view a, std::string_view b) const override {
    return b.compare(a);
  }
  std::string_view Name() const override { return "test.Reverse"; }
  // No shortening: every key is its own separator and successor.
  void FindShortestSeparator(std::string*, std::string_view) const override {}
  void FindShortSuccessor(std::string*) const override {}
};

}  // namespace bloomtable

#endif  // BLOOMTABLE_TESTS_REVERSE_COMPARATOR_H_
