"""`responses_state: previous_response_id` declared, but every request says `store: false`.

The chained request then names a response the API never kept: 400, "not
persisted when `store` is set to false" (a reasoning item of such a response,
by id, is the same public bug's 404).
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="resp-store-false-chained",
    provenance="public-bug",
    bug="chains previous_response_id while sending store false",
    source="upstream-resp-store-false-reasoning (openai/openai-agents-python #919)",
    kills=("responses.unstored-never-referenced",),
    profile="reference-responses-chained",
    patches=(
        Patch(
            file="responses.py",
            old=(
                '    if last is None:\n        return {"store": True}\n    return {\n        "store": True,\n'
            ),
            new=(
                '    if last is None:\n        return {"store": False}\n'
                '    return {\n        "store": False,\n'
            ),
        ),
    ),
    select="test_each_request_names_the_last_response and call",
)
