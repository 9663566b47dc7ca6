"""toolproof.judge.jsondiff: exact JSON-path differences, no normalisation."""

from __future__ import annotations

from toolproof.judge.jsondiff import Multiset, differences, distance, equal, pairing, render


def test_equal_values_have_no_differences() -> None:
    value = {"messages": [{"role": "tool", "content": ""}], "n": 1, "flag": True, "x": None}
    assert (
        differences(value, {"messages": [{"role": "tool", "content": ""}], "n": 1, "flag": True, "x": None})
        == []
    )
    assert equal(value, value) is True


def test_a_missing_key_is_not_a_null_key() -> None:
    assert differences({}, {"content": None}) == ["$.content: expected null got <missing>"]
    assert differences({"content": None}, {}) == ["$.content: expected <missing> got null"]
    assert equal({}, {"content": None}) is False


def test_one_and_one_point_zero_and_true_are_three_different_values() -> None:
    assert differences(1, 1.0) == ["$: expected 1.0 got 1"]
    assert differences(1.0, 1) == ["$: expected 1 got 1.0"]
    assert differences(True, 1) == ["$: expected 1 got true"]
    assert differences(1, True) == ["$: expected true got 1"]
    assert differences(0, False) == ["$: expected false got 0"]
    assert equal(1, 1) is True


def test_strings_are_compared_byte_for_byte() -> None:
    assert differences(" a\n", "a") == ['$: expected "a" got " a\\n"']
    assert differences("A", "a") == ['$: expected "a" got "A"']
    # Composed vs decomposed é: no Unicode normalisation either.
    assert differences("e\u0301", "\u00e9") == ['$: expected "\u00e9" got "e\u0301"']


def test_nested_paths_name_the_exact_place() -> None:
    observed = {"messages": [{}, {}, {}, {"role": "tool", "content": None}]}
    expected = {"messages": [{}, {}, {}, {"role": "tool", "content": ""}]}
    assert differences(observed, expected) == ['$.messages[3].content: expected "" got null']


def test_list_length_and_items_both_reported() -> None:
    assert differences([1, 2, 3], [1, 5]) == ["$: expected 2 items got 3", "$[1]: expected 5 got 2"]
    assert differences([], [{"a": 1}]) == ["$: expected 1 items got 0"]


def test_a_type_change_is_shown_with_both_renderings() -> None:
    assert differences({"a": [1]}, {"a": {"0": 1}}) == ['$.a: expected {"0": 1} got [1]']
    assert differences({"a": "1"}, {"a": 1}) == ['$.a: expected 1 got "1"']


def test_unexpected_keys_are_reported_as_expected_missing() -> None:
    assert differences({"ok": True, "extra": 1}, {"ok": True}) == ["$.extra: expected <missing> got 1"]


def test_limit_caps_the_number_of_lines() -> None:
    observed = {f"k{i}": i for i in range(20)}
    assert differences(observed, {}, limit=3) == [
        "$.k0: expected <missing> got 0",
        "$.k1: expected <missing> got 1",
        "$.k2: expected <missing> got 2",
    ]
    assert len(differences(observed, {})) == 8


def test_custom_root_path() -> None:
    assert differences({"a": 1}, {"a": 2}, path="$.body") == ["$.body.a: expected 2 got 1"]


def test_tuples_are_json_arrays_compared_element_by_element() -> None:
    # Observations are often built as tuples; exactness (1 is not 1.0) must hold inside them too.
    assert differences((1, "a"), (1.0, "a")) == ["$[0]: expected 1.0 got 1"]
    assert differences([("q", True)], [("q", 1)]) == ["$[0][1]: expected 1 got true"]
    assert differences(["a"], ("a",)) == []


def test_render() -> None:
    assert render({"a": [None, True, 1.5, "ü"]}) == '{"a": [null, true, 1.5, "ü"]}'


def test_a_multiset_pairs_each_item_with_its_closest_match_not_in_sorted_order() -> None:
    # Issue 22: one null dropped from each object. Sorted, the observed objects come in the other
    # order ({"y": 2} before {"z": 1}); paired in that order they showed six false differences.
    expected = Multiset([{"a": None, "z": 1}, {"b": None, "y": 2}])
    observed = Multiset([{"y": 2}, {"z": 1}])
    assert differences(observed, expected) == [
        "$[0].b: expected null got <missing>",
        "$[1].a: expected null got <missing>",
    ]
    assert differences(list(observed), list(expected)) == [
        "$[0].a: expected null got <missing>",
        "$[0].z: expected 1 got <missing>",
        "$[0].y: expected <missing> got 2",
        "$[1].b: expected null got <missing>",
        "$[1].y: expected 2 got <missing>",
        "$[1].z: expected <missing> got 1",
    ]


def test_a_multiset_pairs_equal_items_first_then_the_smallest_difference() -> None:
    expected = Multiset([{"k": 1, "v": "a"}, {"k": 2, "v": "b"}, {"k": 3, "v": "c"}])
    observed = [{"k": 3, "v": "c"}, {"k": 2, "v": "B"}, {"k": 9, "v": "a"}]
    assert differences(observed, expected) == [
        '$[1].v: expected "b" got "B"',
        "$[2].k: expected 1 got 9",
    ]


def test_a_multiset_shows_items_left_without_a_counterpart_whole() -> None:
    assert differences([1, 2, 7], Multiset([2, 1])) == [
        "$: expected 2 items got 3",
        "$[2]: expected <no item> got 7",
    ]
    assert differences([{"q": 1}], Multiset([{"q": 1}, {"q": 2, "r": [1, 2]}])) == [
        "$: expected 2 items got 1",
        '$: expected {"q": 2, "r": [1, 2]} got <no item>',
    ]
    assert equal([2, 1, 1], Multiset([1, 2, 1])) is True
    assert equal([1, 1.0], Multiset([1.0, 1])) is True
    assert equal([1, 1], Multiset([1.0, 1])) is False


def test_pairing_is_deterministic_and_breaks_ties_by_position() -> None:
    # two expected items at the same distance from the observed one: the first is taken
    assert pairing([{"a": 0}], [{"a": 1}, {"a": 2}]) == [(0, 0)]
    # the closest pair goes first, whatever the order of the observed items
    assert pairing([{"a": 1, "b": 9}, {"a": 1, "b": 2}], [{"a": 1, "b": 2, "c": 3}]) == [(1, 0)]


def test_distance_counts_the_leaves_that_differ() -> None:
    assert distance({"a": 1, "b": [1, 2]}, {"a": 1, "b": [1, 2]}) == 0
    assert distance({"a": 1}, {"a": 1, "x": None}) == 1
    assert distance({"a": {"b": 1, "c": 2}}, {"a": "text"}) == 3
    assert distance([1, 2, 3], [1]) == 2
    assert distance(1, 1.0) == 1
