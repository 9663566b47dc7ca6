"""Invalid names aliased by sanitising and truncating to 64 characters, with nothing keeping them apart.

Issue 22 §6: two names that share their first 64 characters get one alias.
Both tools are offered under it, and every call of that name reaches the
first. The alias itself is valid and stable, so only the pairs
(`names_pair`: one server; `names_long` + `names_twin`: two) show it.

The patch replaces the reference's hash alias by `[^a-zA-Z0-9_-]` -> `_`
and a cut at 64 characters, and drops the claim that keeps wire names
unique.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="wire-alias-truncated",
    provenance="contract",
    bug="the alias is the name sanitised and cut at 64 characters, and aliases are never kept unique",
    source="issue 22 §6 (two 64-character aliases that share a prefix)",
    kills=("wire.invalid-name-maps-back", "wire.unique-function-names"),
    patches=(
        Patch(file="packing.py", old="import hashlib\n", new="import hashlib\nimport re as _re\n"),
        Patch(
            file="packing.py",
            old=(
                '    digest = hashlib.sha256(name.encode("utf-8")).hexdigest()\n'
                "    return ALIAS_PREFIX + digest[:ALIAS_HEX_DIGITS]\n"
            ),
            new='    return _re.sub(r"[^a-zA-Z0-9_-]", "_", name)[:64]\n',
        ),
        Patch(
            file="packing.py",
            old=(
                "        # An alias could, in theory, equal another tool's literal name.\n"
                "        claim_name(wire_names, packed.wire_name)\n"
            ),
            new="",
        ),
    ),
    select="test_invalid_tool_names_get_a_stable_alias",
)
