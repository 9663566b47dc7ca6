"""structuredContent sent instead of the text blocks while `structured_content` is declared `text`.

Both are defensible runtime choices; sending the other one than the declared
one is not (the suite asserts the declared option).
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="result-structured-sent-as-json",
    provenance="contract",
    bug="a structuredContent result reaches the model as its JSON; hello declares structured_content text",
    source="CONTRACT.md §8.5 (tp-result-structured)",
    kills=("result.structured",),
    patches=(
        Patch(
            file="results.py",
            old="    return join.join(text_blocks(result.content))\n",
            new=(
                "    if result.structured_content is not None:\n"
                "        import json\n"
                "\n"
                "        return json.dumps(result.structured_content)\n"
                "    return join.join(text_blocks(result.content))\n"
            ),
        ),
    ),
)
