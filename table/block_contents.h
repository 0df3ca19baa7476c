// BlockContents: a block's uncompressed bytes and the buffer that holds them,
// as ReadBlock returns them and Block::Parse takes them.

#ifndef BLOOMTABLE_TABLE_BLOCK_CONTENTS_H_
#define BLOOMTABLE_TABLE_BLOCK_CONTENTS_H_

#include <memory>
#include <string_view>

namespace bloomtable {

// Move-only; `data` stays valid while `owned` lives (moving keeps it valid).
struct BlockContents {
  std::string_view data;
  std::unique_ptr<char[]> owned;
};

}  // namespace bloomtable

#endif  // BLOOMTABLE_TABLE_BLOCK_CONTENTS_H_
