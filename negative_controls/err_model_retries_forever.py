"""A model client that retries a failing model endpoint forever.

Provenance: issue 12: a runtime retried 12 times and stopped only on the
harness's script-exhausted answer. Its own retry bound was never what ended
the run: the harness's 400 "script exhausted" did (a 400 is not retried),
and the runtime then reported model_error, so err.model-error-kind passed on
a run the harness had ended.

What it changes: `request_completion` in the reference's model.py keeps
retrying a retryable failure (5xx, 408, 409, 429, timeouts) after its two
scripted delays, every 0.05 s, with no bound; only a non-retryable answer (a
4xx such as the harness's safety-cap 400) ends it, as model_error. Modelled
unbounded, not as exactly 12 retries: against a model that fails every
attempt, a client that gives up after 12 retries ends the run itself, which
the contract allows (§10.4 bounds the run by the run timeout, not the retry
count); what issue 12 showed is a runtime whose end came from the harness.

Kills err.model-error-kind (test_model_always_failing_is_a_model_error): the
always-failing endpoint answers 500 until the harness's safety cap, whose 400
ends the run; the safety net fired, so the check fails on the candidate side
whatever the outcome reads.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="err-model-retries-forever",
    provenance="contract",
    bug="a 5xx model answer is retried without bound: only the harness's 400 safety net ends the run",
    source=(
        "issue 12: a runtime retried 12 times and stopped only on the harness's script-exhausted answer; "
        "CONTRACT.md §10.4 (tp-err-model-error)"
    ),
    kills=("err.model-error-kind",),
    patches=(
        Patch(
            file="model.py",
            old="    for delay in (*RETRY_DELAYS_SECONDS, None):\n",
            new=(
                "    def forever() -> Any:\n"
                "        yield from RETRY_DELAYS_SECONDS\n"
                "        while True:\n"
                "            yield 0.05\n"
                "\n"
                "    for delay in forever():\n"
            ),
        ),
    ),
)
