"""A binary block's data URL sent as the text of a user message after the tool messages.

The tool message carries the declared placeholder, and the runtime adds a user
message whose text is the image's `data:` URL: the base64 is tokenised as
text (Cherry Studio, CherryHQ/cherry-studio#13184: 300k tokens for one
image), and the model sees no image.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="blocks-base64-in-user-text",
    provenance="public-bug",
    bug="a user message after the tool messages carries each binary block's data URL as text",
    source="CONTRACT.md §5d.2 (tp-result-binary-not-text); sources.md upstream-binary-as-text "
    "(https://github.com/CherryHQ/cherry-studio/issues/13184)",
    kills=("result.binary-not-text",),
    patches=(
        Patch(
            file="results.py",
            old='        kind = str(getattr(block, "type", ""))\n',
            new=(
                '        kind = str(getattr(block, "type", ""))\n'
                '        resource = getattr(block, "resource", None)\n'
                '        data = getattr(block, "data", None) or getattr(resource, "blob", "")\n'
                '        PENDING_DATA.append(f"data:{mime};base64,{data}")\n'
            ),
        ),
        Patch(
            file="results.py",
            old="def binary_mime(block: object) -> str | None:\n",
            new="PENDING_DATA: list[str] = []\n\n\ndef binary_mime(block: object) -> str | None:\n",
        ),
        Patch(
            file="loop.py",
            old="            history.append(tool_message(call.id, await execute_call(call)))\n",
            new=(
                "            history.append(tool_message(call.id, await execute_call(call)))\n"
                "        from .messages import user_message\n"
                "        from .results import PENDING_DATA\n"
                "\n"
                "        if PENDING_DATA:\n"
                '            history.append(user_message(" ".join(PENDING_DATA)))\n'
                "            PENDING_DATA.clear()\n"
            ),
        ),
    ),
    select="test_result_blocks",
)
