#include "bloomtable/iterator.h"

namespace bloomtable {

Iterator::~Iterator() = default;

}  // namespace bloomtable
