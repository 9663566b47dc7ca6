"""The model client looks up the vendor's default endpoint before it uses the configured one.

Runtimes do this on their own: a client that resolves its built-in cloud
host (credential discovery, a warm-up, a trace or usage export) although the
user configured another endpoint. CONFIG's endpoint still works, so every
other check passes; only the attempt to leave 127.0.0.1 gives it away
(`tp-proto-endpoints-only`), and the egress guard refuses it before any DNS
packet is sent. The lookup runs only while toolproof's guard is in place (its
marker on `socket.getaddrinfo`), so a broken guard could never let this
control send a real query.
"""

from toolproof.controls.control import Control, Patch

_DOCSTRING = '    """A client for the configured endpoint; ModelError when it cannot be created."""\n'

CONTROL = Control(
    name="egress-model-client-dns",
    provenance="contract",
    bug="open_model_client resolves api.openai.com before building the client for CONFIG's base_url",
    source="upstream-contracts §5 (runtimes falling back to default cloud endpoints); PROTOCOL.md §10",
    kills=("proto.egress-loopback-only",),
    patches=(
        Patch(
            file="model.py",
            old=_DOCSTRING,
            new=(
                _DOCSTRING + "    import socket\n\n"
                '    if getattr(socket.getaddrinfo, "__toolproof_egress_guard__", False):\n'
                "        try:\n"
                '            socket.getaddrinfo("api.openai.com", 443)\n'
                "        except OSError:\n"
                "            pass\n"
            ),
        ),
    ),
    # Named mode: the model client is opened for one model request.
    select="test_model_request_uses_configured_model_and_key",
)
