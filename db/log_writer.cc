// LogWriter: each record is cut at block boundaries into fragments.

#include "db/log_writer.h"

#include <algorithm>
#include <string>

#include "db/log_format.h"
#include "util/coding.h"
#include "util/crc32c.h"

namespace bloomtable {

LogWriter::LogWriter(WritableFile* file, uint64_t initial_length)
    : file_(file),
      block_offset_(static_cast<size_t>(initial_length % log::kBlockSize)) {}

absl::Status LogWriter::EmitFragment(int type, std::string_view fragment) {
  //   [masked crc32c(type, payload): fixed32][length: fixed16][type: u8]
  char header[log::kHeaderSize];
  header[4] = static_cast<char>(fragment.size() & 0xff);
  header[5] = static_cast<char>(fragment.size() >> 8);
  header[6] = static_cast<char>(type);
  uint32_t crc = crc32c::Value(header + 6, 1);
  crc = crc32c::Extend(crc, fragment.data(), fragment.size());
  EncodeFixed32(header, crc32c::Mask(crc));
  status_ = file_->Append(std::string_view(header, log::kHeaderSize));
  if (status_.ok()) status_ = file_->Append(fragment);
  block_offset_ += log::kHeaderSize + fragment.size();
  return status_;
}

absl::Status LogWriter::AddRecord(std::string_view payload) {
  if (!status_.ok()) return status_;
  bool first = true;
  // Even an empty record gets one (empty) fragment.
  do {
    const size_t left = log::kBlockSize - block_offset_;
    if (left < log::kHeaderSize) {
      if (left > 0) {
        status_ = file_->Append(std::string(left, '\0'));
        if (!status_.ok()) return status_;
      }
      block_offset_ = 0;
    }
    const size_t room = log::kBlockSize - block_offset_ - log::kHeaderSize;
    const size_t length = std::min(room, payload.size());
    const bool last = length == payload.size();
    const int type = first && last ? log::kFullType
                     : first       ? log::kFirstType
                     : last        ? log::kLastType
                                   : log::kMiddleType;
    if (!EmitFragment(type, payload.substr(0, length)).ok()) return status_;
    payload.remove_prefix(length);
    first = false;
    if (last) break;
  } while (true);
  return status_;
}

}  // namespace bloomtable
