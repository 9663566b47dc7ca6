"""Hypothesis strategies for MCP toolset composition and dedup (contracts/requirements/toolsets.yaml).

Small pieces that compose: server ids and dedup keys drawn from alphabets
that mix ASCII, case pairs, non-ASCII (composed letters, CJK, an astral
emoji, a BMP character above the surrogate range) and leading/trailing
whitespace; byte-level variants of a key; and whole "layouts" of servers
(groups sharing a key, plus servers without one) in a drawn config order.

Servers are addressed by index: server i sits on the `tenant` route with
the query `tenant=t<i>`, so each one offers its own tool (`tenant_t<i>_lookup`)
and collapsed vs not collapsed is visible without duplicate-tool errors.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

from hypothesis import strategies as st

ID_ALPHABET = "abzABZ09-_.éÉßΩω中\uff61😀"
"""Server id characters: case pairs, byte order != casefold order != UTF-16 order (U+FF61 vs U+1F600)."""

KEY_ALPHABET = "aAtTzZ-_09éÉñÑ中"
"""Dedup key characters (the composed letters have a distinct NFD form)."""

COMPOSED = "éÉñÑåÅüÜ"
"""Letters whose NFC and NFD spellings differ."""

PADDING = st.sampled_from(["", " ", "\t", "  "])
"""Leading/trailing whitespace (only the contract's whitespace characters)."""


def _pad(core: str, lead: str, trail: str) -> str:
    return f"{lead}{core}{trail}"


def server_id() -> st.SearchStrategy[str]:
    """A non-blank server id, possibly non-ASCII and padded with whitespace."""
    core = st.text(alphabet=ID_ALPHABET, min_size=1, max_size=5)
    return st.builds(_pad, core, PADDING, PADDING)


def id_variant(server: str) -> st.SearchStrategy[str]:
    """A byte-level variant of an id: other case, extra whitespace, other normal form."""
    return st.sampled_from(
        [
            server.swapcase(),
            f" {server}",
            f"{server}\t",
            unicodedata.normalize("NFD", server),
            server.upper(),
        ]
    )


@st.composite
def server_ids(draw: st.DrawFn, count: int) -> list[str]:
    """`count` distinct ids; some are case/whitespace/normal-form variants of earlier ones."""
    ids = draw(st.lists(server_id(), min_size=count, max_size=count, unique=True))
    for index in range(1, count):
        if draw(st.booleans()):
            variant = draw(st.sampled_from(ids[:index]).flatmap(id_variant))
            if variant not in ids:
                ids[index] = variant
    return ids


def dedup_key() -> st.SearchStrategy[str]:
    """A key (non-blank), possibly non-ASCII and padded with whitespace."""
    core = st.text(alphabet=KEY_ALPHABET, min_size=1, max_size=6)
    return st.builds(_pad, core, PADDING, PADDING)


def folded(key: str) -> str:
    """What a runtime that normalises keys would compare: trimmed, NFKC, case-folded."""
    return unicodedata.normalize("NFKC", key.strip()).casefold()


def distinct_keys(min_size: int, max_size: int) -> st.SearchStrategy[list[str]]:
    """Keys that stay distinct even after trimming, case folding and Unicode normalisation."""
    return st.lists(dedup_key(), min_size=min_size, max_size=max_size, unique_by=folded)


@st.composite
def key_with_variants(draw: st.DrawFn) -> list[str]:
    """A key and its byte-level variants: padded, other case, other normal form (all distinct)."""
    core = draw(st.text(alphabet="atzATZ-", min_size=1, max_size=4).filter(lambda s: s.swapcase() != s))
    base = unicodedata.normalize("NFC", core + draw(st.sampled_from(COMPOSED)))
    lead, trail = draw(st.sampled_from([(" ", " "), ("\t", ""), ("", "  ")]))
    variants = [base, f"{lead}{base}{trail}", base.swapcase(), unicodedata.normalize("NFD", base)]
    return variants


@dataclass(frozen=True)
class Member:
    """One server of a drawn layout: its index (route query `tenant=t<index>`), id, key, preference."""

    index: int
    id: str
    key: str | None
    preferred: bool

    @property
    def tenant(self) -> str:
        """The `tenant=` query value, hence the tool `tenant_<tenant>_lookup`."""
        return f"t{self.index}"


@dataclass(frozen=True)
class Layout:
    """Servers in config order; `groups` lists each group's members by key."""

    members: tuple[Member, ...]
    groups: dict[str, tuple[Member, ...]]


@st.composite
def survivor_layout(draw: st.DrawFn) -> Layout:
    """Two groups (one with exactly one preferred member, one with none) in a drawn config order."""
    sizes = draw(st.tuples(st.integers(2, 3), st.integers(2, 3)))
    ids = draw(server_ids(sum(sizes)))
    keys = draw(distinct_keys(2, 2))
    preferred_at = draw(st.integers(0, sizes[0] - 1))
    members = [Member(i, ids[i], keys[0], i == preferred_at) for i in range(sizes[0])]
    members += [Member(i, ids[i], keys[1], False) for i in range(sizes[0], sum(sizes))]
    ordered = draw(st.permutations(members))
    groups = {key: tuple(m for m in members if m.key == key) for key in keys}
    return Layout(tuple(ordered), groups)


@st.composite
def opaque_layout(draw: st.DrawFn) -> tuple[list[Member], list[Member]]:
    """(servers with keys distinct in every sense or no key, servers whose keys differ only bytewise)."""
    keys: list[str | None] = list(draw(distinct_keys(1, 2)))
    if len(keys) == 1:
        keys.append(draw(st.sampled_from([None, ""])))  # a keyless server beside a keyed one
    variants = draw(key_with_variants())
    ids = draw(server_ids(len(keys) + len(variants)))
    distinct = [Member(i, ids[i], key, False) for i, key in enumerate(keys)]
    offset = len(distinct)
    similar = [Member(offset + i, ids[offset + i], key, False) for i, key in enumerate(variants)]
    return distinct, similar
