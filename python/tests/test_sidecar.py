"""Sidecar filters from Python: bloomtable.build_filters, Database.open's
filters_dir and filters_in_memory, and Database.stats(), on a database that
plyvel (Debian's LevelDB) wrote, compared with a dict model of the writes."""

import os
import time

import plyvel
import pytest

import bloomtable


def key_of(i: int) -> bytes:
    return b"key%05d" % i


@pytest.fixture
def database(tmp_path):
    """Tables on several levels and a live log; returns (path, model)."""
    path = str(tmp_path / "db")
    model = {}
    db = plyvel.DB(path, create_if_missing=True, write_buffer_size=16 << 10)
    for i in range(0, 2000, 2):
        db.put(key_of(i), b"v%d" % i)
        model[key_of(i)] = b"v%d" % i
    db.compact_range()
    for i in range(0, 2000, 6):
        db.delete(key_of(i))
        model.pop(key_of(i))
    db.close()
    return path, model


def test_build_filters_returns_a_summary_and_writes_one_file_per_table(
    database, tmp_path
):
    path, _ = database
    into = tmp_path / "filters"
    summary = bloomtable.build_filters(path, into=into)
    with bloomtable.Database.open(path) as db:
        tables = db.tables()
    assert summary["tables"] == len(tables)
    assert summary["built"] == len(tables)
    assert summary["failed"] == []
    assert summary["keys"] > 0 and summary["bytes"] > 0
    assert sorted(os.listdir(into)) == sorted(t["name"] + ".sidecar" for t in tables)
    again = bloomtable.build_filters(path, into=into)
    assert again["built"] == 0 and again["up_to_date"] == len(tables)


def test_filters_dir_answers_as_the_model_and_counts_in_stats(database, tmp_path):
    path, model = database
    into = str(tmp_path / "filters")
    bloomtable.build_filters(path, into=into, threads=2)
    with bloomtable.Database.open(path, filters_dir=into) as db:
        assert db.warnings == []
        for i in range(0, 2100):
            assert db.get(key_of(i)) == model.get(key_of(i)), i
            assert db.get(key_of(i) + b"x") is None
        stats = db.stats()
        assert stats["sidecar_tables"] == len(db.tables())
        assert stats["sidecar_memory_bytes"] > 0
        assert stats["sidecar_filter_negatives"] > 0
        assert stats["sidecar_filter_checks"] >= stats["sidecar_filter_negatives"]


def test_damaged_sidecar_is_ignored_with_a_warning(database, tmp_path):
    path, model = database
    into = tmp_path / "filters"
    bloomtable.build_filters(path, into=into)
    victim = sorted(os.listdir(into))[0]
    with open(into / victim, "r+b") as f:
        f.seek(20)
        byte = f.read(1)
        f.seek(20)
        f.write(bytes([byte[0] ^ 0xFF]))
    with bloomtable.Database.open(path, filters_dir=into) as db:
        assert any(victim in w and "not used" in w for w in db.warnings)
        assert db.stats()["sidecar_tables"] == len(db.tables()) - 1
        for i in range(0, 2000):
            assert db.get(key_of(i)) == model.get(key_of(i)), i


def test_filters_in_memory_build_in_the_background(database):
    path, model = database
    with bloomtable.Database.open(path, filters_in_memory=True) as db:
        for _ in range(3000):
            if db.stats()["sidecars_pending"] == 0:
                break
            time.sleep(0.01)
        stats = db.stats()
        assert stats["sidecars_pending"] == 0
        assert stats["sidecar_tables"] == len(db.tables())
        for i in range(0, 2000):
            assert db.get(key_of(i)) == model.get(key_of(i)), i


def test_scan_filters_and_policies_are_keyword_arguments(database, tmp_path):
    path, model = database
    into = tmp_path / "filters"
    summary = bloomtable.build_filters(
        path,
        into=into,
        filter="cache_local_bloom",
        bits_per_key=12,
        prefix_extractor=bloomtable.PrefixExtractor.fixed(6),
        range_filter_bits_per_key=16,
    )
    assert summary["built"] > 0
    with bloomtable.Database.open(path, filters_dir=into) as db:
        got = list(db.items(start=b"key00101", stop=b"key00102"))
        assert got == []
        got = list(db.items(start=b"key00100", stop=b"key00110"))
        assert got == sorted(
            (k, v) for k, v in model.items() if b"key00100" <= k < b"key00110"
        )


def test_bad_arguments_raise(database, tmp_path):
    path, _ = database
    with pytest.raises(bloomtable.InvalidArgumentError):
        bloomtable.build_filters(path, into=os.path.join(path, "filters"))
    with pytest.raises(bloomtable.InvalidArgumentError):
        bloomtable.build_filters(path, into=tmp_path / "f", threads=0)
    with pytest.raises(bloomtable.InvalidArgumentError):
        bloomtable.build_filters(path, into=tmp_path / "f", filter="none")
    with pytest.raises(TypeError):
        bloomtable.build_filters(path)
    with pytest.raises(FileNotFoundError):
        bloomtable.build_filters(tmp_path / "missing", into=tmp_path / "f")


def test_table_file_gets_its_sidecar(tmp_path):
    table = tmp_path / "t.ldb"
    bloomtable.build_table(table, {b"a%d" % i: b"v" for i in range(100)}, sort=True)
    summary = bloomtable.build_filters(table, into=tmp_path / "filters")
    assert summary["built"] == 1 and summary["keys"] == 100
    assert os.listdir(tmp_path / "filters") == ["t.ldb.sidecar"]
