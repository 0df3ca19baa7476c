"""Database.get_pinned against real LevelDB databases written by plyvel
(leveldb_writes.py): a read-only memoryview equal to get()'s bytes for
present, deleted, absent and log-resident keys, as of any sequence, that
stays readable after the database is closed, through pread and memory maps."""

import gc

import pytest

import bloomtable
from leveldb_writes import key_of


KEYS = [key_of(i) for i in range(0, 1700)] + [b"", b"never-put"]


@pytest.mark.parametrize("mmap", [False, True])
def test_get_pinned_answers_as_get_and_outlives_the_database(written, mmap):
    model = written.model()
    db = bloomtable.Database.open(written.path, mmap=mmap)
    views = {}
    for key in KEYS:
        view = db.get_pinned(key)
        if key not in model:
            assert view is None, key
            continue
        assert isinstance(view, memoryview)
        assert view.readonly
        assert view.tobytes() == model[key] == db.get(key)
        views[key] = view
    assert len(views) > 1000
    assert len(views) < len(KEYS) - 100  # deleted and absent keys too
    with pytest.raises(TypeError):
        next(iter(views.values()))[0:1] = b"x"
    db.close()
    del db
    gc.collect()
    # Each view holds its block (or its copy of a log value).
    for key, view in views.items():
        assert bytes(view) == model[key]


@pytest.mark.parametrize("sequence", [0, 1, 700, 1500, 2000, 2300, 2400])
def test_get_pinned_as_of_a_sequence_number(written, sequence):
    model = written.model(sequence)
    with bloomtable.Database.open(written.path, block_cache_bytes=0) as db:
        for key in KEYS:
            view = db.get_pinned(key, sequence=sequence)
            assert (None if view is None else bytes(view)) == model.get(key), key
            assert db.get(key, sequence=sequence) == model.get(key)


def test_get_pinned_takes_bytes_like_keys_and_refuses_str(written):
    model = written.model()
    with bloomtable.Database.open(written.path) as db:
        assert bytes(db.get_pinned(bytearray(key_of(8)))) == model[key_of(8)]
        assert bytes(db.get_pinned(memoryview(key_of(7)))) == model[key_of(7)]
        with pytest.raises(TypeError):
            db.get_pinned("key00002")


def test_closed_database_refuses_get_pinned(written):
    db = bloomtable.Database.open(written.path)
    db.close()
    with pytest.raises(bloomtable.InvalidArgumentError, match="database is closed"):
        db.get_pinned(key_of(1))
