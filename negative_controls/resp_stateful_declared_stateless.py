"""`responses_state: stateless` declared, but the requests chain `previous_response_id`.

The declaration and the client disagree: the runtime leans on server-side state
the harness (and a `store: false` deployment) does not keep.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="resp-stateful-declared-stateless",
    provenance="contract",
    bug="declares responses_state stateless, sends previous_response_id",
    source="CONTRACT.md §6b item 17 (tp-resp-endpoint, responses_state)",
    kills=("responses.endpoint",),
    profile="reference-responses",
    patches=(
        Patch(
            file="responses.py",
            old='"input": input_items(chat["messages"])}\n',
            new=(
                '"input": input_items(chat["messages"])}\n'
                '    arguments["previous_response_id"] = "resp_previous"\n'
            ),
        ),
    ),
    # Named mode: one model request.
    select="test_model_request_uses_configured_model_and_key",
)
