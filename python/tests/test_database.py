"""bloomtable.Database against real LevelDB databases written by plyvel
(Debian's python3-plyvel, a binding to Debian's libleveldb), compared with a
dict model of the writes."""

import os
import shutil
import threading

import plyvel
import pytest

import bloomtable


def key_of(i: int) -> bytes:
    return b"key%05d" % i


class Written:
    """A database written by LevelDB, and every write made to it in order:
    ops[s - 1] is the write of sequence number s (one write per call, so
    LevelDB gives each the next sequence number)."""

    def __init__(self, path):
        self.path = str(path)
        self.ops = []  # (key, 'put' | 'del', value)

    def model(self, sequence=None):
        state = {}
        for key, kind, value in self.ops[:sequence]:
            if kind == "put":
                state[key] = value
            else:
                state.pop(key, None)
        return state


def write(db, written, key, value=None):
    if value is None:
        db.delete(key)
        written.ops.append((key, "del", b""))
    else:
        db.put(key, value)
        written.ops.append((key, "put", value))


@pytest.fixture
def written(tmp_path):
    """Tables on several levels (small write buffer, a compaction) and a live
    log: puts, overwrites and deletes of keys that exist and do not."""
    w = Written(tmp_path / "db")
    db = plyvel.DB(w.path, create_if_missing=True, write_buffer_size=16 << 10)
    for i in range(0, 1500):
        write(db, w, key_of(i), b"first-%d-" % i + b"x" * (i % 50))
    for i in range(0, 1500, 3):
        write(db, w, key_of(i), b"second-%d" % i)
    for i in range(0, 1500, 5):
        write(db, w, key_of(i))
    db.compact_range()
    # Newer than the compacted tables: in memtable-sized tables and the log.
    for i in range(0, 1500, 7):
        write(db, w, key_of(i), b"third-%d" % i)
    for i in range(1, 1500, 11):
        write(db, w, key_of(i))
    write(db, w, b"never-put")  # a deletion of an absent key
    write(db, w, b"", b"empty key")
    db.close()
    return w


def test_get_contains_getitem_match_the_model(written):
    model = written.model()
    with bloomtable.Database.open(written.path) as db:
        assert db.ordered
        assert db.comparator_name == "leveldb.BytewiseComparator"
        assert db.last_sequence == len(written.ops)
        assert db.tables(), "the fixture should have written tables"
        for i in range(0, 1600):
            key = key_of(i)
            assert db.get(key) == model.get(key), key
            assert (key in db) == (key in model)
            if key in model:
                assert db[key] == model[key]
            else:
                with pytest.raises(KeyError):
                    db[key]
        assert db.get(b"never-put", b"dflt") == b"dflt"
        assert db[b""] == b"empty key"
        assert db.get(bytearray(key_of(3))) == model[key_of(3)]
        with pytest.raises(TypeError):
            db.get("key00001")


def test_iteration_matches_the_model(written):
    model = written.model()
    ordered = sorted(model.items())
    with bloomtable.Database.open(written.path) as db:
        assert list(db.items()) == ordered
        assert list(db.items(reverse=True)) == ordered[::-1]
        assert list(db) == [k for k, _ in ordered]
        assert list(db.values()) == [v for _, v in ordered]
        lo, hi = key_of(100), key_of(700)
        bounded = [(k, v) for k, v in ordered if lo <= k < hi]
        assert list(db.items(lo, hi)) == bounded
        assert list(db.keys(start=lo, stop=hi, reverse=True)) == [
            k for k, _ in reversed(bounded)]
        assert list(db.items(hi, lo)) == []


@pytest.mark.parametrize("sequence", [1, 700, 1500, 2000, 2300, 2400])
def test_reads_as_of_a_sequence_number(written, sequence):
    model = written.model(sequence)
    with bloomtable.Database.open(written.path) as db:
        assert list(db.items(sequence=sequence)) == sorted(model.items())
        for i in range(0, 1500, 13):
            key = key_of(i)
            assert db.get(key, sequence=sequence) == model.get(key)


