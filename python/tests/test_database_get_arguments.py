"""Database.get's and Table.get's arguments, parsed without pybind11's
dispatcher (METH_FASTCALL methods), and the iterators' next step through
the type's tp_iternext slot: every form plyvel's get accepts, the
keyword-only sequence, the TypeErrors, and iteration's end and errors."""

import inspect

import plyvel
import pytest

import bloomtable
from leveldb_writes import key_of


class Index:
    """An object standing for an int (as numpy's integers do)."""

    def __init__(self, value):
        self.value = value

    def __index__(self):
        return self.value


def test_get_takes_plyvels_forms(written):
    model = written.model()
    present = next(k for k in sorted(model) if k)
    absent = b"never-put"
    theirs = plyvel.DB(written.path)
    try:
        with bloomtable.Database(written.path) as db:
            for key in (present, absent):
                assert db.get(key) == theirs.get(key) == model.get(key)
                assert db.get(key, b"d") == theirs.get(key, b"d")
                assert db.get(key, default=b"d") == theirs.get(key, default=b"d")
                assert db.get(key=key) == theirs.get(key=key)
                assert db.get(key=key, default=7) == theirs.get(key=key, default=7)
                assert db.get(default=[], key=key) == theirs.get(default=[], key=key)
            marker = object()
            assert db.get(absent, marker) is marker
            assert db.get(absent, None) is None
            assert db.get(memoryview(present)) == model[present]
    finally:
        theirs.close()


@pytest.mark.parametrize("sequence", [1, 700, 2400])
def test_get_sequence_forms(written, sequence):
    model = written.model(sequence)
    with bloomtable.Database(written.path) as db:
        for i in range(0, 1500, 17):
            key = key_of(i)
            expected = model.get(key)
            assert db.get(key, sequence=sequence) == expected
            assert db.get(key, sequence=Index(sequence)) == expected
            assert db.get(key, b"-", sequence=sequence) == model.get(key, b"-")
            assert db.get(key, sequence=None) == written.model().get(key)
        # True is the int 1, as everywhere in Python.
        assert db.get(key_of(0), sequence=True) == db.get(key_of(0), sequence=1)


@pytest.mark.parametrize("call, words", [
    (lambda db: db.get(), "missing required argument 'key'"),
    (lambda db: db.get(default=b"d"), "missing required argument 'key'"),
    (lambda db: db.get(b"k", b"d", 5), "at most 2 positional arguments"),
    (lambda db: db.get(b"k", fill_cache=False), "unexpected keyword argument 'fill_cache'"),
    (lambda db: db.get(b"k", key=b"k"), "multiple values for argument 'key'"),
    (lambda db: db.get(b"k", b"d", default=b"d"), "multiple values for argument 'default'"),
    (lambda db: db.get(b"k", sequence=-1), "sequence must be None or an int"),
    (lambda db: db.get(b"k", sequence=2 ** 64), "sequence must be None or an int"),
    (lambda db: db.get(b"k", sequence=1.0), "sequence must be None or an int"),
    (lambda db: db.get(b"k", sequence="1"), "sequence must be None or an int"),
    (lambda db: db.get("k"), "must be bytes"),
    (lambda db: db.get(5), "must be bytes"),
])
def test_get_refuses_bad_arguments_with_a_type_error_naming_them(written, call, words):
    with bloomtable.Database(written.path) as db:
        with pytest.raises(TypeError, match=words):
            call(db)
        assert db.get(key_of(2)) == written.model().get(key_of(2))  # still usable


def test_get_has_a_signature_and_its_docstring():
    signature = inspect.signature(bloomtable.Database.get)
    assert list(signature.parameters) == ["self", "key", "default", "sequence"]
    assert signature.parameters["default"].default is None
    assert signature.parameters["sequence"].kind is inspect.Parameter.KEYWORD_ONLY
    assert "newest value of `key`" in bloomtable.Database.get.__doc__


def test_get_on_a_closed_database_or_another_object_raises(written):
    db = bloomtable.Database(written.path)
    db.close()
    with pytest.raises(bloomtable.InvalidArgumentError, match="closed"):
        db.get(key_of(0))
    with pytest.raises(TypeError):
        bloomtable.Database.get(object(), key_of(0))


def test_for_loops_and_next_step_through_the_slot(written):
    ordered = sorted(written.model().items())
    with bloomtable.Database(written.path) as db:
        it = db.iterator()
        assert next(it) == ordered[0]
        assert it.__next__() == ordered[1]
        assert it.prev() == ordered[1]
        assert [pair for pair in it] == ordered[1:]
        with pytest.raises(StopIteration):
            next(it)
        assert next(it, "end") == "end"
        it.seek_to_start()
        assert list(it) == ordered
        # The next step raises the iterator's errors, in a loop too.
        it = db.iterator(include_value=False)
        seen = []
        with pytest.raises(bloomtable.InvalidArgumentError, match="database is closed"):
            for key in it:
                seen.append(key)
                if len(seen) == 3:
                    db.close()
        assert seen == [k for k, _ in ordered[:3]]


def test_table_iterators_step_through_the_slot(table_path, model):
    ordered = sorted(model.items())
    with bloomtable.Table.open(table_path) as t:
        it = t.items()
        assert next(it) == ordered[0]
        assert list(it) == ordered[1:]
        it = t.keys()
        it.close()
        with pytest.raises(bloomtable.InvalidArgumentError, match="iterator is closed"):
            next(it)


def test_table_get_takes_the_same_forms(table_path, model):
    present = sorted(model)[1]
    absent = b"absent"
    with bloomtable.Table.open(table_path) as t:
        assert t.get(present) == t.get(key=present) == model[present]
        assert t.get(absent) is None
        assert t.get(absent, b"d") == t.get(absent, default=b"d") == b"d"
        assert t.get(default=b"d", key=absent) == b"d"
        assert t.get(present, b"d") == model[present]
        signature = inspect.signature(bloomtable.Table.get)
        assert list(signature.parameters) == ["self", "key", "default"]
        for call, words in [
                (lambda: t.get(), "missing required argument 'key'"),
                (lambda: t.get(present, None, None), "at most 2 positional"),
                (lambda: t.get(present, sequence=1), "unexpected keyword argument 'sequence'"),
                (lambda: t.get(present, key=present), "multiple values for argument 'key'"),
                (lambda: t.get(present.decode()), "must be bytes")]:
            with pytest.raises(TypeError, match=words):
                call()
    with pytest.raises(bloomtable.InvalidArgumentError, match="table is closed"):
        t.get(present)
