"""A Messages client given a base URL ending in `/v1` posts to `<base>/v1/v1/messages`.

The runtime appends `/v1` to the configured base URL before handing it to a
client that adds `/v1/messages` itself (ys-ll/uniterm #365 guards against the
doubled `/v1/v1/messages`; fredrikburmester/streamystats #491 and
vellum-ai/vellum-assistant #25930 built the path wrongly the other ways): every
request goes to a path the API does not serve.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="anthropic-endpoint-double-v1",
    provenance="public-bug",
    bug="the Messages client's base URL gets an extra /v1: every request goes to <base>/v1/v1/messages",
    source="upstream-anth-endpoint (ys-ll/uniterm #365; fredrikburmester/streamystats #491)",
    kills=("anthropic.endpoint",),
    profile="reference-anthropic",
    patches=(
        Patch(
            file="anthropic_wire.py",
            old="base_url=model.base_url, api_key=model.api_key,",
            new='base_url=model.base_url + "/v1", api_key=model.api_key,',
        ),
    ),
    # Named mode: one plain run asks the model once.
    select="test_text_reply_completes_the_run",
)