def expected_statuses(records):
    """Statuses by (key, sequence) as the listing promises them, from the
    records of each key newest first."""
    statuses = {}
    by_key = {}
    for r in records:
        by_key.setdefault(r.key, []).append(r)
    for versions in by_key.values():
        versions.sort(key=lambda r: -r.sequence)
        for index, r in enumerate(versions):
            if index == 0:
                status = "live" if r.type == "put" else "deleted"
            elif versions[index - 1].type == "del":
                status = "deleted"
            else:
                status = "overwritten"
            statuses[(r.key, r.sequence)] = status
    return statuses


def test_versions_are_the_writes_with_their_status(written):
    model = written.model()
    with bloomtable.Database.open(written.path) as db:
        records = db.versions()
        files = {t["name"] for t in db.tables()} | {log["name"] for log in db.logs()}
    assert records
    for r in records:
        assert written.ops[r.sequence - 1] == (r.key, r.type, r.value)
        assert r.file in files
        assert isinstance(r.offset, int)
    # By key, newest first.
    assert [(r.key, -r.sequence) for r in records] == sorted(
        (r.key, -r.sequence) for r in records)
    live = {r.key: r.value for r in records if r.status == "live"}
    assert live == model
    statuses = expected_statuses(records)
    assert {(r.key, r.sequence): r.status for r in records} == statuses
    # The newest write of every key survives compaction.
    newest = {}
    for sequence, (key, kind, _) in enumerate(written.ops, start=1):
        newest[key] = (sequence, kind)
    listed = {(r.key, r.sequence) for r in records}
    for key, (sequence, _) in newest.items():
        assert (key, sequence) in listed


def test_versions_as_of_a_sequence_number(written):
    with bloomtable.Database.open(written.path) as db:
        records = db.versions(sequence=2000)
    assert records and all(r.sequence <= 2000 for r in records)
    live = {r.key: r.value for r in records if r.status == "live"}
    # Versions compaction dropped are not listed; those listed agree.
    model = written.model(2000)
    for key, value in live.items():
        assert model[key] == value


def test_leftover_log_is_listed_only_when_asked(tmp_path):
    w = Written(tmp_path / "db")
    db = plyvel.DB(w.path, create_if_missing=True)
    for i in range(50):
        write(db, w, key_of(i), b"v%d" % i)
    logs = [n for n in os.listdir(w.path) if n.endswith(".log")]
    assert len(logs) == 1
    saved = tmp_path / "saved.log"
    shutil.copy(os.path.join(w.path, logs[0]), saved)
    db.compact_range()  # flushes the memtable: the log becomes obsolete
    db.close()
    if os.path.exists(os.path.join(w.path, logs[0])):
        pytest.fail("LevelDB kept the obsolete log; the fixture needs another way")
    shutil.copy(saved, os.path.join(w.path, logs[0]))
    with bloomtable.Database.open(w.path) as plain:
        assert all(r.status != "leftover" for r in plain.versions())
        assert dict(plain.items()) == w.model()
    with bloomtable.Database.open(w.path, read_leftovers=True) as db:
        records = db.versions()
        assert dict(db.items()) == w.model()
    leftovers = [r for r in records if r.status == "leftover"]
    assert len(leftovers) == 50
    for r in leftovers:
        assert r.file == logs[0]
        assert w.ops[r.sequence - 1] == (r.key, r.type, r.value)


def test_open_options_keep_the_answers(written):
    model = written.model()
    with bloomtable.Database.open(written.path, max_open_files=1, block_cache_bytes=0,
                                  verify_checksums=False, fill_cache=False) as db:
        assert dict(db.items()) == model
        assert list(db.keys(reverse=True)) == sorted(model, reverse=True)
    with pytest.raises(ValueError):
        bloomtable.Database.open(written.path, max_open_files=0)


