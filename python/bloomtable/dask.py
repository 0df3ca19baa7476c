"""Dask DataFrames over LevelDB databases and table files: one partition per
key range of about equal bytes (bloomtable.partitions), each read by a worker
through the Arrow stream of an iterator, so that a scan spreads over a
cluster's processes.

    import bloomtable.dask
    import pyarrow as pa, pyarrow.compute as pc
    df = bloomtable.dask.read_database(["profile1/leveldb", "profile2/leveldb"],
                                       npartitions=16)
    df["value"].map_partitions(lambda s: pc.sum(pc.binary_length(pa.array(s))).as_py() or 0,
                               meta=("value", "int64")).compute()

Needs dask[dataframe] and pyarrow (not dependencies of bloomtable itself).
Columns are `key` and `value` as pandas' ArrowDtype(pyarrow.binary()), rows in
the order of the paths, then of the keys; each partition's index starts at 0.
"""

import functools
from typing import Iterable, Optional, Sequence, Union

import dask.dataframe as dd
import pandas as pd
import pyarrow as pa

from ._partitions import Partition, PathLike, partitions

__all__ = ["read_database", "read_tables"]

_COLUMNS = ("key", "value")


def _empty(columns: Sequence[str], path_column: Optional[str]) -> pd.DataFrame:
    frame = pd.DataFrame({c: pd.Series([], dtype=pd.ArrowDtype(pa.binary()))
                          for c in columns})
    if path_column is not None:
        frame[path_column] = pd.Series([], dtype=pd.ArrowDtype(pa.string()))
    return frame


def _read_partition(part: Partition, columns: Sequence[str],
                    path_column: Optional[str], open_kwargs: dict,
                    iterator_kwargs: dict) -> pd.DataFrame:
    with part.open(**open_kwargs) as source:
        rows = source.iterator(start=part.start, stop=part.stop,
                               include_key="key" in columns,
                               include_value="value" in columns,
                               **iterator_kwargs)
        table = pa.table(rows)
    frame = table.select(list(columns)).to_pandas(types_mapper=pd.ArrowDtype)
    if path_column is not None:
        frame[path_column] = pd.Series([part.path] * len(frame),
                                       dtype=pd.ArrowDtype(pa.string()))
    return frame


def _read(paths, npartitions, kind, columns, path_column, open_kwargs,
          iterator_kwargs) -> dd.DataFrame:
    columns = tuple(columns)
    if not columns or any(c not in _COLUMNS for c in columns):
        raise ValueError(f"columns must be a non-empty subset of {_COLUMNS}")
    if isinstance(paths, (str, bytes)) or hasattr(paths, "__fspath__"):
        paths = [paths]
    paths = list(paths)
    if npartitions is None:
        npartitions = len(paths)
    parts = partitions(paths, npartitions, kind=kind, **open_kwargs)
    read = functools.partial(_read_partition, columns=columns,
                             path_column=path_column, open_kwargs=open_kwargs,
                             iterator_kwargs=iterator_kwargs)
    return dd.from_map(read, parts, meta=_empty(columns, path_column),
                       label=f"bloomtable-read-{kind}s", enforce_metadata=False)


def read_database(paths: Union[PathLike, Iterable[PathLike]],
                  npartitions: Optional[int] = None, *,
                  columns: Sequence[str] = _COLUMNS,
                  path_column: Optional[str] = None,
                  sequence: Optional[int] = None, **open_kwargs) -> dd.DataFrame:
    """A Dask DataFrame of the newest value of every key of the LevelDB
    databases at `paths` (one directory or several), in about `npartitions`
    partitions of about equal bytes (default: one per database).

    columns: "key", "value" or both (default).
    path_column: the name of a column holding each row's database path
        (default: none).
    sequence: each database as of that sequence number.
    open_kwargs: passed to bloomtable.Database() in the client (to plan the
        partitions) and in each task (e.g. max_open_files, verify_checksums).
    """
    return _read(paths, npartitions, "database", columns, path_column,
                 open_kwargs, {"sequence": sequence})


def read_tables(paths: Union[PathLike, Iterable[PathLike]],
                npartitions: Optional[int] = None, *,
                columns: Sequence[str] = _COLUMNS,
                path_column: Optional[str] = None, **open_kwargs) -> dd.DataFrame:
    """A Dask DataFrame of the entries of the table files at `paths`, in
    about `npartitions` partitions of about equal stored bytes (default: one
    per file); as read_database otherwise. `open_kwargs` go to
    bloomtable.Table() (e.g. internal_keys=True for a database's .ldb files,
    whose keys are then internal keys)."""
    return _read(paths, npartitions, "table", columns, path_column,
                 open_kwargs, {})
