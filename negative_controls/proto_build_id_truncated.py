"""Build ids are cut to their first 64 characters.

An adapter that keys its builds by a prefix of the id (a column, a file name
or a map key of fixed width) merges two long ids that share that prefix: a
second build replaces the first, and a run under the first id reaches the
second's agent. PROTOCOL.md §3 allows any id of 1 to 200 characters. Only the
JSON Lines loop reads the id, so this control runs over cmd:.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="proto-build-id-truncated",
    provenance="contract",
    bug="the stdio adapter keys builds by the first 64 characters of their id",
    source="contracts/PROTOCOL.md §3 (a build id is an opaque string of 1-200 characters)",
    kills=("proto.build-id-opaque",),
    transport="cmd",
    patches=(
        Patch(
            file="adapter.py",
            old='to 200 characters")\n    return value\n',
            new='to 200 characters")\n    return value[:64]\n',
        ),
    ),
    select="test_any_id_of_1_to_200_characters_is_a_build_of_its_own",
)
