"""The reference runtime declaring `default_max_tool_turns: 1` (legitimate: the contract asks >= 1).

A positive control for the suite's precision: every test that needs K tool rounds sets its own
cap (Scenario.config's ROOMY default), so this candidate passes exactly what the reference does.
"""

from __future__ import annotations

from toolproof.candidates.reference import adapter, profiles

profiles.PROFILES["reference-cap-one"] = profiles.Profile(name="reference-cap-one", default_max_tool_turns=1)


def reference_cap_one() -> adapter.Adapter:
    """In-process adapter: the reference with a declared default cap of 1."""
    return adapter.factory("reference-cap-one")
