"""An in-process (`py:`) candidate claiming `anthropic.messages`: one Messages request per run with
the official `anthropic` client, CONFIG's base_url and key as a user passes them, no tools.

Enough to judge the claim itself (contract v7): where CONFIG points, what the key header is, that
`model.*` checks run on this wire and `openai.*` ones read `not_claimed`. It has no tool loop."""

from __future__ import annotations

from typing import Any

Response = dict[str, Any]
HELLO: Response = {
    "ok": True,
    "protocol": 1,
    "implementation": {"name": "anthropic-text", "version": "0", "language": "python"},
    "capabilities": ["anthropic.messages"],
}


class AnthropicText:
    """Builds keep CONFIG's model; a run is one `messages.create` whose text is the output.

    `declared`: the `anthropic_key_header` it declares (None: the default, x-api-key); `x_api_key`:
    it also sends the key as `x-api-key` (the client's own header is `Authorization: Bearer`)."""

    def __init__(self, declared: str | None, x_api_key: bool) -> None:
        self.built: dict[str, dict[str, Any]] = {}
        self.declared = declared
        self.x_api_key = x_api_key

    def hello(self) -> Response:
        options = {} if self.declared is None else {"anthropic_key_header": self.declared}
        return {**HELLO, "options": options}

    def build(self, id: str, config: dict[str, Any]) -> Response:
        self.built[id] = config
        return {"ok": True}

    async def run(self, id: str, input: str) -> Response:
        import anthropic  # after the harness's environment is set, as an adapter imports its runtime

        config = self.built.get(id)
        if config is None:
            return {"ok": False, "error": {"kind": "internal", "message": f"unknown id: {id}"}}
        model = config["model"]
        headers = {"x-api-key": model["api_key"]} if self.x_api_key else {}
        client = anthropic.AsyncAnthropic(
            base_url=model["base_url"], api_key=model["api_key"], max_retries=0, default_headers=headers
        )
        try:
            message = await client.messages.create(
                model=model["name"],
                max_tokens=256,
                system=config["instruction"],
                messages=[{"role": "user", "content": input}],
            )
        except anthropic.APIError as exc:
            return {"ok": False, "error": {"kind": "model_error", "message": str(exc)}}
        finally:
            await client.close()
        text = "".join(block.text for block in message.content if block.type == "text")
        return {"ok": True, "output": text, "stop_reason": "completed"}

    def close(self, id: str) -> Response:
        if self.built.pop(id, None) is None:
            return {"ok": False, "error": {"kind": "internal", "message": f"unknown id: {id}"}}
        return {"ok": True}


def bearer() -> AnthropicText:
    """Declares `anthropic_key_header: authorization`, and sends the client's `Authorization: Bearer`."""
    return AnthropicText("authorization", x_api_key=False)


def x_api_key() -> AnthropicText:
    """Declares nothing (x-api-key, the default) and sends `x-api-key` too."""
    return AnthropicText(None, x_api_key=True)


def bearer_undeclared() -> AnthropicText:
    """Sends only the client's `Authorization: Bearer` while the default (x-api-key) applies: a fail."""
    return AnthropicText(None, x_api_key=False)
