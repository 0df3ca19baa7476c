"""Property tests: tables against a dict, filters against a set."""

import itertools

from hypothesis import given, strategies as st

import bloomtable

keys = st.binary(min_size=0, max_size=12)
values = st.binary(max_size=40)
layouts = st.sampled_from([
    {"filter": "bloom"},
    {"filter": "none"},
    {"filter": "cache_local_bloom", "bits_per_key": 6.5, "filter_layout": "whole_table"},
    {"filter": "ribbon", "filter_layout": "partitioned", "filter_partition_keys": 4},
    {"filter": "bloom", "prefix_extractor": bloomtable.PrefixExtractor.capped(2),
     "range_filter_bits_per_key": 8},
])
build_options = st.fixed_dictionaries({
    "block_size": st.sampled_from([64, 4096]),
    "block_restart_interval": st.sampled_from([1, 3, 16]),
    "compression": st.sampled_from(["none", "snappy", "zstd"]),
})


@given(model=st.dictionaries(keys, values, max_size=150), probes=st.lists(keys, max_size=40),
       layout=layouts, options=build_options,
       bounds=st.tuples(st.none() | keys, st.none() | keys), reverse=st.booleans(),
       prefix=st.none() | st.binary(max_size=2))
def test_table_answers_as_a_dict(tmp_path_factory, model, probes, layout, options, bounds,
                                 reverse, prefix):
    path = tmp_path_factory.mktemp("prop") / "t.ldb"
    bloomtable.build_table(path, model, sort=True, **layout, **options)
    everything = sorted(model.items())
    start, stop = bounds
    with bloomtable.Table.open(path) as t:
        for k in itertools.chain(probes, list(model)[:20]):
            assert t.get(k) == model.get(k)
            assert (k in t) == (k in model)
        assert t.multi_get(probes) == [model.get(k) for k in probes]
        assert list(t.items()) == everything
        expected = [(k, v) for k, v in everything
                    if (start is None or k >= start) and (stop is None or k < stop)
                    and (prefix is None or k.startswith(prefix))]
        if reverse:
            expected.reverse()
        assert list(t.items(start, stop, reverse=reverse, prefix=prefix)) == expected
        for k in model:
            assert t.may_contain_range(k, k + b"\x00")


@given(members=st.sets(keys, max_size=300), others=st.lists(keys, max_size=100),
       kind=st.sampled_from(["bloom", "cache_local_bloom", "ribbon", "legacy_bloom"]),
       bits=st.integers(min_value=1, max_value=20))
def test_filter_has_no_false_negatives_and_round_trips(members, others, kind, bits):
    f = bloomtable.Filter.build(members, kind, bits_per_key=bits)
    assert all(f.may_contain(k) for k in members)
    g = bloomtable.Filter(f.to_bytes(), f.policy)
    assert [g.may_contain(k) for k in others] == [f.may_contain(k) for k in others]
