"""A streamed `tool_use` whose one `partial_json` is "" is parsed as JSON text, and fails.

litellm #5063: a streamed call to a tool without arguments ended in a JSON
parse error: the API streams its input as one empty `partial_json`, which
stands for `{}` (the official client's accumulator), not for JSON text.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="anthropic-stream-empty-partial-json-parsed",
    provenance="public-bug",
    bug='an empty input_json_delta buffer is parsed as JSON ("" is no JSON text) instead of read as {}',
    source="contracts/sources.md#upstream-anth-stream-input (BerriAI/litellm#5063)",
    kills=("anthropic.stream-input-assembled",),
    profile="reference-anthropic-stream",
    patches=(
        Patch(
            file="anthropic_wire.py",
            old="        return json.loads(text) if text else {}\n    except json.JSONDecodeError as exc:\n",
            new="        return json.loads(text)\n    except json.JSONDecodeError as exc:\n",
        ),
    ),
    select="test_streamed_input_is_the_scripted_object",
)
