"""Config hydration drops the instruction.

The seed's hydration bug, on another field: the runtime's config struct has
an instruction, the parser never copies it, and every run starts with an
empty system message. Only the model request shows it.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="proto-config-instruction-dropped",
    provenance="seed",
    bug="parse_config ignores CONFIG's instruction (the agent's system text is empty)",
    source="seed ru §5a (config hydration dropped fields); CONTRACT.md §3 tp-proto-config-path",
    kills=("proto.model-settings-from-config",),
    patches=(
        Patch(
            file="config.py",
            old='    instruction = raw.get("instruction", "")\n',
            new='    instruction = ""\n',
        ),
    ),
)
