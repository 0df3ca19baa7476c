"""Arrow export through the Arrow PyCapsule interface (__arrow_c_stream__):
pyarrow, Polars and DuckDB read tables, databases, their iterators and the
version listing without a Python loop, and get what iteration yields."""

import threading

import duckdb
import polars as pl
import pyarrow as pa
import pytest

import bloomtable
from leveldb_writes import key_of


def columns(table: pa.Table):
    return {name: table.column(name).to_pylist() for name in table.column_names}


def test_pyarrow_reads_a_table_as_binary_columns(table_path, model):
    with bloomtable.Table(table_path) as t:
        got = pa.table(t)
    assert got.schema == pa.schema([pa.field("key", pa.binary(), nullable=False),
                                    pa.field("value", pa.binary(), nullable=False)])
    assert list(zip(*columns(got).values())) == sorted(model.items())


def test_pyarrow_reads_a_database_and_its_iterators(written):
    model = written.model()
    with bloomtable.Database(written.path) as db:
        whole = pa.table(db)
        assert list(zip(whole["key"].to_pylist(), whole["value"].to_pylist())) == sorted(
            model.items())
        ranged = pa.table(db.iterator(start=key_of(100), stop=key_of(200), reverse=True,
                                      include_value=False))
        assert ranged.column_names == ["key"]
        assert ranged["key"].to_pylist() == sorted(
            (k for k in model if key_of(100) <= k < key_of(200)), reverse=True)
        values = pa.table(db.iterator(prefix=b"key01", include_key=False))
        assert values.column_names == ["value"]
        assert values["value"].to_pylist() == [v for k, v in sorted(model.items())
                                               if k.startswith(b"key01")]
        # An iterator exports what it has not handed out, and stays where it
        # stands; after a prev() too.
        it = db.iterator()
        first = [next(it) for _ in range(5)]
        rest = pa.table(it)
        assert first + list(zip(rest["key"].to_pylist(), rest["value"].to_pylist())) == sorted(
            model.items())
        assert next(it) == sorted(model.items())[5]
        it.prev()
        assert pa.table(it)["key"].to_pylist() == sorted(model)[5:]
        reverse = db.iterator(reverse=True, include_value=False)
        next(reverse)
        assert pa.table(reverse)["key"].to_pylist() == sorted(model, reverse=True)[1:]
        prefixed = pa.table(db.prefixed_db(b"key00"))
        assert prefixed["key"].to_pylist() == [k[5:] for k in sorted(model)
                                               if k.startswith(b"key00")]


def test_versions_export_every_field(written):
    with bloomtable.Database(written.path) as db:
        records = list(db.versions())
        table = pa.table(db.versions())
        partly = db.versions()
        head = [next(partly) for _ in range(10)]
        tail = pa.table(partly)
        assert next(partly).key == records[10].key
    assert table.schema.names == ["key", "sequence", "type", "value", "status", "file",
                                  "offset"]
    assert table.schema.field("sequence").type == pa.uint64()
    assert table.schema.field("type").type == pa.string()
    expected = [(r.key, r.sequence, r.type, r.value, r.status, r.file, r.offset)
                for r in records]
    assert list(zip(*columns(table).values())) == expected
    assert [(r.key, r.sequence) for r in head] + list(
        zip(tail["key"].to_pylist(), tail["sequence"].to_pylist())) == [
        (r.key, r.sequence) for r in records]


def test_polars_reads_tables_databases_and_versions(table_path, model, written):
    with bloomtable.Table(table_path) as t:
        frame = pl.DataFrame(t)
    assert frame.schema == {"key": pl.Binary, "value": pl.Binary}
    assert frame.rows() == sorted(model.items())
    with bloomtable.Database(written.path) as db:
        frame = pl.DataFrame(db)
        versions = pl.DataFrame(db.versions())
    assert dict(frame.rows()) == written.model()
    live = versions.filter(pl.col("status") == "live")
    assert dict(zip(live["key"].to_list(), live["value"].to_list())) == written.model()


