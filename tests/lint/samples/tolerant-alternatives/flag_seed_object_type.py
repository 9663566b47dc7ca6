# ruff: noqa
"""The seed's TestOpenAIToolsFromConfig_WithParameters, in Python: both spellings pass.

Go: `if params["type"] != "OBJECT" && params["type"] != "object" { t.Fatalf(...) }`.
"""

import pytest

from toolproof.plugin.scenario import Scenario


def test_parameters_type_tolerant_assert(tp: Scenario) -> None:
    tp.build(tp.config({"alpha": tp.server("alpha")}))
    tp.run("x")
    params = tp.model_bodies()[0]["tools"][0]["function"]["parameters"]
    # flag-next: tolerant-alternatives, bare-assert
    assert params["type"] == "OBJECT" or params["type"] == "object"


def test_parameters_type_tolerant_if(tp: Scenario) -> None:
    tp.run("x")
    params = tp.model_bodies()[0]["tools"][0]["function"]["parameters"]
    if params["type"] != "OBJECT" and params["type"] != "object":  # flag: tolerant-alternatives
        pytest.fail(f"parameters type is {params['type']}")  # flag: bare-assert


def test_either_kind_passes(tp: Scenario) -> None:
    outcome = tp.run("x")
    ok = outcome.kind == "internal" or outcome.kind == "invalid_config"  # flag: tolerant-alternatives
    tp.expect("proto.unknown-build-id", ok, True, what="kind")
