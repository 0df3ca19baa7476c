"""plyvel's habits on a Database and a Table: Database(path), iterator() with
plyvel's arguments and moves, raw_iterator(), prefixed_db(), compared with
plyvel itself on the same LevelDB directory (plyvel opened after the writes,
so both read the same files), and with a model of plyvel's documented
iterator: a cursor between two entries of the range."""

import random
import zlib

import plyvel
import pytest

import bloomtable
from leveldb_writes import key_of

# plyvel's iterator arguments that select a range or a view.
RANGES = [
    {},
    {"start": key_of(100)},
    {"stop": key_of(900)},
    {"start": key_of(100), "stop": key_of(900)},
    {"start": key_of(100), "stop": key_of(900), "include_start": False},
    {"start": key_of(100), "stop": key_of(900), "include_stop": True},
    {"start": key_of(103), "stop": key_of(105), "include_start": False,
     "include_stop": True},
    {"start": key_of(2000)},
    {"stop": b""},
    {"prefix": b"key001"},
    {"prefix": b"key"},
    {"prefix": b"nothing"},
]
VIEWS = [
    {},
    {"reverse": True},
    {"include_value": False},
    {"include_key": False},
    {"include_key": False, "include_value": False},
    {"reverse": True, "include_key": False},
]


def plyvel_reader(path):
    return plyvel.DB(path)


def test_database_constructor_and_open_are_the_same(written):
    with bloomtable.Database(written.path) as a, bloomtable.Database.open(written.path) as b:
        assert dict(a.iterator()) == dict(b.iterator()) == written.model()
    with pytest.raises(FileNotFoundError):
        bloomtable.Database(written.path + "-missing")
    with pytest.raises(TypeError):
        bloomtable.Database(written.path, 1000)  # options are keyword-only


@pytest.mark.parametrize("view", VIEWS, ids=lambda v: ",".join(v) or "default")
@pytest.mark.parametrize("bounds", RANGES, ids=lambda r: ",".join(r) or "all")
def test_iterator_yields_what_plyvel_yields(written, bounds, view):
    theirs = plyvel_reader(written.path)
    try:
        expected = list(theirs.iterator(**bounds, **view))
    finally:
        theirs.close()
    with bloomtable.Database(written.path) as db:
        assert list(db.iterator(**bounds, **view)) == expected
    # for k, v in db.iterator(): pairs, as plyvel's
    if not view and not bounds:
        assert expected and all(isinstance(item, tuple) for item in expected)


def test_prefix_with_start_or_stop_is_a_type_error_as_in_plyvel(written):
    with bloomtable.Database(written.path) as db:
        with pytest.raises(TypeError):
            db.iterator(prefix=b"key", start=b"key1")
    theirs = plyvel_reader(written.path)
    try:
        with pytest.raises(TypeError):
            theirs.iterator(prefix=b"key", stop=b"key1")
    finally:
        theirs.close()


class CursorModel:
    """plyvel's documented Iterator over the sorted keys of its range: it
    stands between two entries; next() returns the one after it and moves
    past it, prev() the one before it and moves back; a reverse iterator
    swaps them and starts at the end."""

    def __init__(self, items, reverse):
        self.items = items
        self.reverse = reverse
        self.position = len(items) if reverse else 0

    def forward(self):
        if self.position == len(self.items):
            raise StopIteration
        self.position += 1
        return self.items[self.position - 1]

    def backward(self):
        if self.position == 0:
            raise StopIteration
        self.position -= 1
        return self.items[self.position]

    def next(self):
        return self.backward() if self.reverse else self.forward()

    def prev(self):
        return self.forward() if self.reverse else self.backward()

    def seek(self, target):
        self.position = sum(1 for key, _ in self.items if key < target)

    def seek_to_start(self):
        self.position = 0

    def seek_to_stop(self):
        self.position = len(self.items)


def outcome(call):
    try:
        return call()
    except StopIteration:
        return "stop"


@pytest.mark.parametrize("reverse", [False, True])
@pytest.mark.parametrize("bounds", RANGES[:7], ids=lambda r: ",".join(r) or "all")
def test_random_walks_match_plyvel_and_its_model(written, bounds, reverse):
    theirs = plyvel_reader(written.path)
    db = bloomtable.Database(written.path)
    try:
        items = list(theirs.iterator(**bounds))
        model = CursorModel(items, reverse)
        ours = db.iterator(reverse=reverse, **bounds)
        plyvels = theirs.iterator(reverse=reverse, **bounds)
        rng = random.Random(zlib.crc32(repr((sorted(bounds.items()), reverse)).encode()))
        last_was_seek = False
        for step in range(600):
            op = rng.choice(["next"] * 5 + ["prev"] * 4 +
                            ["seek", "seek_to_start", "seek_to_stop"])
            if op in ("next", "prev"):
                want = outcome(getattr(model, op))
                got = outcome(getattr(ours, op) if op == "prev" else lambda: next(ours))
                assert got == want, (step, op)
                seen = outcome(getattr(plyvels, op) if op == "prev" else lambda: next(plyvels))
                # plyvel's backward step right after a seek (prev(), or
                # next() of a reverse iterator) does not check the range's
                # start (it may return the key before it): compared with the
                # model only.
                backward = (op == "prev") != reverse
                if not (backward and last_was_seek):
                    assert seen == want, (step, op, "plyvel")
                last_was_seek = False
                continue
            if op == "seek":
                # Targets within the range (plyvel clamps those outside it
                # to its bounds, a case its documentation leaves open).
                if not items:
                    continue
                target = rng.choice(items)[0]
                if rng.random() < 0.5:
                    target = target[:-1] + bytes([target[-1] + 1])  # between keys
                    if target >= items[-1][0]:
                        continue
                args = (target,)
            else:
                args = ()
            for it in (model, ours, plyvels):
                getattr(it, op)(*args)
            last_was_seek = op == "seek"
    finally:
        theirs.close()
        db.close()


