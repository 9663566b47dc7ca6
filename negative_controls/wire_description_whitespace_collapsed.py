"""Tool descriptions "cleaned up" by collapsing whitespace (newlines, tabs, runs of spaces).

The description reaches the model, but not verbatim: the argument list of a
multi-line description becomes one line.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="wire-description-whitespace-collapsed",
    provenance="contract",
    bug='function.description is " ".join(description.split())',
    source="CONTRACT.md §6.7 (tp-wire-description)",
    kills=("wire.description-verbatim",),
    patches=(
        Patch(
            file="packing.py",
            old='        function["description"] = tool.description\n',
            new='        function["description"] = " ".join(tool.description.split())\n',
        ),
    ),
)
