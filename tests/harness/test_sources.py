"""contracts/sources.md and the requirements' `source`: every requirement says where it comes from.

A requirement's class must be backed by a cite of that class (an anchor in the matching section
of sources.md); a MUST needs a published rule, a seed bug or a public bug of a runtime, never
toolproof's own reading; every cite resolves inside the repository, and nothing points outside it
to unpublished notes.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from toolproof.errors import UsageError
from toolproof.judge import catalog as catalog_module
from toolproof.judge.catalog import ANCHOR, SOURCE_CLASSES, load_catalog
from toolproof.judge.contract_files import contracts_dir

#: sources.md's sections, and the class of the anchors under each.
SECTIONS = {
    "Seed bugs": "seed",
    "Published rules": "spec",
    "Public bugs of runtimes": "upstream-bug",
    "toolproof's own reading": "toolproof",
}
#: Free-text forms of sources that are not in the repository (or not public).
UNPUBLISHED = re.compile(
    r"\.\./shared|research/|open-questions|upstream-contracts|\bseed (ru|zh)\b|\.(ru|zh)\.txt",
    flags=re.IGNORECASE,
)


def _sources_text() -> str:
    return (contracts_dir() / "sources.md").read_text(encoding="utf-8")


def anchors() -> dict[str, tuple[str, str]]:
    """sources.md: anchor -> (class of its section, the entry's text up to the next anchor)."""
    text = _sources_text()
    found: dict[str, tuple[str, str]] = {}
    section = None
    parts = re.split(r'^(## .+|<a id="[^"]*"></a>)$', text, flags=re.M)
    current: str | None = None
    for part in parts:
        heading = re.fullmatch(r"## (.+)", part)
        anchor = re.fullmatch(r'<a id="([^"]*)"></a>', part)
        if heading:
            section = SECTIONS.get(heading.group(1).strip())
            current = None
        elif anchor:
            current = anchor.group(1)
            assert ANCHOR.match(current), current
            assert current not in found, f"anchor {current!r} defined twice"
            assert section is not None, f"anchor {current!r} outside the classed sections"
            found[current] = (section, "")
        elif current is not None:
            found[current] = (found[current][0], found[current][1] + part)
    return found


def requirement_files() -> list[Path]:
    folder = contracts_dir()
    return [folder / "requirements.yaml", *sorted((folder / "requirements").glob("*.yaml"))]


def test_sources_md_has_anchors_in_every_section() -> None:
    assert sorted(Counter(cls for cls, _ in anchors().values())) == sorted(SECTIONS.values())


def test_every_cite_resolves_to_an_anchor_of_sources_md() -> None:
    known = anchors()
    unresolved = {
        r.id: [c for c in r.cites if c not in known]
        for r in load_catalog().requirements.values()
        if any(c not in known for c in r.cites)
    }
    assert unresolved == {}


def test_every_anchor_of_sources_md_is_cited() -> None:
    # An entry nothing cites is a source the contract does not rest on: it goes, or a cite names it.
    cited = {c for r in load_catalog().requirements.values() for c in r.cites}
    assert sorted(set(anchors()) - cited) == []


def test_a_class_is_backed_by_a_cite_of_that_class() -> None:
    known = anchors()
    unbacked = [
        r.id
        for r in load_catalog().requirements.values()
        if r.source_class not in {known[c][0] for c in r.cites if c in known}
    ]
    assert unbacked == []


def test_a_must_rests_on_a_spec_a_seed_or_an_upstream_bug() -> None:
    catalog = load_catalog()
    assert [r.id for r in catalog.requirements.values() if r.source_class not in SOURCE_CLASSES] == []
    # toolproof's own reading is at most a SHOULD (or a declared option, which the spec class covers).
    assert [
        r.id for r in catalog.requirements.values() if r.level == "MUST" and r.source_class == "toolproof"
    ] == []


def test_published_entries_say_where_they_are_published() -> None:
    # A spec names its public URL or its file in this repository; a runtime's bug names its public
    # issue or pull request; a seed or toolproof's reading is written out here, in the repository.
    missing = []
    for anchor, (cls, text) in anchors().items():
        if cls == "spec" and not re.search(r"<https://[^>]+>|\]\((?!https?:)[^)]+\)", text):
            missing.append(anchor)
        if cls == "upstream-bug" and not re.search(
            r"<https://github\.com/[^/]+/[^/]+/(issues|pull)/\d+>", text
        ):
            missing.append(anchor)
        if cls in ("seed", "toolproof") and len(text.split()) < 20:
            missing.append(anchor)
    assert missing == []


def test_sources_never_point_at_unpublished_notes() -> None:
    offenders = [
        f"{path.name}:{n}"
        for path in [*requirement_files(), contracts_dir() / "sources.md"]
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if UNPUBLISHED.search(line)
    ]
    assert offenders == []


def test_the_text_form_of_a_source_names_class_cites_and_note() -> None:
    requirement = load_catalog().requirements["tp-args-empty-blank"]
    assert requirement.source == (
        "upstream-bug: upstream-empty-arguments, rfc8259 (the cited bugs are empty and whitespace-only "
        "arguments failing a call to a tool without parameters; neither is JSON text (RFC 8259 §2), so "
        'both are treated alike. Replaces tp-args-empty-null ("null" has tp-args-null))'
    )
    assert load_catalog().checks["args.empty-and-blank-give-empty-object"].source_class == "upstream-bug"


ENTRY: dict[str, Any] = {
    "id": "tp-x-y",
    "level": "MUST",
    "capability": None,
    "statement": "s",
    "checks": [{"id": "x.y", "group": "x-y", "summary": "s"}],
}


@pytest.mark.parametrize(
    ("source", "message"),
    [
        ("seed ru §4a", "f: 'tp-x-y': source must be a mapping with class, cite and an optional note"),
        (
            {"class": "seed", "cite": ["a"], "url": "u"},
            "f: 'tp-x-y': source has unknown keys ['url']",
        ),
        (
            {"class": "preference", "cite": ["a"]},
            "f: 'tp-x-y': source: class must be one of ('spec', 'seed', 'upstream-bug', 'toolproof')",
        ),
        (
            {"class": "seed", "cite": []},
            "f: 'tp-x-y': source: cite must be a non-empty list of distinct contracts/sources.md anchors",
        ),
        (
            {"class": "seed", "cite": ["Seed RU"]},
            "f: 'tp-x-y': source: cite must be a non-empty list of distinct contracts/sources.md anchors",
        ),
        (
            {"class": "seed", "cite": ["a", "a"]},
            "f: 'tp-x-y': source: cite must be a non-empty list of distinct contracts/sources.md anchors",
        ),
        ({"class": "seed", "cite": ["a"], "note": 3}, "f: 'tp-x-y': source: note must be a string"),
    ],
)
def test_the_catalog_rejects_a_malformed_source(source: Any, message: str) -> None:
    with pytest.raises(UsageError) as caught:
        catalog_module._parse([{**ENTRY, "source": source}], "f")
    assert str(caught.value) == message


def test_the_catalog_reads_a_source() -> None:
    source = {"class": "seed", "cite": ["seed-a", "rfc8259"], "note": "only  partly\n"}
    requirement = catalog_module._parse([{**ENTRY, "source": source}], "f")[-1]
    assert isinstance(requirement, catalog_module.Requirement)
    assert (requirement.source_class, requirement.cites, requirement.source_note) == (
        "seed",
        ("seed-a", "rfc8259"),
        "only partly",
    )
