"""A retried model request is re-sent without its tools.

A "degrade on failure" retry: after a 5xx the runtime retries a simpler
request without `tools`, so the retry is not the request that failed and
the model can no longer call anything.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="err-retry-drops-tools",
    provenance="contract",
    bug="the retry after a 5xx answer is sent without the tools of the failed request",
    source="CONTRACT.md §10.3 (tp-err-model-retry)",
    kills=("err.model-retry-same-request",),
    patches=(
        Patch(
            file="model.py",
            old="            await asyncio.sleep(delay)\n",
            new='            await asyncio.sleep(delay)\n            arguments.pop("tools", None)\n',
        ),
    ),
)
