"""An Azure-style `?api-version=` query added to every model request.

The request no longer goes to `<base_url>/chat/completions` as configured
(a runtime that assumes Azure when it sees a custom base URL).
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="wire-endpoint-api-version-query",
    provenance="contract",
    bug="the model client adds default_query api-version to every request",
    source="CONTRACT.md §6.1 (tp-wire-endpoint); tooling-facts (query strings and openai base_url)",
    kills=("wire.endpoint",),
    patches=(
        Patch(
            file="model.py",
            old="            api_key=model.api_key,\n",
            new=(
                "            api_key=model.api_key,\n"
                '            default_query={"api-version": "2024-06-01"},\n'
            ),
        ),
    ),
    # Named mode: one model request to the configured endpoint.
    select="test_model_request_uses_configured_model_and_key",
)
