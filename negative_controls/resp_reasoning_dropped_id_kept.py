"""Reasoning dropped (`reasoning_replay: none`), but the calls go back with their item ids.

pydantic-ai sent `fc_` item ids from history without the reasoning items they
belong to: the API refuses such a call ("provided without its required
'reasoning' item").
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="resp-reasoning-dropped-id-kept",
    provenance="public-bug",
    bug="declares reasoning_replay none, drops reasoning items but replays calls with their fc_ ids",
    source="upstream-resp-reasoning-dropped-id-kept (pydantic/pydantic-ai PR #2950)",
    kills=("responses.reasoning-none-unbound",),
    profile="reference-responses",
    patches=(
        Patch(
            file="profiles.py",
            old='    return "encrypted" if state == "stateless" else "by_id"\n',
            new='    return "none" if state == "stateless" else "by_id"\n',
        ),
        Patch(
            file="responses.py",
            old="    items: list[dict[str, Any]] = list(message.get(REASONING_KEY, ()))\n",
            new="    items: list[dict[str, Any]] = []\n",
        ),
        Patch(
            file="responses.py",
            old='        "call_id": call["id"],\n',
            new='        "call_id": call["id"],\n        "id": "fc_" + call["id"].removeprefix("call_"),\n',
        ),
    ),
    select="test_dropped_reasoning_leaves_no_call_item_id",
)
