"""Key ranges of about equal bytes over several databases or table files,
for scans that spread over processes (bloomtable.dask uses them)."""

import os
from typing import Iterable, List, NamedTuple, Optional, Union

from ._bloomtable import Database, Table

PathLike = Union[str, "os.PathLike[str]"]


class Partition(NamedTuple):
    """One scan: the keys of `path` in [start, stop) (None: an open end).

    `kind` is "database" (a LevelDB database directory) or "table" (a table
    file)."""

    path: str
    kind: str
    start: Optional[bytes]
    stop: Optional[bytes]

    def open(self, **open_kwargs):
        """The Database or Table of this partition (a context manager)."""
        opener = Database if self.kind == "database" else Table
        return opener(self.path, **open_kwargs)


def _kind_of(path: str, kind: Optional[str]) -> str:
    if kind is not None:
        if kind not in ("database", "table"):
            raise ValueError(f"kind must be 'database' or 'table', not {kind!r}")
        return kind
    return "database" if os.path.isdir(path) else "table"


def _size_of(source, path: str, kind: str) -> int:
    if kind == "table":
        return os.path.getsize(path)
    size = sum(t["size"] for t in source.tables())
    for log in source.logs():
        try:
            size += os.path.getsize(os.path.join(path, log["name"]))
        except OSError:
            pass  # a log that went away holds nothing to split
    return size


def partitions(paths: Union[PathLike, Iterable[PathLike]], n: int, *,
               kind: Optional[str] = None, **open_kwargs) -> List[Partition]:
    """At most about `n` Partitions over `paths` (one path or several: database
    directories or table files; `kind` "database" or "table" says which, else
    each path's type does), in the order of the paths, then of the keys.

    Each source gets a share of `n` in proportion to its bytes (at least one),
    and its own ranges come from Database.partitions or Table.partitions: from
    index blocks and the MANIFEST, without reading data blocks. `open_kwargs`
    go to Database() or Table()."""
    if isinstance(paths, (str, bytes, os.PathLike)):
        paths = [paths]
    paths = [os.fsdecode(p) for p in paths]
    if n < 1:
        raise ValueError("n must be at least 1")
    kinds = [_kind_of(p, kind) for p in paths]
    sizes = []
    for path, k in zip(paths, kinds):
        opener = Database if k == "database" else Table
        with opener(path, **open_kwargs) as source:
            sizes.append(_size_of(source, path, k))
    total = sum(sizes)
    out: List[Partition] = []
    for path, k, size in zip(paths, kinds, sizes):
        share = max(1, round(n * size / total)) if total else 1
        opener = Database if k == "database" else Table
        with opener(path, **open_kwargs) as source:
            for start, stop in source.partitions(share):
                out.append(Partition(path, k, start, stop))
    return out
