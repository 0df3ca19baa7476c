"""Browser data from Python: a Chromium IndexedDB directory (its built-in
comparator idb_cmp1, comparator=), a callable comparator for a database of
another order, and decode_local_storage."""

import pathlib
import threading

import plyvel
import pytest

import bloomtable

INDEXEDDB = (pathlib.Path(__file__).resolve().parents[2]
             / "tests" / "data" / "indexeddb" / "chromium_idb")


def test_indexeddb_reads_in_key_order():
    with bloomtable.Database.open(INDEXEDDB) as db:
        assert db.comparator_name == "idb_cmp1"
        assert db.ordered
        items = list(db.items())
        assert len(items) > 1000
        # The first key: global metadata, the schema version.
        assert items[0] == (b"\x00\x00\x00\x00\x00", b"\x05")
        assert db.get(b"\x00\x00\x00\x00\x00") == b"\x05"
        assert [k for k, _ in reversed(items)] == list(db.keys(reverse=True))


def test_indexeddb_comparator_by_name():
    with bloomtable.Database.open(INDEXEDDB, comparator="idb_cmp1") as db:
        assert db.get(b"\x00\x00\x00\x00\x00") == b"\x05"
    with pytest.raises(bloomtable.InvalidArgumentError,
                       match="'idb_cmp1', not 'leveldb.BytewiseComparator'"):
        bloomtable.Database.open(INDEXEDDB,
                                 comparator="leveldb.BytewiseComparator")
    with pytest.raises(bloomtable.InvalidArgumentError, match="not built in"):
        bloomtable.Database.open(INDEXEDDB, comparator="nosuch")


def test_a_key_that_is_no_indexeddb_key_is_invalid():
    with bloomtable.Database.open(INDEXEDDB) as db:
        with pytest.raises(bloomtable.InvalidArgumentError, match="idb_cmp1"):
            db.get(b"plain")


def reverse_order(a, b):
    return (a < b) - (a > b)


@pytest.fixture
def reversed_db(tmp_path):
    """A database plyvel wrote with a reverse bytewise comparator: tables
    on two levels and a live log."""
    path = str(tmp_path / "reversed")
    db = plyvel.DB(path, create_if_missing=True, write_buffer_size=8 << 10,
                   comparator=reverse_order, comparator_name=b"test.Reverse")
    model = {}
    for i in range(1200):
        key = b"k%05d" % i
        db.put(key, b"v%d" % i + b"x" * (i % 40))
        model[key] = b"v%d" % i + b"x" * (i % 40)
    db.compact_range()
    for i in range(0, 1200, 7):
        key = b"k%05d" % i
        db.put(key, b"new%d" % i)
        model[key] = b"new%d" % i
    db.close()
    return path, model


def test_callable_comparator_reads_a_database_of_another_order(reversed_db):
    path, model = reversed_db
    with bloomtable.Database.open(path) as unordered:
        assert not unordered.ordered
    with bloomtable.Database.open(path, comparator=reverse_order,
                                  comparator_name="test.Reverse") as db:
        assert db.ordered
        assert list(db.items()) == sorted(model.items(), reverse=True)
        for key, value in list(model.items())[::31]:
            assert db.get(key) == value
    with pytest.raises(bloomtable.InvalidArgumentError, match="test.Other"):
        bloomtable.Database.open(path, comparator=reverse_order,
                                 comparator_name="test.Other")
    with pytest.raises(bloomtable.InvalidArgumentError, match="comparator_name"):
        bloomtable.Database.open(path, comparator=reverse_order)


def test_callable_comparator_from_several_threads(reversed_db):
    path, model = reversed_db
    expected = sorted(model.items(), reverse=True)
    with bloomtable.Database.open(path, comparator=reverse_order,
                                  comparator_name="test.Reverse") as db:
        results = {}
        errors = []

        def work(n):
            try:
                results[n] = (list(db.items()),
                              [db.get(k) for k in list(model)[n::13]])
            except Exception as e:  # pragma: no cover - reported below
                errors.append(e)

        threads = [threading.Thread(target=work, args=(n,)) for n in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert not errors
        for n in range(4):
            items, values = results[n]
            assert items == expected
            assert values == [model[k] for k in list(model)[n::13]]


def test_a_comparator_that_raises_names_the_key(reversed_db):
    path, _ = reversed_db

    def broken(a, b):
        if a == b"k00500" or b == b"k00500":
            raise ValueError("cannot compare")
        return reverse_order(a, b)

    with bloomtable.Database.open(path, comparator=broken,
                                  comparator_name="test.Reverse") as db:
        with pytest.raises(bloomtable.CorruptionError, match="k00500"):
            list(db.items())


def test_decode_local_storage():
    decode = bloomtable.decode_local_storage
    assert decode(b"_file://\x00\x01message", b"\x01hello\xe9") == (
        "item", "file://", "message", "hello\u00e9")
    # UTF-16LE, a surrogate pair and a lone surrogate kept.
    assert decode(b"_https://a.example\x00\x00h\x00\xe9\x00",
                  b"\x00\x3d\xd8\x00\xde\x00\xd8") == (
        "item", "https://a.example", "h\u00e9", "\U0001f600\ud800")
    assert decode(b"META:file://", b"\x08\x01") == (
        "meta", "file://", None, b"\x08\x01")
    assert decode(b"METAACCESS:file://", b"\x08") == (
        "meta_access", "file://", None, b"\x08")
    assert decode(b"VERSION", b"1") == ("version", None, None, b"1")
    assert decode(b"other", b"x") == ("other", None, None, b"x")
    with pytest.raises(bloomtable.CorruptionError, match="odd length"):
        decode(b"_file://\x00\x01k", b"\x00abc")
    with pytest.raises(bloomtable.CorruptionError, match="encoding byte 7"):
        decode(b"_file://\x00\x07k", b"\x01v")
