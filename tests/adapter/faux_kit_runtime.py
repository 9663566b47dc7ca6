"""A tiny faux runtime for the kit's self-tests: one chat-completions request per run, stdlib only.

It prints a banner to stdout when imported, as careless libraries do: the kit's stdout guard must
send it to stderr (the adapter imports this module only after the guard).
"""

from __future__ import annotations

import json
import sys
import urllib.request
from typing import Any

print("faux runtime: import banner on stdout")


class FauxError(Exception):
    """The faux runtime's model failure (its adapter maps it to model_error)."""


class Agent:
    """An agent that asks the model once and returns its text (no tools)."""

    def __init__(self, config: dict[str, Any]) -> None:
        self.model = config["model"]
        self.instruction = config["instruction"]

    def ask(self, text: str) -> str:
        """One chat-completions request to the CONFIG's endpoint (127.0.0.1 only: the harness's fake)."""
        body = {
            "model": self.model["name"],
            "messages": [{"role": "system", "content": self.instruction}, {"role": "user", "content": text}],
        }
        request = urllib.request.Request(
            self.model["base_url"].rstrip("/") + "/chat/completions",
            data=json.dumps(body).encode(),
            headers={"Content-Type": "application/json", "Authorization": f"Bearer {self.model['api_key']}"},
        )
        try:
            with urllib.request.urlopen(request, timeout=20) as answer:
                reply = json.loads(answer.read())
        except OSError as exc:
            raise FauxError(f"model request failed: {exc}") from exc
        return str(reply["choices"][0]["message"]["content"] or "")

    def close(self) -> None:
        """Say so on stderr (the self-tests read it to see close-all at EOF)."""
        print("faux runtime: agent closed", file=sys.stderr)
