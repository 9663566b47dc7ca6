"""`items_from_done_events: no` declared, and the run fails before any model request.

No call runs, which is what `no` expects of the tool: without the clause that
the model was asked, the check would pass on a run that never met the stream.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="resp-done-events-never-asked",
    provenance="contract",
    bug="declares items_from_done_events no and never asks the model (a hollow pass)",
    source="no hollow verdicts (a check never passes on what did not happen); CONTRACT.md §6b item 22",
    kills=("responses.items-from-done-events",),
    profile="reference-responses-stream",
    patches=(
        Patch(
            file="profiles.py",
            old='        options["items_from_done_events"] = "yes"\n',
            new='        options["items_from_done_events"] = "no"\n',
        ),
        Patch(
            file="responses.py",
            old="    answer = await client.responses.create(**arguments)\n",
            new='    raise ModelError("never asked")\n',
        ),
    ),
    select="test_completed_with_an_empty_output_is_read_as_declared",
)
