"""toolproof.judge.catalog: the requirement catalog, cross-checked against the suite and the invariants."""

from __future__ import annotations

import ast
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import toolproof.conformance
import yaml

from toolproof.errors import UsageError
from toolproof.judge import idle, loopback
from toolproof.judge.catalog import load_catalog
from toolproof.judge.checks import PRECONDITION
from toolproof.judge.contract_files import contracts_dir
from toolproof.judge.declared import ANY_WIRE, CAPABILITIES, FAMILIES, OPENAI_WIRE
from toolproof.judge.invariants import INVARIANTS, REQUEST_INVARIANTS

SUITE = Path(toolproof.conformance.__file__).resolve().parent
REQUIREMENT_ID = re.compile(
    r"^tp-(proto|ns|dedup|wire|stream|resp|anth|args|result|hist|err|loop|cont|receipt|mcp|hdr)-[a-z0-9]+(-[a-z0-9]+)*$"
)
CHECK_ID = re.compile(r"^[a-z]+(\.[a-z0-9]+(-[a-z0-9]+)*)+$")


def raw_entries() -> list[tuple[str, dict[str, Any]]]:
    """(file, requirement entry) of every requirements file, read independently of the catalog."""
    folder = contracts_dir()
    files = [folder / "requirements.yaml", *sorted((folder / "requirements").glob("*.yaml"))]
    out: list[tuple[str, dict[str, Any]]] = []
    for path in files:
        document = yaml.safe_load(path.read_text(encoding="utf-8"))
        entries = document["requirements"] if isinstance(document, dict) else document
        out.extend((path.name, entry) for entry in entries)
    return out


def _module_constants(tree: ast.Module) -> dict[str, Any]:
    """Module-level `NAME = <literal>` assignments (check ids are often named once and reused)."""
    constants: dict[str, Any] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            try:
                constants[node.targets[0].id] = ast.literal_eval(node.value)
            except ValueError:
                continue
    return constants


def _marker_ids(args: list[ast.expr], constants: dict[str, Any], where: str) -> list[str]:
    ids: list[str] = []
    for arg in args:
        if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
            ids.append(arg.value)
        elif isinstance(arg, ast.Name) and isinstance(constants.get(arg.id), str):
            ids.append(constants[arg.id])
        elif (
            isinstance(arg, ast.Starred)
            and isinstance(arg.value, ast.Name)
            and isinstance(constants.get(arg.value.id), tuple | list)
            and all(isinstance(v, str) for v in constants[arg.value.id])
        ):
            ids.extend(constants[arg.value.id])
        else:
            raise AssertionError(f"{where}: a check id must be a literal or a module-level literal constant")
    return ids


