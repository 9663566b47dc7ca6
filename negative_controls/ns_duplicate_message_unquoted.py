"""The duplicate-tool message without Go %q quotes: `duplicate tool: lookup`."""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="ns-duplicate-message-unquoted",
    provenance="contract",
    bug="DuplicateTool's message interpolates the raw name instead of its %q quoting",
    source='upstream-contracts §1 (`duplicate tool: "<name>"`)',
    kills=("err.reference-message-duplicate-tool",),
    patches=(
        Patch(
            file="errors.py",
            old='        super().__init__(f"duplicate tool: {go_quote(name)}")\n',
            new='        super().__init__(f"duplicate tool: {name}")\n',
        ),
    ),
)
