"""A refused chain is taken for an empty reply: the run ends as if the model had finished.

The API refuses a request naming an expired response; a runtime that swallows the
refusal completes the run with no output instead of failing it.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="resp-chain-refusal-as-text",
    provenance="contract",
    bug="a refused chained request (previous_response_id not found) answered as an empty reply",
    source="CONTRACT.md §6e (tp-resp-chain-failure)",
    kills=("responses.chain-refused-is-model-error",),
    profile="reference-responses-chained",
    patches=(
        Patch(
            file="responses.py",
            old="    answer = await client.responses.create(**arguments)\n",
            new=(
                "    try:\n"
                "        answer = await client.responses.create(**arguments)\n"
                "    except openai.BadRequestError:\n"
                '        if "previous_response_id" not in arguments:\n'
                "            raise\n"
                "        return ModelReply(content=None)\n"
            ),
        ),
    ),
    select="test_a_refused_chain_ends_the_run_model_error",
)
