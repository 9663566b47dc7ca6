"""`model_stream: always` declared, but the requests are not streamed.

The declaration and the client disagree: the runtime asks for one JSON
completion while it says its users' path streams.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="stream-declared-but-not-sent",
    provenance="contract",
    bug="declares model_stream always, sends stream absent",
    source="CONTRACT.md §6.1 (tp-wire-endpoint, model_stream)",
    kills=("wire.endpoint",),
    patches=(
        Patch(
            file="profiles.py",
            old='        "model_stream": "always" if profile.stream else "never",\n',
            new='        "model_stream": "always",\n',
        ),
    ),
    # Named mode: one model request, not streamed.
    select="test_model_request_uses_configured_model_and_key",
)
