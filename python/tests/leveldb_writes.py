"""Real LevelDB databases for the suite, written by plyvel (a binding to
LevelDB: the wheel from PyPI in the test environment), with every write
recorded so that a test can compare what it reads with a dict model."""

import plyvel


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


def write_levels_and_log(path) -> Written:
    """Tables on several levels (small write buffer, a compaction) and a live
    log: puts, overwrites and deletes of keys that exist and do not."""
    w = Written(path)
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
