"""Every Responses function tool says `strict: true`, its `parameters` still the server's own schema.

The schema keeps its optional properties and no `additionalProperties: false`,
so the real API refuses the request ("Invalid schema for function"); the fake
serves it, and only the strict-form invariant sees the contradiction.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="resp-strict-true-beside-loose-schema",
    provenance="contract",
    bug="function tools are sent with strict true while their parameters are not in OpenAI's strict form",
    source="openai-strict-mode (function-calling guide: strict true with a non-strict schema is rejected)",
    kills=("responses.strict-parameters-strict-form",),
    profile="reference-responses",
    patches=(
        Patch(file="responses.py", old='    flat["strict"] = False\n', new='    flat["strict"] = True\n'),
    ),
    select="test_a_failed_or_incomplete_response_is_a_model_error",
)