def test_unknown_comparator_is_unsupported_for_ordered_reads(tmp_path):
    path = str(tmp_path / "reversed")

    def reverse_order(a, b):
        return (a < b) - (a > b)

    db = plyvel.DB(path, create_if_missing=True, comparator=reverse_order,
                   comparator_name=b"test.ReverseBytewise")
    for i in range(20):
        db.put(key_of(i), b"v%d" % i)
    db.delete(key_of(3))
    db.close()
    with bloomtable.Database.open(path) as db:
        assert not db.ordered
        assert db.comparator_name == "test.ReverseBytewise"
        with pytest.raises(bloomtable.UnsupportedError, match="test.ReverseBytewise"):
            db.get(key_of(1))
        with pytest.raises(bloomtable.UnsupportedError):
            db.items()
        with pytest.raises(bloomtable.UnsupportedError):
            key_of(1) in db
        records = db.versions()
    assert len(records) == 21
    assert {(r.key, r.type) for r in records} == (
        {(key_of(i), "put") for i in range(20)} | {(key_of(3), "del")})


def test_open_errors(tmp_path):
    with pytest.raises(FileNotFoundError):
        bloomtable.Database.open(tmp_path / "missing")
    (tmp_path / "empty").mkdir()
    with pytest.raises(bloomtable.Error, match="not a LevelDB database"):
        bloomtable.Database.open(tmp_path / "empty")
    with pytest.raises(TypeError):
        bloomtable.Database.open(42)


def test_damaged_manifest_is_corruption(written):
    manifest = bloomtable.Database.open(written.path).manifest
    path = os.path.join(written.path, manifest)
    with open(path, "r+b") as f:
        data = bytearray(f.read())
        data[10] ^= 0xFF
        f.seek(0)
        f.write(data)
    with pytest.raises(bloomtable.CorruptionError):
        bloomtable.Database.open(written.path)


def test_salvage_opens_a_manifest_leveldb_refuses(written):
    with bloomtable.Database.open(written.path) as db:
        manifest = db.manifest
    path = os.path.join(written.path, manifest)
    with open(path, "r+b") as f:  # a byte of the last edit
        data = bytearray(f.read())
        data[-1] ^= 0xFF
        f.seek(0)
        f.write(data)
    with pytest.raises(bloomtable.CorruptionError, match="salvage"):
        bloomtable.Database.open(written.path)
    with pytest.warns(bloomtable.SalvageWarning, match="salvage skipped"):
        db = bloomtable.Database.open(written.path, salvage=True)
    with db:
        assert any(manifest in w and "salvage skipped" in w for w in db.warnings)


def test_closed_database_and_live_iterators_raise(written):
    db = bloomtable.Database.open(written.path)
    iterator = db.items()
    next(iterator)
    assert "Database" in repr(db)
    db.close()
    db.close()  # idempotent
    assert db.closed
    with pytest.raises(bloomtable.InvalidArgumentError, match="database is closed"):
        next(iterator)
    with pytest.raises(bloomtable.InvalidArgumentError, match="database is closed"):
        db.get(key_of(1))
    with pytest.raises(bloomtable.InvalidArgumentError):
        db.versions()


def test_threads_read_one_database_and_close_is_safe(written):
    model = written.model()
    expected = sorted(model.items())
    db = bloomtable.Database.open(written.path, max_open_files=2)
    errors = []

    def reader():
        try:
            assert list(db.items()) == expected
            for i in range(0, 1500, 17):
                assert db.get(key_of(i)) == model.get(key_of(i))
        except Exception as error:  # reported below
            errors.append(error)

    threads = [threading.Thread(target=reader) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []

    # A close while other threads iterate: each either finishes with the
    # model's entries or raises "database is closed", never crashes.
    outcomes = []

    def scanner():
        got = []
        try:
            for item in db.items():
                got.append(item)
            outcomes.append(("done", got == expected))
        except bloomtable.InvalidArgumentError as error:
            outcomes.append(("closed", "database is closed" in str(error)
                             and got == expected[:len(got)]))

    threads = [threading.Thread(target=scanner) for _ in range(3)]
    for t in threads:
        t.start()
    db.close()
    for t in threads:
        t.join()
    assert len(outcomes) == 3
    assert all(ok for _, ok in outcomes), outcomes


EXAMPLE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                       "examples", "list_database.py")


