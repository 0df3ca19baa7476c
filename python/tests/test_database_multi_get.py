"""Database.multi_get against real LevelDB databases written by plyvel
(leveldb_writes.py): each key's answer is get()'s and the model's, as of
any sequence, through pread and memory maps, with a Python comparator too."""

import random
import threading

import plyvel
import pytest

import bloomtable
from leveldb_writes import key_of


def batch_keys(seed):
    keys = [key_of(i) for i in range(0, 1700)] + [b"", b"never-put"]
    rng = random.Random(seed)
    keys += [rng.choice(keys) for _ in range(100)]  # repeated keys
    rng.shuffle(keys)
    return keys


def test_multi_get_matches_get_and_the_model(written):
    model = written.model()
    keys = batch_keys(1)
    with bloomtable.Database.open(written.path) as db:
        got = db.multi_get(keys)
        assert got == [model.get(k) for k in keys]
        assert got == [db.get(k) for k in keys]
        assert sum(v is not None for v in got) > 1000
        missing = object()
        assert db.multi_get([b"never-put", key_of(3)], missing) == [
            missing, model.get(key_of(3), missing)]
        assert db.multi_get([]) == []
        assert db.multi_get(k for k in keys[:10]) == [model.get(k) for k in keys[:10]]
        assert db.multi_get([bytearray(key_of(5)), memoryview(key_of(7))]) == [
            model.get(key_of(5)), model.get(key_of(7))]
        with pytest.raises(TypeError):
            db.multi_get([key_of(1), "key00002"])


@pytest.mark.parametrize("sequence", [0, 1, 700, 1500, 2000, 2300, 2400])
def test_multi_get_as_of_a_sequence_number(written, sequence):
    model = written.model(sequence)
    keys = batch_keys(sequence)
    with bloomtable.Database.open(written.path) as db:
        got = db.multi_get(keys, sequence=sequence)
        assert got == [model.get(k) for k in keys]
        assert got == [db.get(k, sequence=sequence) for k in keys]


def test_mmap_reads_answer_the_same(written):
    model = written.model()
    keys = batch_keys(2)
    with bloomtable.Database.open(written.path, mmap=True) as db:
        assert db.multi_get(keys) == [model.get(k) for k in keys]
        assert dict(db.items()) == model
    with bloomtable.Database(written.path, mmap=True, block_cache_bytes=0) as db:
        assert [db.get(k) for k in keys] == [model.get(k) for k in keys]


def test_multi_get_from_threads(written):
    model = written.model()
    errors = []
    with bloomtable.Database.open(written.path, block_cache_bytes=0) as db:
        def read(seed):
            try:
                keys = batch_keys(seed)
                for _ in range(5):
                    assert db.multi_get(keys) == [model.get(k) for k in keys]
            except BaseException as e:  # noqa: BLE001 (reported below)
                errors.append(e)

        threads = [threading.Thread(target=read, args=(s,)) for s in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    assert errors == []


def test_multi_get_with_a_python_comparator(tmp_path):
    path = str(tmp_path / "reversed")

    def reverse_order(a, b):
        return (a < b) - (a > b)

    db = plyvel.DB(path, create_if_missing=True, comparator=reverse_order,
                   comparator_name=b"test.ReverseBytewise")
    for i in range(300):
        db.put(key_of(i), b"v%d" % i)
    for i in range(0, 300, 7):
        db.delete(key_of(i))
    db.close()
    keys = [key_of(i) for i in range(0, 320, 3)] + [key_of(5), key_of(5)]
    with bloomtable.Database.open(path, comparator=reverse_order,
                                  comparator_name="test.ReverseBytewise") as view:
        got = view.multi_get(keys)
        assert got == [view.get(k) for k in keys]
        assert got == [None if i % 7 == 0 or i >= 300 else b"v%d" % i
                       for i in [int(k[3:]) for k in keys]]
    with bloomtable.Database.open(path) as unordered:
        with pytest.raises(bloomtable.UnsupportedError, match="test.ReverseBytewise"):
            unordered.multi_get([key_of(1)])


def test_closed_database_refuses_multi_get(written):
    db = bloomtable.Database.open(written.path)
    db.close()
    with pytest.raises(bloomtable.InvalidArgumentError, match="database is closed"):
        db.multi_get([key_of(1)])
