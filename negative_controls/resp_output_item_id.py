"""A Responses result answers the call's `fc_` item id instead of its `call_id`.

The runtime keeps both ids of a call (`call_id|id`, as pydantic-ai stored them)
and pairs the `function_call_output` with the wrong half: the echoed call keeps
its `call_id`, the output names the item id, and the API answers "No tool output
found for function call call_...".
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="resp-output-item-id",
    provenance="public-bug",
    bug="function_call_output.call_id is the fc_ item id, not the call's call_id",
    source="upstream-resp-call-id (pydantic/pydantic-ai #2210; agentscope-ai/agentscope #1935)",
    kills=("responses.call-outputs-paired",),
    profile="reference-responses",
    patches=(
        Patch(
            file="responses.py",
            old="ToolCall(id=item.call_id, name=item.name,",
            new='ToolCall(id=item.call_id + "|" + item.id, name=item.name,',
        ),
        Patch(
            file="responses.py",
            old='        "call_id": call["id"],\n',
            new='        "call_id": call["id"].split("|")[0],\n',
        ),
        Patch(
            file="responses.py",
            old='"call_id": message["tool_call_id"],',
            new='"call_id": message["tool_call_id"].split("|")[-1],',
        ),
    ),
    # Named mode: one call answered; the tool is called all the same (its arguments are right).
    select="test_object_arguments_arrive_as_sent",
)
