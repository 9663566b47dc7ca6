"""A tool with an odd property name cannot be built, and NaN arguments are accepted.

Issue 22 §4: two runtimes could not build a tool whose schema declares a
property named `"0"`, `""` or `"with space"` (they turn the schema into a
model class, whose fields must be identifiers), and the same runtimes also
accepted `NaN` and single-quoted JSON. While every argument check built with
one tool declaring those odd names, each such build failed and the NaN
defect stayed hidden behind `undecided`. The odd names are now on tools of
their own (`oddkeys`, `rawkeys`), so the invalid-JSON check decides on the
plain `fidelity` tools and catches the NaN.

Kills `args.invalid-json-not-called`. The patch makes the reference's
`pack_tool` refuse an inputSchema property that is not a Python identifier
(the build answers `internal`), and its JSON parser accept `NaN`,
`Infinity` and `-Infinity`. In a full run the odd-key builds fail the
precondition (`args.odd-keys-arrive` is then undecided).
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="args-odd-property-unbuildable-nan-accepted",
    provenance="contract",
    bug=(
        "a tool declaring a property that is not an identifier cannot be built, and the arguments "
        "parser accepts NaN and the infinities"
    ),
    source="issue 22 §4 (two runtimes: odd property names fail the build; NaN accepted)",
    kills=("args.invalid-json-not-called",),
    collateral=("proto.valid-config-builds-and-runs",),
    patches=(
        Patch(
            file="packing.py",
            old=(
                '    """One MCP tool packed under `packed_name` (aliased when not a valid wire name)."""\n'
                "    return PackedTool(\n"
            ),
            new=(
                '    """One MCP tool packed under `packed_name` (aliased when not a valid wire name)."""\n'
                '    odd = [k for k in tool.input_schema.get("properties", {}) if not k.isidentifier()]\n'
                "    if odd:\n"
                '        raise ValueError(f"field name {odd[0]!r} is not a valid identifier")\n'
                "    return PackedTool(\n"
            ),
        ),
        Patch(
            file="arguments.py",
            old="    return json.loads(text, parse_constant=_reject_constant)\n",
            new="    return json.loads(text)\n",
        ),
    ),
)
