"""Shared fixtures of the bloomtable pytest suite.

Hypothesis: no deadline (the machine may be loaded), and derandomized when
CI=true so that a CI run is reproducible.
"""

import os

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "bloomtable",
    deadline=None,
    derandomize=os.environ.get("CI", "").lower() in ("1", "true", "yes"),
    max_examples=60,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
settings.load_profile("bloomtable")

import bloomtable  # noqa: E402  (after the profile, before the fixtures)
from leveldb_writes import write_levels_and_log  # noqa: E402


def key_of(i: int) -> bytes:
    return b"key%06d" % i


@pytest.fixture
def model():
    """A dict of 2,000 entries: even-numbered keys, values of varied size."""
    return {key_of(i): (b"v%d-" % i) * (i % 7) for i in range(0, 4000, 2)}


@pytest.fixture
def table_path(tmp_path, model):
    """A table of `model` (LevelDB's Bloom filter, small blocks)."""
    path = tmp_path / "model.ldb"
    bloomtable.build_table(path, sorted(model.items()), block_size=512)
    return path


@pytest.fixture
def written(tmp_path):
    """A LevelDB database with tables on several levels and a live log, and
    its writes (leveldb_writes.Written)."""
    return write_levels_and_log(tmp_path / "db")
