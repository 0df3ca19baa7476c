// The database view's iterator over user keys: it walks a merged iterator
// over internal keys (newest version first within a user key) and shows,
// for each user key, its newest version visible at a sequence number,
// hiding keys whose newest version is a deletion. Forward and reverse, with
// optional bounds [lower, upper) on user keys. One thread at a time.

#ifndef BLOOMTABLE_DB_DB_ITERATOR_H_
#define BLOOMTABLE_DB_DB_ITERATOR_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "bloomtable/comparator.h"
#include "bloomtable/iterator.h"

namespace bloomtable {

// `internal` yields internal keys ordered by `user_comparator` (which must
// outlive the iterator); versions with a sequence above `sequence` are
// ignored.
std::unique_ptr<Iterator> NewDbIterator(const Comparator* user_comparator,
                                        std::unique_ptr<Iterator> internal,
                                        uint64_t sequence,
                                        std::optional<std::string> lower,
                                        std::optional<std::string> upper);

}  // namespace bloomtable

#endif  // BLOOMTABLE_DB_DB_ITERATOR_H_
