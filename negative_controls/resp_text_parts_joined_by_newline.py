"""The `output_text` parts of a message are joined with a newline, as separate blocks of text.

One message item whose text the API sends in several parts becomes a text with
line breaks the model never wrote: the echo of a reply beside its calls and
the run's output both differ from the model's text. OpenAI's own client joins
the parts with nothing between (`Response.output_text`).
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="resp-text-parts-joined-by-newline",
    provenance="contract",
    bug="a message item's output_text parts are joined with newlines instead of concatenated",
    source="CONTRACT.md §2 (a Responses reply's text: its parts joined with nothing between); openai-python",
    kills=("hist.assistant-text-kept", "loop.completed-output"),
    profile="reference-responses",
    patches=(
        Patch(
            file="responses.py",
            old='content="".join(texts) if texts else None',
            new='content="\\n".join(texts) if texts else None',
        ),
    ),
    select="test_text_in_several_output_text_parts_is_kept_whole",
)