def suite_check_markers() -> dict[str, list[str]]:
    """check id -> `file:line` of every `mark.checks(...)` call in the suite."""
    found: dict[str, list[str]] = {}
    for path in sorted(SUITE.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        constants = _module_constants(tree)
        for node in ast.walk(tree):
            if not (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "checks"
                and isinstance(node.func.value, ast.Attribute)
                and node.func.value.attr == "mark"
            ):
                continue
            where = f"{path.name}:{node.lineno}"
            for check_id in _marker_ids(node.args, constants, where):
                found.setdefault(check_id, []).append(where)
    return found


def test_ids_are_unique_across_all_files() -> None:
    ids = []
    for _file, entry in raw_entries():
        ids.append(entry["id"])
        ids.extend(check["id"] for check in entry.get("checks") or [])
    assert [i for i, n in Counter(ids).items() if n > 1] == []
    catalog = load_catalog()
    assert len(catalog.requirements) + len(catalog.checks) == len(ids)


def test_ids_follow_the_naming_rules() -> None:
    catalog = load_catalog()
    assert [r for r in catalog.requirements if not REQUIREMENT_ID.match(r)] == []
    assert [c for c in catalog.checks if not CHECK_ID.match(c)] == []


def test_every_requirement_has_a_check_and_checks_inherit_level_and_capability() -> None:
    catalog = load_catalog()
    assert [r.id for r in catalog.requirements.values() if not r.checks] == []
    for requirement in catalog.requirements.values():
        for check_id in requirement.checks:
            spec = catalog.checks[check_id]
            assert (spec.requirement, spec.level, spec.capability) == (
                requirement.id,
                requirement.level,
                requirement.capability,
            )
    assert sorted(c for r in catalog.requirements.values() for c in r.checks) == sorted(catalog.checks)


def test_capabilities_are_protocol_capabilities() -> None:
    catalog = load_catalog()
    assert {r.capability for r in catalog.requirements.values()} - {None, *FAMILIES, *CAPABILITIES} == set()


def test_every_check_marked_in_the_suite_exists() -> None:
    catalog = load_catalog()
    markers = suite_check_markers()
    assert markers != {}
    assert {check: where for check, where in markers.items() if check not in catalog.checks} == {}


def test_every_non_invariant_check_is_hosted_by_a_suite_test() -> None:
    # The precondition is the one exception: every test that builds or runs decides it.
    catalog = load_catalog()
    markers = suite_check_markers()
    unhosted = sorted(c.id for c in catalog.checks.values() if not c.invariant and c.id not in markers)
    assert unhosted == [PRECONDITION]


def test_invariant_checks_are_exactly_the_invariant_probes() -> None:
    # Each invariant check has exactly one recorder: a body probe (INVARIANTS), a whole-request
    # probe (REQUEST_INVARIANTS), the egress guard, or the idle-answer timing of every request.
    catalog = load_catalog()
    recorders = [*INVARIANTS, *REQUEST_INVARIANTS, loopback.CHECK_ID, idle.CHECK_ID]
    assert sorted(recorders) == sorted(set(recorders))
    assert sorted(c.id for c in catalog.checks.values() if c.invariant) == sorted(recorders)


def test_no_suite_test_declares_an_invariant() -> None:
    # Invariants are recorded by the harness on every request; a marker would make them "hosted".
    catalog = load_catalog()
    assert sorted(c for c in suite_check_markers() if catalog.checks[c].invariant) == []


@pytest.mark.parametrize(
    ("typo", "message"),
    [
        (
            "loop.completed-outptu",
            "unknown check id 'loop.completed-outptu' (did you mean 'loop.completed-output'?)",
        ),
        (
            "proto.unknown-buidl-id",
            "unknown check id 'proto.unknown-buidl-id' (did you mean 'proto.unknown-build-id'?)",
        ),
        ("zzzz", "unknown check id 'zzzz'"),
    ],
)
def test_unknown_check_names_the_likely_typo(typo: str, message: str) -> None:
    with pytest.raises(UsageError) as caught:
        load_catalog().check(typo)
    assert str(caught.value) == message


def test_statements_are_single_spaced() -> None:
    catalog = load_catalog()
    assert [r.id for r in catalog.requirements.values() if r.statement != " ".join(r.statement.split())] == []
    assert [r.id for r in catalog.requirements.values() if not r.statement] == []


def _contract_index() -> dict[str, tuple[str, str, str]]:
    """CONTRACT.md §17: requirement id -> (level, capability column as written, source class)."""
    text = (contracts_dir() / "CONTRACT.md").read_text(encoding="utf-8")
    index = text.split("## 17. Requirement index", 1)[1]
    rows = re.findall(r"^\| `(tp-[a-z0-9-]+)` \| (MUST|SHOULD) \| ([^|]+) \| ([a-z-]+) \|", index, flags=re.M)
    assert len(rows) == len({r[0] for r in rows}), "an id is listed twice in the index"
    return {rid: (level, capability.strip(), source) for rid, level, capability, source in rows}


def _contract_body() -> list[tuple[str, str]]:
    """The numbered normative sentences of CONTRACT.md's sections (`1. \\`tp-...\\` MUST`): (id, level)."""
    text = (contracts_dir() / "CONTRACT.md").read_text(encoding="utf-8")
    body = text.split("## 17. Requirement index", 1)[0]
    return re.findall(r"^\d+\. `(tp-[a-z0-9-]+)` (MUST|SHOULD)\b", body, flags=re.M)


def test_contract_index_lists_exactly_the_catalog_requirements() -> None:
    catalog = load_catalog()
    index = _contract_index()
    assert sorted(index) == sorted(catalog.requirements)
    for rid, (level, capability, source) in index.items():
        requirement = catalog.requirements[rid]
        written = capability.split(" ", 1)[0]  # "— (non-claimers of X)" is a null capability
        assert (level, written, source) == (
            requirement.level,
            requirement.capability or "—",
            requirement.source_class,
        ), rid


def test_contract_sections_state_exactly_the_catalog_requirements_at_their_level() -> None:
    body = _contract_body()
    assert len(body) == len({rid for rid, _level in body}), "a requirement is stated twice"
    catalog = load_catalog()
    assert sorted(body) == sorted((r.id, r.level) for r in catalog.requirements.values())


GROUP_ID = re.compile(r"^[a-z][a-z0-9]*(-[a-z0-9]+)*$")


def test_every_check_names_its_group_explicitly() -> None:
    # No default and no inheritance from the requirement: each check says which observation it reads.
    missing = [
        check.get("id")
        for _file, entry in raw_entries()
        for check in entry.get("checks") or []
        if "group" not in check
    ]
    assert missing == []
    catalog = load_catalog()
    assert [c.id for c in catalog.checks.values() if not c.group] == []
    assert sorted(c for ids in catalog.groups.values() for c in ids) == sorted(catalog.checks)


def test_group_ids_are_well_formed_and_never_a_check_or_requirement_id() -> None:
    catalog = load_catalog()
    assert [g for g in catalog.groups if not GROUP_ID.match(g) or g.startswith("tp-")] == []
    assert set(catalog.groups) & (set(catalog.checks) | set(catalog.requirements)) == set()


def test_a_group_stays_within_one_capability_and_one_verdict_side() -> None:
    # One observation is produced by one part of a runtime: a group that spans capabilities (or the
    # candidate and the adapter's stream) would join checks no single defect fails together.
    # `openai.*` narrows `model.*` to the wires that can carry an input (argument text, an empty
    # result): the same part of a runtime produces the observation, so the two count as one here.
    catalog = load_catalog()

    def kind(check: str) -> str:
        capability = str(catalog.checks[check].capability)
        return ANY_WIRE if capability == OPENAI_WIRE else capability

    spans = {
        group: sorted({(kind(c), catalog.checks[c].side) for c in ids})
        for group, ids in catalog.groups.items()
    }
    assert {group: kinds for group, kinds in spans.items() if len(kinds) > 1} == {}


def test_a_group_of_several_checks_is_the_exception_not_the_rule() -> None:
    # Grouping is for checks that read one observation: never a whole area lumped together. The
    # largest, tool-arguments (11), is the tools/call arguments, read by every args.* check but one.
    catalog = load_catalog()
    assert 1 < len(catalog.groups) < len(catalog.checks)
    assert max(len(ids) for ids in catalog.groups.values()) <= 11


def test_a_loaded_check_without_a_group_is_a_usage_error() -> None:
    from toolproof.judge import catalog as catalog_module

    entry = {
        "id": "tp-loop-x",
        "level": "MUST",
        "capability": None,
        "statement": "x",
        "source": {"class": "spec", "cite": ["protocol-v1"]},
        "checks": [{"id": "loop.x", "summary": "x"}],
    }
    with pytest.raises(UsageError, match=r"'loop\.x': group must be an observation id"):
        catalog_module._parse([entry], "loop.yaml")
    for bad in ("Tool-Text", "tool.text", "tp-tool-text", "", 3):
        entry["checks"] = [{"id": "loop.x", "group": bad, "summary": "x"}]
        with pytest.raises(UsageError):
            catalog_module._parse([entry], "loop.yaml")
    entry["checks"] = [{"id": "loop.x", "group": "tool-text", "summary": "x"}]
    (spec, _requirement) = catalog_module._parse([entry], "loop.yaml")
    assert isinstance(spec, catalog_module.CheckSpec)
    assert spec.group == "tool-text"


def test_contract_lists_exactly_the_catalog_groups() -> None:
    text = (contracts_dir() / "CONTRACT.md").read_text(encoding="utf-8")
    section = text.split("### Observations (check groups)", 1)[1]
    listed = {
        group: sorted(re.findall(r"`([a-z][a-z0-9-]*(?:\.[a-z0-9-]+)+)`", checks))
        for group, checks in re.findall(r"^- `([a-z0-9-]+)` \([^)]*\): (.*)$", section, flags=re.M)
    }
    catalog = load_catalog()
    assert listed == {group: sorted(ids) for group, ids in catalog.groups.items()}
