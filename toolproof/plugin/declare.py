"""Declared options replaced for a session or for one test: how `toolproof probe` asks the suite's
own scenarios "would this runtime pass if it had declared X?".

- `--toolproof-declare NAME=JSON` (repeatable) replaces one option for every test of the session;
- `--toolproof-variants FILE` (JSON: {"tests": {"<file>::<function>": [{NAME: value, ...}, ...]},
  "one_case": bool}) runs each listed test once per variant (a parametrization, `tpv<k>` in its
  node id) with those options replaced, and deselects every test it does not list; with
  `one_case`, a parametrized test runs only its first case per variant.

The replacement applies where the tests read the declaration (the `tp` fixture), after hello was
validated: the candidate's own hello is untouched and is what the report shows. Every value must be
one `contracts/options.yaml` allows (validated as hello's `options` are), so a probe never
judges a value no runtime could declare. A `toolproof run` without these options is unchanged.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from toolproof.connect.protocol import response_problem
from toolproof.fakes.model_server import DEFAULT_SAFETY_CAP
from toolproof.judge.contract_files import load_yaml
from toolproof.judge.declared import Declared
from toolproof.plugin.hooks import usage_error

VARIANT = "toolproof_variant"
"""The parametrization argument of a variant (a dict of option -> value), never a test's own."""
VARIANT_ID = "tpv"
"""A variant's id in the node id: `tpv<k>`, k its index in its test's list."""


_TYPES: dict[str, tuple[type, ...]] = {
    "string": (str,),
    "string-or-null": (str, type(None)),
    "integer": (int,),
    "number": (int, float),
    "string-or-number": (str, int, float),
}


def _fits(spec: Mapping[str, Any], value: Any) -> bool:
    if "values" in spec:  # exactly one listed value, its JSON type included (true is not 1)
        return any(value == v and type(value) is type(v) for v in spec["values"])
    if spec["type"] == "boolean":
        return isinstance(value, bool)
    return isinstance(value, _TYPES[str(spec["type"])]) and not isinstance(value, bool)


def check_values(values: Mapping[str, Any]) -> str | None:
    """Why `values` cannot stand in `hello.options` (None when they can): options.yaml's values and
    types, then hello's own schema (a pointer's form)."""
    specs = load_yaml("options.yaml")["options"]
    for name, value in values.items():
        if name not in specs:
            return f"unknown option {name!r} (contracts/options.yaml)"
        if not _fits(specs[name], value):
            allowed = specs[name].get("values", specs[name].get("type"))
            return f"{name}: {json.dumps(value)} is not a value options.yaml allows ({allowed})"
    hello = {
        "ok": True,
        "protocol": 1,
        "implementation": {"name": "probe", "version": "0", "language": "any"},
        "capabilities": [],
        "options": dict(values),
    }
    problem = response_problem("hello", hello)
    return None if problem is None else f"{json.dumps(dict(values))} is no valid hello.options"


def parse_declarations(lines: list[str], config: pytest.Config) -> dict[str, Any]:
    """`NAME=JSON` lines -> {name: value}; a usage error for a malformed or undeclarable one."""
    values: dict[str, Any] = {}
    for line in lines:
        name, sep, raw = line.partition("=")
        if not sep or not name:
            usage_error(f"--toolproof-declare expects NAME=JSON, got {line!r}", config)
        try:
            values[name] = json.loads(raw)
        except ValueError:
            usage_error(f"--toolproof-declare {name}: {raw!r} is not JSON", config)
    problem = check_values(values)
    if problem is not None:
        usage_error(f"--toolproof-declare: {problem}", config)
    return values


def load_variants(path: str, config: pytest.Config) -> dict[str, list[dict[str, Any]]]:
    """The variants file: test key -> its variants, each validated."""
    try:
        document = json.loads(Path(path).read_text(encoding="utf-8"))
        tests = document["tests"]
        config.stash[_ONE_CASE] = bool(document.get("one_case", False))
    except (OSError, ValueError, KeyError, TypeError) as exc:
        usage_error(f"--toolproof-variants {path}: {exc}", config)
    for key, variants in tests.items():
        for variant in variants:
            problem = check_values(variant) if isinstance(variant, dict) else "a variant is no object"
            if problem is not None:
                usage_error(f"--toolproof-variants {path}: {key}: {problem}", config)
    return {str(key): list(variants) for key, variants in tests.items()}


_SESSION = pytest.StashKey[dict[str, Any]]()
_VARIANTS = pytest.StashKey[dict[str, list[dict[str, Any]]]]()
_ONE_CASE = pytest.StashKey[bool]()


def configure(config: pytest.Config) -> None:
    """Read and validate both options once (a bad value is a usage error before anything runs)."""
    config.stash[_SESSION] = parse_declarations(list(config.getoption("toolproof_declare") or []), config)
    path = config.getoption("toolproof_variants")
    if path:
        config.stash[_VARIANTS] = load_variants(path, config)


def _key(module_file: str, function: str) -> str:
    return f"{Path(module_file).name}::{function}"


def generate(metafunc: pytest.Metafunc) -> None:
    """Parametrize every test the variants file lists with its variants."""
    variants = metafunc.config.stash.get(_VARIANTS, None)
    if not variants or metafunc.module is None:
        return
    listed = variants.get(_key(str(metafunc.module.__file__), metafunc.function.__name__))
    if not listed:
        return
    # Not an argument of the test function: pytest passes a test only its own arguments, so the
    # name joins the fixture closure (where the `tp` fixture finds it) and nothing else.
    metafunc.fixturenames.append(VARIANT)
    metafunc.parametrize(VARIANT, listed, ids=[f"{VARIANT_ID}{k}" for k in range(len(listed))])


def deselect(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Under --toolproof-variants, run only the variants."""
    if config.stash.get(_VARIANTS, None) is None:
        return
    kept, dropped, seen = [], [], set()
    for item in items:
        variant = variant_of(item)
        # One item per (test, variant): the variant itself, not pytest's index, which counts the
        # test's own parameter combinations too.
        case = (item.nodeid.split("[", 1)[0], json.dumps(variant, sort_keys=True))
        first = case not in seen
        seen.add(case)
        if variant is None or (config.stash.get(_ONE_CASE, False) and not first):
            dropped.append(item)
        else:
            kept.append(item)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept


def variant_of(item: pytest.Item) -> dict[str, Any] | None:
    """The options this test item runs with replaced (None outside a variant)."""
    callspec = getattr(item, "callspec", None)
    params = getattr(callspec, "params", {})
    value = params.get(VARIANT)
    return dict(value) if isinstance(value, dict) else None


def apply(declared: Declared, item: pytest.Item) -> Declared:
    """`declared` with the session's and this item's replacements (the same object when none)."""
    session: dict[str, Any] = item.config.stash.get(_SESSION, {})
    values = {**session, **(variant_of(item) or {})}
    if not values:
        return declared
    return replace(declared, options={**declared.options, **values})


def safety_floor(config: pytest.Config) -> int:
    """`--toolproof-safety-cap`: the fewest model requests a build may make before the harness
    ends its run (64 unless set; a probe's trials under a wrong cap value need not run so long)."""
    value = config.getoption("toolproof_safety_cap", None)
    if value is None:
        return DEFAULT_SAFETY_CAP
    if not isinstance(value, int) or value < 1:
        usage_error(f"--toolproof-safety-cap must be a positive integer, got {value!r}", config)
    return int(value)
