"""Tool results sent as a Python repr of the MCP content objects (`str(result.content)`).

The model receives `[TextContent(type='text', text='ok', annotations=None,
meta=None)]` instead of `ok`: every tool text, receipts included, is replaced
by the repr. One line fails every check that reads a tool's text; the receipt
checks' titles (a reworded or invented receipt) do not describe it (issue 22
§2: one finding, charged to result.verbatim).
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="result-python-repr",
    provenance="contract",
    bug="tool_result_text returns str(result.content): the repr of the MCP content objects",
    source="CONTRACT.md §8.1 (tp-result-verbatim), §8.2 (tp-result-empty), §13 (tp-receipt-*)",
    kills=("result.verbatim", "result.empty", "receipt.ok-verbatim", "receipt.no-synthesized-status"),
    patches=(
        Patch(
            file="results.py",
            old="    return join.join(text_blocks(result.content))\n",
            new="    return str(result.content)\n",
        ),
    ),
    # every other check that compares a tool's text: the same finding in the report
    collateral=(
        "result.no-content-block",
        "result.multi-block",
        "result.is-error",
        "result.structured",
        "dedup.balda-call-carries-token",
        "wire.invalid-name-maps-back",
    ),
)
