"""An empty tool result goes out as a `function_call_output` without `output`.

The seed bug on this wire: the empty result lost the key the API requires.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="resp-empty-output-dropped",
    provenance="seed",
    bug="function_call_output without its required output key for an empty tool result",
    source="seed-openai-tool-content (the empty-result seed bug, on the Responses wire)",
    kills=("responses.request-schema",),
    collateral=("result.empty", "result.no-content-block"),
    profile="reference-responses",
    patches=(
        Patch(
            file="responses.py",
            old='"output": message["content"]}',
            new='**({"output": message["content"]} if message["content"] else {})}',
        ),
    ),
    select="test_empty_result_reaches_the_model_as_empty_text",
)