def run_example(*args):
    import subprocess
    import sys
    return subprocess.run([sys.executable, EXAMPLE, *args], capture_output=True,
                          text=True, check=False)


def test_example_lists_a_database_as_json_lines(written):
    import json
    result = run_example(written.path)
    assert result.returncode == 0, result.stderr
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert lines == [{"key": k.decode(), "value": v.decode()}
                     for k, v in sorted(written.model().items())]
    result = run_example(written.path, "--versions", "--sequence", "2000")
    assert result.returncode == 0, result.stderr
    versions = [json.loads(line) for line in result.stdout.splitlines()]
    assert versions and all(v["sequence"] <= 2000 for v in versions)
    for v in versions:
        key, kind, value = written.ops[v["sequence"] - 1]
        assert (v["key"], v["type"], v["value"]) == (key.decode(), kind, value.decode())
    result = run_example(os.path.dirname(written.path))
    assert result.returncode == 1
    assert "not a LevelDB database" in result.stderr


def test_damaged_table_raises_or_answers_as_the_model(tmp_path):
    """Every truncation and (a stride of) flipped bytes of the database's
    table: reads raise CorruptionError / UnsupportedError / OSError or give
    exactly the model's answers; the interpreter never crashes."""
    w = Written(tmp_path / "db")
    db = plyvel.DB(w.path, create_if_missing=True)
    for i in range(300):
        write(db, w, key_of(i), b"value-%d" % i)
    for i in range(0, 300, 4):
        write(db, w, key_of(i))
    db.compact_range()
    db.close()
    model = w.model()
    tables = [n for n in os.listdir(w.path) if n.endswith(".ldb")]
    assert len(tables) == 1
    table = os.path.join(w.path, tables[0])
    with open(table, "rb") as f:
        original = f.read()

    outcomes = {"answered": 0, "raised": 0}

    def check():
        try:
            with bloomtable.Database.open(w.path) as damaged:
                assert list(damaged.items()) == sorted(model.items())
                for i in range(0, 300, 7):
                    assert damaged.get(key_of(i)) == model.get(key_of(i))
            outcomes["answered"] += 1
        except (bloomtable.CorruptionError, bloomtable.UnsupportedError, OSError):
            outcomes["raised"] += 1

    try:
        for size in range(0, len(original), 97):
            with open(table, "wb") as f:
                f.write(original[:size])
            check()
        for position in range(0, len(original), 13):
            data = bytearray(original)
            data[position] ^= 0x40
            with open(table, "wb") as f:
                f.write(data)
            check()
    finally:
        with open(table, "wb") as f:
            f.write(original)
    assert outcomes["raised"] > 0
    check()
    assert outcomes["answered"] > 0


def test_damaged_log_never_crashes_and_never_invents_values(tmp_path):
    """Flipped bytes of a live log: the damaged records are skipped (a
    warning says so) or the open fails with a bloomtable error; every value
    read is one that was written for its key."""
    w = Written(tmp_path / "db")
    db = plyvel.DB(w.path, create_if_missing=True)
    for i in range(200):
        write(db, w, key_of(i % 60), b"value-%d" % i)
    db.close()
    written_values = {}
    for key, _, value in w.ops:
        written_values.setdefault(key, set()).add(value)
    logs = [n for n in os.listdir(w.path) if n.endswith(".log")]
    log = os.path.join(w.path, max(logs))
    with open(log, "rb") as f:
        original = f.read()
    warned = 0
    for position in range(0, len(original), 29):
        data = bytearray(original)
        data[position] ^= 0x01
        with open(log, "wb") as f:
            f.write(data)
        try:
            with bloomtable.Database.open(w.path) as damaged:
                warned += bool(damaged.warnings)
                for key, value in damaged.items():
                    assert value in written_values[key]
        except (bloomtable.Error, OSError):
            pass
    assert warned > 0
