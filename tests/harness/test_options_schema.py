"""contracts/options.yaml and hello.json's `options` schema name the same options and values.

options.yaml is the source (CONTRACT.md §15, PROTOCOL.md §9); hello.json validates what a
candidate declares. An option or a value added to one and not the other would either refuse a
valid `hello` or let an undefined value through to the checks.
"""

from __future__ import annotations

from typing import Any

from toolproof.judge.contract_files import load_json, load_yaml


def _declared_schema() -> dict[str, Any]:
    hello = load_json("protocol/commands/hello.json")
    return dict(hello["$defs"]["options"]["properties"])


def test_hello_schema_names_exactly_the_options_of_options_yaml() -> None:
    assert sorted(_declared_schema()) == sorted(load_yaml("options.yaml")["options"])


def test_every_enumerated_option_allows_exactly_its_values() -> None:
    schema = _declared_schema()
    options = load_yaml("options.yaml")["options"]
    mismatched = {
        name: (spec["values"], schema[name].get("enum"))
        for name, spec in options.items()
        if "values" in spec and schema[name].get("enum") != spec["values"]
    }
    assert mismatched == {}
