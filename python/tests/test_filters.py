"""Filters on their own: every policy, sizing, saving and loading."""

import pytest

import bloomtable

KINDS = ["bloom", "cache_local_bloom", "ribbon", "legacy_bloom"]
MEMBERS = [b"member-%d" % i for i in range(5000)]
OUTSIDERS = [b"outsider-%d" % i for i in range(20000)]


def false_positive_rate(f):
    return sum(f.may_contain(k) for k in OUTSIDERS) / len(OUTSIDERS)


@pytest.mark.parametrize("kind", KINDS)
def test_no_false_negatives_and_a_bounded_false_positive_rate(kind):
    f = bloomtable.Filter.build(MEMBERS, kind, bits_per_key=10)
    assert all(k in f for k in MEMBERS)
    assert f.num_keys == len(MEMBERS)
    assert f.policy.kind == kind
    # About 1% at 10 bits per key for each of them; 3% leaves room.
    assert false_positive_rate(f) < 0.03
    assert 10 * len(MEMBERS) / 8 * 0.9 < f.nbytes < 10 * len(MEMBERS) / 8 * 1.3


@pytest.mark.parametrize("kind", KINDS)
def test_saved_bytes_load_and_answer_the_same(kind):
    f = bloomtable.Filter.build(MEMBERS, kind, bits_per_key=8)
    data = f.to_bytes()
    assert bytes(f) == data
    for policy in (f.policy, f.policy.name, kind):
        g = bloomtable.Filter(data, policy)
        assert g.num_keys is None
        assert [g.may_contain(k) for k in MEMBERS + OUTSIDERS] == [
            f.may_contain(k) for k in MEMBERS + OUTSIDERS]
    g = bloomtable.Filter(bytearray(data), kind)
    assert all(k in g for k in MEMBERS)


@pytest.mark.parametrize("kind", ["cache_local_bloom", "ribbon", "bloom"])
def test_sized_by_rate(kind):
    for rate in (0.05, 0.005):
        f = bloomtable.Filter.build(MEMBERS, kind, fp_rate=rate)
        assert f.policy.fp_rate == rate
        assert all(k in f for k in MEMBERS)
        assert false_positive_rate(f) < 2.5 * rate
    assert (bloomtable.Filter.build(MEMBERS, kind, fp_rate=0.001).nbytes
            > bloomtable.Filter.build(MEMBERS, kind, fp_rate=0.05).nbytes)


def test_ribbon_is_smaller_than_bloom_at_the_same_rate():
    ribbon = bloomtable.Filter.build(MEMBERS, "ribbon", fp_rate=0.01)
    bloom = bloomtable.Filter.build(MEMBERS, "cache_local_bloom", fp_rate=0.01)
    assert ribbon.nbytes < bloom.nbytes


def test_policy_objects():
    p = bloomtable.FilterPolicy("cache_local_bloom", 7.5)
    assert (p.kind, p.name, p.bits_per_key, p.fp_rate) == (
        "cache_local_bloom", "bloomtable.CacheLocalBloom", 7.5, None)
    assert p.supports_per_block
    assert not bloomtable.FilterPolicy("ribbon").supports_per_block
    assert bloomtable.FilterPolicy("bloom").name == "leveldb.BuiltinBloomFilter2"
    assert bloomtable.FilterPolicy("legacy_bloom").name == "leveldb.BuiltinBloomFilter"
    assert "cache_local_bloom" in repr(p)
    r = bloomtable.FilterPolicy.for_rate("ribbon", 0.01)
    assert r.bits_per_key is None and r.fp_rate == 0.01
    f = bloomtable.Filter.build([b"a"], p)
    assert f.policy.bits_per_key == 7.5


@pytest.mark.parametrize(
    "call",
    [
        lambda: bloomtable.FilterPolicy("cuckoo"),
        lambda: bloomtable.FilterPolicy("bloom", 7.5),
        lambda: bloomtable.FilterPolicy("ribbon", 0),
        lambda: bloomtable.FilterPolicy("ribbon", float("nan")),
        lambda: bloomtable.FilterPolicy.for_rate("ribbon", 1.5),
        lambda: bloomtable.FilterPolicy.for_rate("ribbon", 0),
        lambda: bloomtable.Filter.build([b"a"], "ribbon", bits_per_key=8, fp_rate=0.1),
        lambda: bloomtable.Filter.build([b"a"], bloomtable.FilterPolicy("ribbon"), bits_per_key=8),
        lambda: bloomtable.Filter(b"", "unknown.Policy"),
    ],
)
def test_bad_policies_are_invalid_arguments(call):
    with pytest.raises(bloomtable.InvalidArgumentError):
        call()


def test_keys_must_be_bytes():
    with pytest.raises(TypeError, match="not str"):
        bloomtable.Filter.build(["text"])
    f = bloomtable.Filter.build([b"a"])
    with pytest.raises(TypeError):
        f.may_contain("a")


def test_empty_set_and_garbage_bytes():
    empty = bloomtable.Filter.build([], "cache_local_bloom")
    assert empty.num_keys == 0
    assert false_positive_rate(empty) < 0.01
    # Bytes that are no filter never crash; answers are only "maybe" or not.
    for kind in KINDS:
        for data in (b"", b"\x00", b"\xff" * 3, bytes(range(256)) * 3):
            g = bloomtable.Filter(data, kind)
            assert g.may_contain(b"x") in (True, False)


def test_sizing_helpers():
    bits, probes = bloomtable.bloom_sizing_for_rate(0.01)
    assert 9 < bits < 10.5 and probes == 7
    rate = bloomtable.bloom_false_positive_rate(bits, probes)
    assert rate == pytest.approx(0.01, rel=1e-6)
    assert bloomtable.bloom_false_positive_rate(10, 0) == 1.0


def test_prefix_extractors():
    fixed = bloomtable.PrefixExtractor.fixed(3)
    assert fixed.transform(b"abcdef") == b"abc" and fixed.transform(b"ab") is None
    assert not fixed.in_domain(b"ab")
    assert bloomtable.PrefixExtractor.capped(3).transform(b"ab") == b"ab"
    delimited = bloomtable.PrefixExtractor.delimited(b":", 2)
    assert delimited.transform(b"user:17:name") == b"user:17:"
    assert bloomtable.PrefixExtractor.from_name(delimited.name).name == delimited.name
    with pytest.raises(bloomtable.InvalidArgumentError):
        bloomtable.PrefixExtractor.from_name("mine.Prefix")
    with pytest.raises(bloomtable.InvalidArgumentError):
        bloomtable.PrefixExtractor.delimited(b"::")
