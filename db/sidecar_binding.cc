#include "db/sidecar_binding.h"

#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "bloomtable/db_files.h"
#include "table/corruption.h"
#include "table/format.h"
#include "table/table_structure.h"
#include "util/string_util.h"

namespace bloomtable {
namespace {

// The trailer of the block at `handle`, which must lie before `limit`.
absl::StatusOr<std::string> ReadTrailer(const RandomAccessFile& file,
                                        const BlockHandle& handle,
                                        uint64_t limit, std::string_view kind) {
  if (!handle.FitsWithin(limit)) {
    return CorruptionAt(
        file.name(), handle.offset(),
        absl::StrCat(ToAbsl(kind), " block (size ", handle.size(),
                     "): runs past the end of the file"));
  }
  char scratch[kSidecarTrailerSize];
  std::string_view bytes;
  absl::Status status = file.Read(handle.offset() + handle.size(),
                                  kSidecarTrailerSize, &bytes, scratch);
  if (!status.ok()) return status;
  if (bytes.size() != kSidecarTrailerSize) {
    return CorruptionAt(file.name(), handle.offset(),
                        absl::StrCat(ToAbsl(kind), " block (size ",
                                     handle.size(), "): truncated trailer"));
  }
  return std::string(bytes);
}

}  // namespace

absl::StatusOr<SidecarBinding> ReadTableFileBinding(
    const RandomAccessFile& file, uint64_t file_size) {
  absl::Status status = CheckTableFileSize(file.name(), file_size);
  if (!status.ok()) return status;
  const uint64_t footer_offset = file_size - Footer::kEncodedLength;
  char scratch[Footer::kEncodedLength];
  std::string_view bytes;
  status = file.Read(footer_offset, Footer::kEncodedLength, &bytes, scratch);
  if (!status.ok()) return status;
  if (bytes.size() != Footer::kEncodedLength) {
    return CorruptionAt(file.name(), footer_offset, "footer: truncated read");
  }
  SidecarBinding binding;
  binding.kind = SidecarTableKind::kTableFile;
  binding.file_size = file_size;
  binding.footer = std::string(bytes);
  // The footer's checks and wording are the table layer's (ReadFooter).
  Footer footer;
  status = footer.DecodeFrom(bytes);
  if (status.ok()) status = CheckFooterLayout(footer, footer_offset);
  if (absl::IsDataLoss(status)) {
    return CorruptionAt(file.name(), footer_offset, FromAbsl(status.message()));
  }
  if (!status.ok()) {
    return absl::Status(status.code(),
                        absl::StrCat(file.name(), ": ", status.message()));
  }

  absl::StatusOr<std::string> trailer =
      ReadTrailer(file, footer.index_handle(), footer_offset, "index");
  if (!trailer.ok()) return trailer.status();
  binding.index_trailer = *std::move(trailer);

  const BlockHandle& metaindex_handle = footer.metaindex_handle();
  trailer = ReadTrailer(file, metaindex_handle, footer_offset, "metaindex");
  if (!trailer.ok()) return trailer.status();
  binding.meta_trailers.push_back(*std::move(trailer));
  ReadBlockOptions read_options;
  read_options.readable_limit = footer_offset;
  absl::StatusOr<std::vector<MetaindexEntry>> metaindex =
      ReadMetaindex(file, footer, read_options, /*report=*/nullptr);
  if (!metaindex.ok()) return metaindex.status();
  for (const MetaindexEntry& entry : *metaindex) {
    trailer = ReadTrailer(file, entry.handle, footer_offset, "meta");
    if (!trailer.ok()) return trailer.status();
    binding.meta_trailers.push_back(*std::move(trailer));
  }
  return binding;
}

absl::StatusOr<SidecarBinding> ReadDatabaseTableBinding(
    const std::string& dir, const DatabaseTableFile& table) {
  const std::string path = absl::StrCat(dir, "/", table.name);
  absl::StatusOr<uint64_t> actual = GetFileSize(path);
  if (!actual.ok()) return actual.status();
  if (*actual < table.size) {
    return absl::DataLossError(
        absl::StrCat(path, ": table is shorter (", *actual,
                     " bytes) than the MANIFEST records (", table.size, ")"));
  }
  absl::StatusOr<std::unique_ptr<RandomAccessFile>> file =
      OpenRandomAccessFile(path);
  if (!file.ok()) return file.status();
  absl::StatusOr<SidecarBinding> binding =
      ReadTableFileBinding(**file, table.size);
  if (!binding.ok()) return binding.status();
  binding->kind = SidecarTableKind::kDatabaseTable;
  binding->file_number = table.number;
  binding->smallest = table.smallest;
  binding->largest = table.largest;
  return binding;
}

std::string BindingMismatch(const SidecarBinding& recorded,
                            const SidecarBinding& actual) {
  if (recorded.kind != actual.kind) return "it was built for another kind";
  if (recorded.file_number != actual.file_number) {
    return absl::StrCat("it was built for table ", recorded.file_number);
  }
  if (recorded.file_size != actual.file_size) {
    return absl::StrCat("it was built for a table of ", recorded.file_size,
                        " bytes, not ", actual.file_size);
  }
  if (recorded.smallest != actual.smallest ||
      recorded.largest != actual.largest) {
    return "the MANIFEST records another key range for the table";
  }
  if (recorded.footer != actual.footer) return "the table's footer differs";
  if (recorded.index_trailer != actual.index_trailer) {
    return "the table's index block differs";
  }
  if (recorded.meta_trailers != actual.meta_trailers) {
    return "the table's meta blocks (its filter) differ";
  }
  return "";
}

}  // namespace bloomtable
