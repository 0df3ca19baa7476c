# Which build of LevelDB and RocksDB the tests and benchmarks link (the
# library never links either). Every target that links a peer takes it from
# here, so that no binary loads two builds of one peer:
#
#   BLOOMTABLE_RELEASE_PEERS (path, default empty): empty links Debian's
#   packaged peers (libleveldb-dev, librocksdb-dev: fast to set up, but built
#   without NDEBUG, so their assertions run on every lookup). A path links
#   the release builds that bench/build_peers.sh installed there (static
#   archives, NDEBUG on), as `bench/build_peers.sh --print` prints it.
#
# Defines:
#   bloomtable_rocksdb_peer       INTERFACE target linking the chosen RocksDB
#   BLOOMTABLE_LEVELDB_SOURCE_DIR LevelDB's source tree (internal headers) of
#                                 the linked version, or empty
#   BLOOMTABLE_ROCKSDB_SOURCE_DIR RocksDB's, only with release peers (its
#                                 internal headers need the definitions its
#                                 own build used, known only for that build)
#   BLOOMTABLE_ROCKSDB_DEFINITIONS those definitions
#   bloomtable_peer_definitions(TARGET): per-peer version, origin, NDEBUG and
#                                 CRC32C facts as compile definitions
set(BLOOMTABLE_RELEASE_PEERS "" CACHE PATH
  "Install prefix of bench/build_peers.sh's release builds of LevelDB and RocksDB; empty: Debian's packaged peers")

set(_peer_find_args)
set(BLOOMTABLE_LEVELDB_SOURCE_DIR "")
set(BLOOMTABLE_ROCKSDB_SOURCE_DIR "")
set(BLOOMTABLE_ROCKSDB_DEFINITIONS "")
set(_peer_cache ${PROJECT_SOURCE_DIR}/.cache/peers)
if(BLOOMTABLE_RELEASE_PEERS)
  set(_peers_env ${BLOOMTABLE_RELEASE_PEERS}/peers.env)
  if(NOT EXISTS ${_peers_env})
    message(FATAL_ERROR "BLOOMTABLE_RELEASE_PEERS=${BLOOMTABLE_RELEASE_PEERS} "
      "has no peers.env: run bench/build_peers.sh and pass what it prints")
  endif()
  file(STRINGS ${_peers_env} _peer_lines)
  foreach(line IN LISTS _peer_lines)
    if(line MATCHES "^([A-Z_0-9]+)=(.*)$")
      set(_peers_${CMAKE_MATCH_1} "${CMAKE_MATCH_2}")
    endif()
  endforeach()
  set(_peer_find_args PATHS ${BLOOMTABLE_RELEASE_PEERS} NO_DEFAULT_PATH)
  set(BLOOMTABLE_LEVELDB_SOURCE_DIR ${BLOOMTABLE_RELEASE_PEERS}/src/leveldb)
  set(BLOOMTABLE_ROCKSDB_SOURCE_DIR ${BLOOMTABLE_RELEASE_PEERS}/src/rocksdb)
  # Space-separated -D flags.
  separate_arguments(BLOOMTABLE_ROCKSDB_DEFINITIONS UNIX_COMMAND
    "${_peers_ROCKSDB_DEFINITIONS}")
  list(TRANSFORM BLOOMTABLE_ROCKSDB_DEFINITIONS REPLACE "^-D" "")
endif()

if(BLOOMTABLE_WITH_LEVELDB)
  find_package(leveldb CONFIG REQUIRED ${_peer_find_args})
endif()
if(BLOOMTABLE_WITH_ROCKSDB)
  if(BLOOMTABLE_RELEASE_PEERS AND NOT TARGET uring::uring)
    # The release RocksDB is built with liburing, and its exported target
    # names uring::uring without defining it: Debian's liburing, found by
    # pkg-config in the top-level CMakeLists.txt.
    add_library(uring::uring INTERFACE IMPORTED)
    target_link_libraries(uring::uring INTERFACE PkgConfig::LIBURING)
  endif()
  find_package(RocksDB CONFIG REQUIRED ${_peer_find_args})
  add_library(bloomtable_rocksdb_peer INTERFACE)
  if(BLOOMTABLE_RELEASE_PEERS)
    target_link_libraries(bloomtable_rocksdb_peer INTERFACE RocksDB::rocksdb)
  else()
    # Debian's shared RocksDB (RocksDB::rocksdb is Debian's static archive).
    target_link_libraries(bloomtable_rocksdb_peer INTERFACE
      RocksDB::rocksdb-shared)
  endif()
endif()

