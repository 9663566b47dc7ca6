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

from toolproof.connect import egress
from toolproof.errors import UsageError
from toolproof.judge.catalog import load_catalog
from toolproof.judge.checks import PRECONDITION
from toolproof.judge.contract_files import contracts_dir
from toolproof.judge.declared import CAPABILITIES
from toolproof.judge.invariants import INVARIANTS, REQUEST_INVARIANTS

SUITE = Path(toolproof.conformance.__file__).resolve().parent
REQUIREMENT_ID = re.compile(
    r"^tp-(proto|ns|dedup|wire|args|result|hist|err|loop|cont|receipt)-[a-z0-9]+(-[a-z0-9]+)*$"
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
    assert {r.capability for r in catalog.requirements.values()} - {None, *CAPABILITIES} == set()


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
    # probe (REQUEST_INVARIANTS), or the egress guard.
    catalog = load_catalog()
    recorders = [*INVARIANTS, *REQUEST_INVARIANTS, egress.CHECK_ID]
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
