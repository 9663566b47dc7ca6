"""The echoed tool call lacks `"type": "function"`.

OpenAI: "Missing required parameter: 'messages[1].tool_calls[0].type'".
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="wire-tool-call-echo-without-type",
    provenance="contract",
    bug="tool_call_message echoes id and function but not type",
    source="OpenAI CreateChatCompletionRequest (ChatCompletionMessageToolCall.type is required)",
    kills=("wire.request-schema",),
    patches=(
        Patch(
            file="messages.py",
            old='        "id": call.id,\n        "type": "function",\n',
            new='        "id": call.id,\n',
        ),
    ),
    # Named mode: a batch of calls echoed in the second model request.
    select="test_tool_text_reaches_the_model_byte_for_byte",
)