# The Debian version of an installed package, e.g. 1.23-4.
function(_bloomtable_deb_version package out)
  execute_process(COMMAND dpkg-query -W "-f=\${source:Version}" ${package}
    OUTPUT_VARIABLE version ERROR_QUIET RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    set(version "unknown")
  endif()
  set(${out} "${version}" PARENT_SCOPE)
endfunction()

# Counts the calls to __assert_fail in a shared library: a build with NDEBUG
# has none. Cached per file.
function(_bloomtable_assert_sites library out)
  file(REAL_PATH "${library}" real)
  file(SIZE "${real}" size)
  string(MAKE_C_IDENTIFIER "${real}_${size}" key)
  if(NOT DEFINED _BLOOMTABLE_ASSERT_SITES_${key})
    execute_process(
      COMMAND sh -c "objdump -d --no-show-raw-insn '${real}' | grep -c 'call.*<__assert_fail@plt>'"
      OUTPUT_VARIABLE count OUTPUT_STRIP_TRAILING_WHITESPACE)
    if(count STREQUAL "")
      set(count -1)
    endif()
    set(_BLOOMTABLE_ASSERT_SITES_${key} ${count} CACHE INTERNAL "")
  endif()
  set(${out} ${_BLOOMTABLE_ASSERT_SITES_${key}} PARENT_SCOPE)
endfunction()

set(_peer_defs)
if(BLOOMTABLE_RELEASE_PEERS)
  list(APPEND _peer_defs
    "BLOOMTABLE_PEER_LEVELDB_VERSION=\"${_peers_LEVELDB_VERSION}\""
    "BLOOMTABLE_PEER_ROCKSDB_VERSION=\"${_peers_ROCKSDB_VERSION}\""
    "BLOOMTABLE_PEER_LEVELDB_ORIGIN=\"release build from source\""
    "BLOOMTABLE_PEER_ROCKSDB_ORIGIN=\"release build from source\""
    BLOOMTABLE_PEER_LEVELDB_NDEBUG=1
    BLOOMTABLE_PEER_ROCKSDB_NDEBUG=1
    "BLOOMTABLE_PEER_LEVELDB_NDEBUG_EVIDENCE=\"bench/build_peers.sh: CMAKE_BUILD_TYPE=Release, ${_peers_KEY}\""
    "BLOOMTABLE_PEER_ROCKSDB_NDEBUG_EVIDENCE=\"bench/build_peers.sh: CMAKE_BUILD_TYPE=Release, ${_peers_KEY}\"")
  if(_peers_LEVELDB_HAVE_CRC32C)
    list(APPEND _peer_defs
      "BLOOMTABLE_PEER_LEVELDB_CRC32C=\"Google's crc32c library (hardware where the CPU has it)\"")
  else()
    list(APPEND _peer_defs
      "BLOOMTABLE_PEER_LEVELDB_CRC32C=\"software: built without Google's crc32c library, which Debian 12 does not ship\"")
  endif()
else()
  _bloomtable_deb_version(libleveldb-dev _leveldb_deb)
  _bloomtable_deb_version(librocksdb-dev _rocksdb_deb)
  foreach(peer IN ITEMS leveldb rocksdb)
    string(TOUPPER ${peer} PEER)
    if(peer STREQUAL "leveldb")
      set(target leveldb::leveldb)
      set(enabled ${BLOOMTABLE_WITH_LEVELDB})
    else()
      set(target RocksDB::rocksdb-shared)
      set(enabled ${BLOOMTABLE_WITH_ROCKSDB})
    endif()
    set(sites -1)
    if(enabled)
      get_target_property(location ${target} LOCATION)
      _bloomtable_assert_sites("${location}" sites)
      get_filename_component(libname "${location}" NAME)
      list(APPEND _peer_defs
        "BLOOMTABLE_PEER_${PEER}_NDEBUG_EVIDENCE=\"${libname}: ${sites} __assert_fail call sites (objdump -d)\"")
      if(peer STREQUAL "leveldb")
        execute_process(COMMAND sh -c "readelf -d '${location}' | grep -c 'NEEDED.*crc32c'"
          OUTPUT_VARIABLE crc OUTPUT_STRIP_TRAILING_WHITESPACE)
        if(crc STREQUAL "0")
          list(APPEND _peer_defs
            "BLOOMTABLE_PEER_LEVELDB_CRC32C=\"software: Debian's package does not link Google's crc32c library, which Debian 12 does not ship\"")
        else()
          list(APPEND _peer_defs
            "BLOOMTABLE_PEER_LEVELDB_CRC32C=\"Google's crc32c library (hardware where the CPU has it)\"")
        endif()
      endif()
    endif()
    if(sites EQUAL 0)
      list(APPEND _peer_defs BLOOMTABLE_PEER_${PEER}_NDEBUG=1)
    elseif(sites GREATER 0)
      list(APPEND _peer_defs BLOOMTABLE_PEER_${PEER}_NDEBUG=0)
    endif()
  endforeach()
  list(APPEND _peer_defs
    "BLOOMTABLE_PEER_LEVELDB_VERSION=\"${_leveldb_deb}\""
    "BLOOMTABLE_PEER_ROCKSDB_VERSION=\"${_rocksdb_deb}\""
    "BLOOMTABLE_PEER_LEVELDB_ORIGIN=\"Debian package\""
    "BLOOMTABLE_PEER_ROCKSDB_ORIGIN=\"Debian package\""
)
  # The filter-aware LevelDB table row compiles LevelDB's TableCache from the
  # source package of the linked version, where bench/build_peers.sh --fetch
  # unpacked it.
  # (db_bench says so where it is not.)
  if(EXISTS ${_peer_cache}/src/leveldb-${_leveldb_deb}/db/table_cache.cc)
    set(BLOOMTABLE_LEVELDB_SOURCE_DIR ${_peer_cache}/src/leveldb-${_leveldb_deb})
  endif()
endif()

function(bloomtable_peer_definitions target)
  target_compile_definitions(${target} PRIVATE ${_peer_defs})
endfunction()
