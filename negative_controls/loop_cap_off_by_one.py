"""The cap lets one batch too many through (N+1 batches).

The classic off-by-one of a loop bound: the cap is compared with `>` where
`>=` is meant, so the run stops only after batch N+1 (one more model request
and one more tool call than configured).
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="loop-cap-off-by-one",
    provenance="contract",
    bug="turn_cap_reached compares batches_done > N instead of >= N",
    source="plausible: the seed's proposed fix reads 'at least break when turn > maxTurns' (§4.2)",
    kills=(
        "loop.cap-exact",
        "loop.cap-property",
        "loop.cap-end-text",
        "loop.cap-default",
        "loop.cap-per-run",
    ),
    patches=(
        Patch(
            file="loop.py",
            old="batches_done >= max_tool_turns",
            new="batches_done > max_tool_turns",
        ),
    ),
)
