#include "db_bench/peers.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#ifdef BLOOMTABLE_DB_BENCH_WITH_LEVELDB
#include "leveldb/db.h"
#endif
#ifdef BLOOMTABLE_DB_BENCH_WITH_ROCKSDB
#include "rocksdb/version.h"

// RocksDB's own report of its CRC32C (util/crc32c.h, not installed): "Supported
// on x86" where it uses SSE4.2's crc32 instruction, "Not supported on x86"
// where it computes in software (a PORTABLE build without FORCE_SSE42).
namespace rocksdb {
namespace crc32c {
std::string IsFastCrc32Supported();
}  // namespace crc32c
}  // namespace rocksdb
#endif

namespace bloomtable {
namespace db_bench {
namespace {

#ifndef BLOOMTABLE_PEER_LEVELDB_NDEBUG_EVIDENCE
#define BLOOMTABLE_PEER_LEVELDB_NDEBUG_EVIDENCE "unknown"
#endif
#ifndef BLOOMTABLE_PEER_ROCKSDB_NDEBUG_EVIDENCE
#define BLOOMTABLE_PEER_ROCKSDB_NDEBUG_EVIDENCE "unknown"
#endif

nlohmann::json NdebugJson(int ndebug) {
  if (ndebug < 0) return nullptr;
  return ndebug == 1;
}

#ifdef BLOOMTABLE_DB_BENCH_WITH_LEVELDB
nlohmann::json LevelDBJson() {
#ifdef BLOOMTABLE_PEER_LEVELDB_NDEBUG
  const int ndebug = BLOOMTABLE_PEER_LEVELDB_NDEBUG;
#else
  const int ndebug = -1;
#endif
#ifdef BLOOMTABLE_PEER_LEVELDB_CRC32C
  const std::string crc32c = BLOOMTABLE_PEER_LEVELDB_CRC32C;
#else
  const std::string crc32c = "unknown";
#endif
  return {{"version", BLOOMTABLE_PEER_LEVELDB_VERSION},
          {"library_version", absl::StrFormat("%d.%d", leveldb::kMajorVersion,
                                              leveldb::kMinorVersion)},
          {"origin", BLOOMTABLE_PEER_LEVELDB_ORIGIN},
          {"ndebug", NdebugJson(ndebug)},
          {"ndebug_evidence", BLOOMTABLE_PEER_LEVELDB_NDEBUG_EVIDENCE},
          {"crc32c", crc32c}};
}
#endif

#ifdef BLOOMTABLE_DB_BENCH_WITH_ROCKSDB
nlohmann::json RocksDBJson() {
#ifdef BLOOMTABLE_PEER_ROCKSDB_NDEBUG
  const int ndebug = BLOOMTABLE_PEER_ROCKSDB_NDEBUG;
#else
  const int ndebug = -1;
#endif
  const std::string fast = rocksdb::crc32c::IsFastCrc32Supported();
  const bool hardware = fast.rfind("Supported", 0) == 0;
  return {{"version", BLOOMTABLE_PEER_ROCKSDB_VERSION},
          {"library_version", absl::StrFormat("%d.%d.%d", ROCKSDB_MAJOR,
                                              ROCKSDB_MINOR, ROCKSDB_PATCH)},
          {"origin", BLOOMTABLE_PEER_ROCKSDB_ORIGIN},
          {"ndebug", NdebugJson(ndebug)},
          {"ndebug_evidence", BLOOMTABLE_PEER_ROCKSDB_NDEBUG_EVIDENCE},
          {"crc32c", absl::StrCat(hardware ? "hardware" : "software",
                                  " (rocksdb::crc32c::IsFastCrc32Supported: ",
                                  fast, ")")}};
}
#endif

}  // namespace

nlohmann::json PeersJson() {
  nlohmann::json peers = nlohmann::json::object();
#ifdef BLOOMTABLE_DB_BENCH_WITH_LEVELDB
  peers["leveldb"] = LevelDBJson();
#endif
#ifdef BLOOMTABLE_DB_BENCH_WITH_ROCKSDB
  peers["rocksdb"] = RocksDBJson();
#endif
  return peers;
}

std::string PeersSummary() {
  const nlohmann::json peers = PeersJson();
  if (peers.empty()) return "Peers: none linked.";
  std::vector<std::string> parts;
  bool assert_enabled = false;
  for (const auto& [name, peer] : peers.items()) {
    std::string ndebug = "NDEBUG unknown";
    if (peer["ndebug"].is_boolean()) {
      ndebug = peer["ndebug"].get<bool>() ? "NDEBUG on" : "NDEBUG off";
      assert_enabled |= !peer["ndebug"].get<bool>();
    }
    parts.push_back(absl::StrCat(name, " ", peer["version"].get<std::string>(),
                                 " (", peer["origin"].get<std::string>(), ", ",
                                 ndebug, ")"));
  }
  std::string line = absl::StrCat("Peers: ", absl::StrJoin(parts, "; "), ".");
  if (assert_enabled) {
    absl::StrAppend(
        &line,
        " These are assert-enabled builds, not what production users run: "
        "their figures are not results; for release peers configure with "
        "-DBLOOMTABLE_RELEASE_PEERS=$(bench/build_peers.sh).");
  }
  return line;
}

}  // namespace db_bench
}  // namespace bloomtable
