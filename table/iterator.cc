#include "bloomtable/iterator.h"

namespace bloomtable {

Iterator::~Iterator() = default;

void Iterator::SeekForPrev(std::string_view target) {
  Seek(target);
  if (Valid()) {
    if (key() != target) Prev();
  } else if (status().ok()) {
    SeekToLast();  // every key is below target
  }
}

}  // namespace bloomtable