def test_duckdb_queries_a_database_by_name(written, table_path, model):
    db = bloomtable.Database(written.path)
    t = bloomtable.Table(table_path)
    try:
        [(rows, value_bytes)] = duckdb.sql(
            "select count(*), sum(octet_length(value)) from db").fetchall()
        live = written.model()
        assert rows == len(live)
        assert value_bytes == sum(len(v) for v in live.values())
        got = duckdb.sql("select key from t where key >= 'key003000'::blob order by key"
                         ).fetchall()
        assert [r[0] for r in got] == [k for k in sorted(model) if k >= b"key003000"]
        versions = db.versions()  # noqa: F841  (duckdb reads it by name)
        statuses = dict(duckdb.sql(
            "select status, count(*) from versions group by status").fetchall())
        assert statuses["live"] == len(live)
    finally:
        db.close()
        t.close()


def test_batches_are_cut_by_rows_and_by_bytes(tmp_path):
    many = tmp_path / "many.ldb"
    bloomtable.build_table(many, ((b"%08d" % i, b"") for i in range(150_000)))
    with bloomtable.Table(many) as t:
        reader = pa.RecordBatchReader.from_stream(t)
        sizes = [batch.num_rows for batch in reader]
    assert sum(sizes) == 150_000
    assert max(sizes) <= 65_536 and len(sizes) >= 3
    big = tmp_path / "big.ldb"
    value = b"v" * (1 << 20)
    bloomtable.build_table(big, ((b"%04d" % i, value) for i in range(200)), compression="none")
    with bloomtable.Table(big) as t:
        batches = list(pa.RecordBatchReader.from_stream(t))
    # A batch is handed over once a column passes 64 MiB: one value past it
    # at most.
    assert sum(b.num_rows for b in batches) == 200
    assert len(batches) >= 3
    assert all(b.column("value").nbytes <= (64 << 20) + (1 << 20) + 8 * 65 for b in batches)


def test_close_during_an_export_fails_the_stream_and_never_crashes(written):
    db = bloomtable.Database(written.path)
    reader = pa.RecordBatchReader.from_stream(db.iterator())
    db.close()
    with pytest.raises((OSError, pa.ArrowInvalid), match="database is closed"):
        reader.read_all()
    with pytest.raises(bloomtable.InvalidArgumentError, match="database is closed"):
        pa.table(db)


def test_a_failed_stream_keeps_failing_and_never_ends_as_if_complete(written):
    db = bloomtable.Database(written.path)
    reader = pa.RecordBatchReader.from_stream(db.iterator())
    db.close()
    for _ in range(2):
        with pytest.raises((OSError, pa.ArrowInvalid), match="database is closed"):
            reader.read_next_batch()


def test_exports_run_in_threads_while_others_read(written):
    model = written.model()
    with bloomtable.Database(written.path) as db:
        results = []

        def export():
            results.append(pa.table(db)["key"].to_pylist())

        threads = [threading.Thread(target=export) for _ in range(4)]
        for thread in threads:
            thread.start()
        for _ in range(3):
            assert dict(db.items()) == model
        for thread in threads:
            thread.join()
    assert results == [sorted(model)] * 4


def test_batches_concatenate_to_the_pairs_as_their_bytes_grow_and_shrink(tmp_path):
    # Batches after the first reserve room (and huge pages) for as many
    # bytes as the batch before them held: here the values grow from one
    # batch to the next past that reserve, a single value is larger than a
    # whole batch's reserve, and the last batch is far smaller than the one
    # before. The batches, put end to end, are still the pairs iteration
    # yields, each batch at most 65,536 rows.
    def value(i):
        if i == 70_000:
            return b"L" * (5 << 20)
        return (b"%d:" % i) * (8 + 2 * (i // 20_000))

    path = tmp_path / "growing.ldb"
    count = 200_000
    bloomtable.build_table(path, ((b"%08d" % i, value(i)) for i in range(count)),
                           compression="none")
    with bloomtable.Table(path) as t:
        batches = list(pa.RecordBatchReader.from_stream(t))
        pairs = list(t.items())
    assert len(pairs) == count
    assert [b.num_rows for b in batches] == [65_536] * 3 + [count - 3 * 65_536]
    keys = [k for b in batches for k in b.column("key").to_pylist()]
    values = [v for b in batches for v in b.column("value").to_pylist()]
    assert list(zip(keys, values)) == pairs
    assert values[70_000] == value(70_000)


def test_an_empty_table_exports_no_rows(tmp_path):
    path = tmp_path / "empty.ldb"
    bloomtable.build_table(path, [])
    with bloomtable.Table(path) as t:
        got = pa.table(t)
        assert list(pa.RecordBatchReader.from_stream(t)) == []
    assert got.num_rows == 0
    assert got.column_names == ["key", "value"]
