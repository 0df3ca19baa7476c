"""bloomtable: LevelDB-format table files (SSTables), filters and database
directories, from Python.

Read a table (including a LevelDB database's own .ldb files), write one,
read a whole LevelDB database directory without its LOCK (Database, with
plyvel's iterators), hand either to pyarrow, Polars or DuckDB through the
Arrow PyCapsule interface, spread a scan over a Dask cluster
(bloomtable.dask), or use a Bloom or Ribbon filter on its own:

    import bloomtable

    bloomtable.build_table("fruit.ldb", {b"apple": b"red", b"banana": b"yellow"},
                           sort=True)
    with bloomtable.Table("fruit.ldb") as t:
        t[b"apple"]                       # b'red'
        list(t.items(start=b"b"))         # [(b'banana', b'yellow')]

    f = bloomtable.Filter.build([b"a", b"b"], "ribbon", fp_rate=0.01)
    b"a" in f                             # True

    with bloomtable.Database("some/leveldb/dir") as db:
        db.get(b"key")                    # newest value, or None
        for key, value in db.iterator(prefix=b"user:"):
            ...
        [r.status for r in db.versions()] # 'live', 'overwritten', ...
        pyarrow.table(db)                 # key and value columns

    # Sidecar filters: a Ribbon filter per table, kept outside the database.
    bloomtable.build_filters("some/leveldb/dir", into="some/filters")
    with bloomtable.Database.open("some/leveldb/dir",
                                  filters_dir="some/filters") as db:
        db.get(b"absent")                 # usually no table read at all
        db.stats()["sidecar_filter_negatives"]

Errors: bloomtable.Error and its subclasses CorruptionError (damaged
bytes), UnsupportedError (a valid file this build does not read),
ResourceLimitError and InvalidArgumentError (misuse; also a ValueError);
OSError with its errno for file-system errors; KeyError from t[key] only.

The classes are those of the C++ extension _bloomtable; help() on each
documents it.
"""

from ._bloomtable import (
    BlockCache,
    CorruptionError,
    Database,
    DatabaseIterator,
    Error,
    Filter,
    FilterPolicy,
    InvalidArgumentError,
    PrefixedDatabase,
    PrefixExtractor,
    RawIterator,
    ResourceLimitError,
    SalvageWarning,
    Table,
    TableBuilder,
    TableIterator,
    UnsupportedError,
    VersionIterator,
    VersionRecord,
    __version__,
    bloom_false_positive_rate,
    bloom_sizing_for_rate,
    build_filters,
    build_table,
    decode_local_storage,
)
from ._partitions import Partition, partitions

__all__ = [
    "BlockCache",
    "CorruptionError",
    "Database",
    "DatabaseIterator",
    "Error",
    "Filter",
    "FilterPolicy",
    "InvalidArgumentError",
    "Partition",
    "PrefixedDatabase",
    "PrefixExtractor",
    "RawIterator",
    "ResourceLimitError",
    "SalvageWarning",
    "Table",
    "TableBuilder",
    "TableIterator",
    "UnsupportedError",
    "VersionIterator",
    "VersionRecord",
    "__version__",
    "bloom_false_positive_rate",
    "bloom_sizing_for_rate",
    "build_filters",
    "build_table",
    "decode_local_storage",
    "partitions",
]