def test_raw_iterator_moves_as_plyvels(written):
    theirs = plyvel_reader(written.path)
    db = bloomtable.Database(written.path)
    try:
        ours, raw = db.raw_iterator(), theirs.raw_iterator()
        keys = sorted(written.model())
        rng = random.Random(5)
        for step in range(1500):
            op = rng.choice(["next", "next", "prev", "seek", "seek_to_first", "seek_to_last"])
            if op in ("next", "prev") and not raw.valid():
                with pytest.raises(bloomtable.InvalidArgumentError):
                    getattr(ours, op)()
                op = "seek"
            if op == "seek":
                target = rng.choice(keys) + rng.choice([b"", b"\x00"])
                ours.seek(target)
                raw.seek(target)
            else:
                getattr(ours, op)()
                getattr(raw, op)()
            assert ours.valid() == raw.valid(), step
            if raw.valid():
                assert ours.key() == raw.key()
                assert ours.value() == raw.value()
                assert ours.item() == raw.item()
        ours.seek(b"\xff")
        assert not ours.valid()
        with pytest.raises(bloomtable.InvalidArgumentError):
            ours.key()
    finally:
        theirs.close()
        db.close()


def test_raw_iterator_seek_for_prev(written):
    keys = sorted(written.model())
    with bloomtable.Database(written.path) as db:
        it = db.raw_iterator()
        for target in (keys[10], keys[10] + b"\x00", b"", b"\xff"):
            it.seek_for_prev(target)
            below = [k for k in keys if k <= target]
            assert it.valid() == bool(below)
            if below:
                assert it.key() == below[-1]


@pytest.mark.parametrize("bounds", [{}, {"start": b"1"}, {"stop": b"2", "include_stop": True},
                                    {"prefix": b"1"}], ids=str)
def test_prefixed_db_reads_as_plyvels(written, bounds):
    theirs = plyvel_reader(written.path)
    try:
        pdb = theirs.prefixed_db(b"key0")
        expected = list(pdb.iterator(**bounds))
        expected_get = [pdb.get(key_of(i)[4:]) for i in range(0, 1000, 37)]
        nested = list(theirs.prefixed_db(b"key").prefixed_db(b"01").iterator(**bounds))
    finally:
        theirs.close()
    with bloomtable.Database(written.path) as db:
        ours = db.prefixed_db(b"key0")
        assert ours.prefix == b"key0" and ours.db is db
        assert list(ours.iterator(**bounds)) == expected
        assert [ours.get(key_of(i)[4:]) for i in range(0, 1000, 37)] == expected_get
        assert list(db.prefixed_db(b"key").prefixed_db(b"01").iterator(**bounds)) == nested
        key = next(ours.iterator(include_value=False))
        assert key in ours and ours[key] == db[b"key0" + key]
        with pytest.raises(KeyError):
            ours[b"missing"]
        it = ours.iterator()
        first = next(it)
        it.seek(first[0])  # seek takes keys without the prefix too
        assert next(it) == first


def test_mapping_iteration_yields_keys_and_iterator_yields_pairs(written):
    with bloomtable.Database(written.path) as db:
        assert list(db) == list(db.keys()) == sorted(written.model())
        assert list(db.iterator()) == sorted(written.model().items())


def test_table_has_the_same_iterators(table_path, model):
    keys = sorted(model)
    with bloomtable.Table(table_path) as t:
        assert list(t.iterator()) == sorted(model.items())
        assert list(t.iterator(start=keys[3], include_start=False, stop=keys[9],
                               include_stop=True, include_value=False)) == keys[4:10]
        assert list(t.iterator(prefix=b"key0001", reverse=True, include_key=False)) == [
            model[k] for k in reversed(keys) if k.startswith(b"key0001")]
        it = t.iterator()
        assert next(it) == (keys[0], model[keys[0]])
        assert it.prev() == (keys[0], model[keys[0]])
        with pytest.raises(StopIteration):
            it.prev()
        it.seek_to_stop()
        assert it.prev()[0] == keys[-1]
        raw = t.raw_iterator()
        raw.seek_to_last()
        assert raw.key() == keys[-1]
        raw.prev()
        assert raw.key() == keys[-2]


def test_iterators_close_and_work_as_context_managers(written):
    with bloomtable.Database(written.path) as db:
        with db.iterator() as it:
            next(it)
        with pytest.raises(bloomtable.InvalidArgumentError, match="iterator is closed"):
            next(it)
        raw = db.raw_iterator()
        raw.seek_to_first()
        raw.close()
        with pytest.raises(bloomtable.InvalidArgumentError):
            raw.valid()
        it = db.iterator()
        raw = db.raw_iterator()
    with pytest.raises(bloomtable.InvalidArgumentError, match="database is closed"):
        next(it)
    with pytest.raises(bloomtable.InvalidArgumentError, match="database is closed"):
        raw.seek_to_first()
