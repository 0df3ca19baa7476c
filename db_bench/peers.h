// What db_bench's result JSON says about the peers it was linked with, per
// peer (LevelDB, RocksDB): version, origin (a Debian package, or a release
// build from Debian's source package by bench/build_peers.sh), whether
// NDEBUG was on (for a release build: its recipe; for a package: from the
// __assert_fail call sites counted in its library when bloomtable was
// configured, cmake/Peers.cmake) and how it computes CRC32C. bench/report.py
// refuses cross-engine ratios from results without these fields or from
// peers with NDEBUG off.

#ifndef BLOOMTABLE_DB_BENCH_PEERS_H_
#define BLOOMTABLE_DB_BENCH_PEERS_H_

#include <string>

#include "nlohmann/json.hpp"

namespace bloomtable {
namespace db_bench {

// {"leveldb": {...}, "rocksdb": {...}}, one object for each peer this
// binary links: version, library_version, origin, ndebug (true, false, or
// null where unknown), ndebug_evidence, crc32c.
nlohmann::json PeersJson();

// One line for the end of db_bench's output: which builds of the peers ran,
// and, for packages with assertions on, that they are not production builds.
std::string PeersSummary();

}  // namespace db_bench
}  // namespace bloomtable

#endif  // BLOOMTABLE_DB_BENCH_PEERS_H_
