"""Aliases numbered as tools are packed: a new alias for the same tool on every packing.

The model sees `runtime_tool_<n>` change between runs and builds, so a
conversation that names the tool from an earlier run calls a name that no
longer exists (the upstream alias is a hash of the name for this reason).
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="wire-alias-unstable",
    provenance="contract",
    bug="the alias hashes the name together with a process-wide packing counter",
    source="upstream-contracts §3 (stable alias runtime_tool_<12 hex of sha256(name)>)",
    kills=("wire.invalid-name-alias-stable",),
    patches=(
        Patch(file="packing.py", old="import hashlib\n", new="import hashlib\nimport itertools\n"),
        Patch(
            file="packing.py",
            old='    digest = hashlib.sha256(name.encode("utf-8")).hexdigest()\n',
            new=('    digest = hashlib.sha256(f"{name}#{next(_PACKED)}".encode()).hexdigest()\n'),
        ),
        Patch(
            file="packing.py",
            old='ALIAS_PREFIX = "runtime_tool_"\n',
            new='ALIAS_PREFIX = "runtime_tool_"\n_PACKED = itertools.count()\n',
        ),
    ),
)
