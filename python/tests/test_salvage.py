"""Database.open(salvage=True) on a damaged database: the records after the
damage are read (status 'recovered'), and a SalvageWarning says that the
answers are partial."""

import warnings

import plyvel
import pytest

import bloomtable


@pytest.fixture
def damaged(tmp_path):
    path = tmp_path / "db"
    db = plyvel.DB(str(path), create_if_missing=True)
    for i in range(8):
        db.put(b"k%d" % i, b"value %d" % i)
    db.close()
    [log] = sorted(path.glob("*.log"))
    data = bytearray(log.read_bytes())
    data[7 + 15] ^= 0x10  # the first record's batch
    log.write_bytes(bytes(data))
    return path


def test_salvage_warns_and_recovers(damaged):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with bloomtable.Database.open(damaged) as plain:  # no warning
            assert list(plain.items()) == []
    with pytest.warns(bloomtable.SalvageWarning, match="partially"):
        db = bloomtable.Database.open(damaged, salvage=True)
    with db:
        assert db.get(b"k3") == b"value 3"
        statuses = {r.key: r.status for r in db.versions()}
        assert set(statuses.values()) == {"recovered"}
        assert len(statuses) == 8
        assert any("recovered" in w for w in db.warnings)
    assert issubclass(bloomtable.SalvageWarning, UserWarning)


def test_an_undamaged_database_does_not_warn(tmp_path):
    path = tmp_path / "db"
    db = plyvel.DB(str(path), create_if_missing=True)
    db.put(b"a", b"1")
    db.close()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with bloomtable.Database.open(path, salvage=True) as db:
            assert db.get(b"a") == b"1"
