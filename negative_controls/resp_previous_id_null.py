"""The first request of a chain sends `previous_response_id: null` instead of leaving it out.

pydantic-ai sent `previous_response_id: None` when there was no earlier response;
the key must be omitted.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="resp-previous-id-null",
    provenance="public-bug",
    bug="previous_response_id sent as null on a conversation's first request",
    source="upstream-resp-null-previous-id (pydantic/pydantic-ai PR #3134)",
    kills=("responses.previous-id-never-null",),
    profile="reference-responses-chained",
    patches=(
        Patch(
            file="responses.py",
            old='    if last is None:\n        return {"store": True}\n',
            new='    if last is None:\n        return {"store": True, "previous_response_id": None}\n',
        ),
    ),
    select="test_text_reply_completes_the_run",
)
