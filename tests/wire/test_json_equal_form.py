"""§2 JSON-equality as the suite compares argument values: numbers by value, I-JSON doubles."""

from __future__ import annotations

from typing import Any

import pytest
from toolproof.conformance._calls import json_equal_form


@pytest.mark.parametrize(
    ("sent", "received"),
    [
        pytest.param(5.0, 5, id="an integral float written back as an integer"),
        pytest.param(1e17, 100000000000000000, id="an exponent written out"),
        pytest.param(
            -5.1708572662861008e16, -51708572662861010, id="a double's shortest decimal (JavaScript's)"
        ),
        pytest.param({"n": [2.5e20]}, {"n": [250000000000000000000]}, id="nested"),
    ],
)
def test_the_same_number_written_another_way_is_equal(sent: Any, received: Any) -> None:
    assert json_equal_form(received) == json_equal_form(sent)


@pytest.mark.parametrize(
    ("sent", "received"),
    [
        pytest.param(2**53 - 1, 2**53 - 2, id="exact integers stay exact"),
        pytest.param(1.5, 1, id="a fraction is not its integer part"),
        pytest.param("5", 5, id="a string is never a number"),
        pytest.param(-5.1708572662861008e16, -51708572662861024, id="the next double"),
    ],
)
def test_a_different_value_stays_different(sent: Any, received: Any) -> None:
    assert json_equal_form(received) != json_equal_form(sent)


def test_an_integer_beyond_every_double_is_left_as_it_is() -> None:
    assert json_equal_form(10**400) == 10**400


def test_a_boolean_stays_a_boolean() -> None:
    # tp.expect compares types too (toolproof.judge.jsondiff): True must not become 1 here.
    assert json_equal_form([True, False]) == [True, False]
    assert [type(v) for v in json_equal_form([True, 1.0])] == [bool, int]
