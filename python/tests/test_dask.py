"""bloomtable.dask and bloomtable.partitions: a scan split into key ranges
of about equal bytes, read on a dask.distributed LocalCluster of two worker
processes, equals the scan of one process row for row."""

import os

import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pytest
from dask.distributed import Client, LocalCluster

import bloomtable
import bloomtable.dask
from leveldb_writes import write_levels_and_log


@pytest.fixture(scope="module")
def client():
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=None) as cluster, Client(cluster) as c:
        yield c


@pytest.fixture(scope="module")
def databases(tmp_path_factory):
    base = tmp_path_factory.mktemp("dask")
    return [write_levels_and_log(base / name) for name in ("a", "b")]


def value_bytes(values: pd.Series) -> pd.Series:
    """The bytes of a partition's values, as the README's Dask example sums them."""
    return pd.Series([pc.sum(pc.binary_length(pa.array(values))).as_py() or 0])


def scan(path, **kwargs):
    with bloomtable.Database(path) as db:
        return pa.table(db.iterator(**kwargs)).to_pandas(types_mapper=pd.ArrowDtype)


def test_partitions_cover_every_key_once_in_order(databases):
    path = databases[0].path
    with bloomtable.Database(path) as db:
        whole = list(db.iterator())
        for n in (1, 2, 3, 8):
            ranges = db.partitions(n)
            assert 1 <= len(ranges) <= n
            assert ranges[0][0] is None and ranges[-1][1] is None
            assert all(a[1] == b[0] for a, b in zip(ranges, ranges[1:]))
            parts = [list(db.iterator(start=start, stop=stop)) for start, stop in ranges]
            assert sum(parts, []) == whole
            if n > 1:
                assert len(ranges) > 1
    with pytest.raises(ValueError):
        bloomtable.Database(path).partitions(0)


def test_read_database_on_two_worker_processes_equals_one_scan(client, databases):
    path = databases[0].path
    expected = scan(path)
    frame = bloomtable.dask.read_database(path, npartitions=4)
    assert frame.npartitions >= 2
    got = frame.compute(scheduler=client.get).reset_index(drop=True)
    pd.testing.assert_frame_equal(got, expected)
    # Each worker process read some partitions.
    assert len(client.scheduler_info()["workers"]) == 2


def test_several_databases_keep_their_order_and_name_their_rows(client, databases):
    paths = [w.path for w in databases]
    frame = bloomtable.dask.read_database(paths, npartitions=6, path_column="path",
                                          columns=["key"])
    got = frame.compute(scheduler=client.get).reset_index(drop=True)
    expected = pd.concat([scan(p, include_value=False).assign(path=p) for p in paths],
                         ignore_index=True)
    assert got["key"].tolist() == expected["key"].tolist()
    assert got["path"].tolist() == expected["path"].tolist()


def test_read_tables_of_a_database_files(client, databases):
    path = databases[0].path
    with bloomtable.Database(path) as db:
        names = [t["name"] for t in db.tables()]
    files = [os.path.join(path, name) for name in names]
    frame = bloomtable.dask.read_tables(files, npartitions=5, internal_keys=True)
    got = frame.compute(scheduler=client.get).reset_index(drop=True)
    rows = []
    for f in files:
        with bloomtable.Table(f, internal_keys=True) as t:
            rows += list(t.items())
    assert list(zip(got["key"].tolist(), got["value"].tolist())) == rows


def test_a_reduction_per_partition(client, databases):
    path = databases[0].path
    frame = bloomtable.dask.read_database(path, npartitions=3, columns=["value"])
    sizes = frame["value"].map_partitions(value_bytes, meta=("value", "int64")).compute(
        scheduler=client.get)
    assert len(sizes) == frame.npartitions
    assert int(sizes.sum()) == sum(len(v) for v in databases[0].model().values())


def test_bloomtable_partitions_over_files_and_directories(databases):
    parts = bloomtable.partitions([w.path for w in databases], 5)
    assert {p.kind for p in parts} == {"database"}
    assert [p.path for p in parts] == sorted((p.path for p in parts),
                                             key=[w.path for w in databases].index)
    for w in databases:
        own = [p for p in parts if p.path == w.path]
        rows = []
        for p in own:
            with p.open() as db:
                rows += list(db.iterator(start=p.start, stop=p.stop))
        assert rows == sorted(w.model().items())
