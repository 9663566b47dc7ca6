"""An error result whose text is empty sent as `is_error: true` without content.

The empty text is dropped as for any empty result, and the flag kept: the API
answers 400 "content cannot be empty if `is_error` is true"
(bytedance/trae-agent #230, fixed by #231 with a default error text;
can1357/oh-my-pi #2250).
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="anthropic-empty-error-no-content",
    provenance="public-bug",
    bug="an isError result with empty text is a tool_result with is_error true and no content",
    source="upstream-anth-empty-result (bytedance/trae-agent #230; can1357/oh-my-pi #2250)",
    kills=("anthropic.no-empty-text",),
    profile="reference-anthropic",
    patches=(
        Patch(
            file="anthropic_wire.py",
            old=(
                '    elif isinstance(message["content"], ErrorText):\n'
                '        block["content"] = EMPTY_ERROR_TEXT\n'
            ),
            new="",
        ),
    ),
    select="test_failed_calls_and_is_error_results_are_flagged and is-error-empty",
)
