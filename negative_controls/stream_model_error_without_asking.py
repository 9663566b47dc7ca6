"""A streamed turn fails with model_error before any model request is made.

The run ends as a broken stream's run must (kind model_error, no tool called), but the model
was never asked: a check that reads only the run's end would pass without having seen a stream.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="stream-model-error-without-asking",
    provenance="contract",
    bug="the streaming path raises model_error before it sends any request",
    source="no hollow verdicts (a check never passes on what did not happen); CONTRACT.md §6.15",
    kills=("stream.unfinished-never-run",),
    profile="reference-stream",
    patches=(
        Patch(
            file="model.py",
            old="    arguments = completion_arguments(model_name, messages, tools, stream)\n",
            new=(
                "    if stream:\n"
                '        raise ModelError("streaming unavailable")\n'
                "    arguments = completion_arguments(model_name, messages, tools, stream)\n"
            ),
        ),
    ),
    select="test_a_stream_that_breaks_off_runs_no_tool",
)
