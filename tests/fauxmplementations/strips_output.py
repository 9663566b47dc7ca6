"""Relays the model's reply with surrounding whitespace stripped (the output must be verbatim)."""

import json
import urllib.request

from _faux import Faux, Response, internal


class StripsOutput(Faux):
    """Really asks the model (one request, no tools), then trims what it answered."""

    def __init__(self) -> None:
        super().__init__()
        self.configs: dict[str, Response] = {}

    def build(self, request: Response) -> Response:
        self.configs[request["id"]] = request["config"]
        return super().build(request)

    def run(self, request: Response) -> Response:
        config = self.configs.get(request["id"])
        if config is None or request["id"] not in self.built:
            return internal(f"unknown id: {request['id']}")
        model = config["model"]
        body = {
            "model": model["name"],
            "messages": [
                {"role": "system", "content": config["instruction"]},
                {"role": "user", "content": request["input"]},
            ],
        }
        http = urllib.request.Request(
            model["base_url"] + "/chat/completions",
            data=json.dumps(body).encode("utf-8"),
            headers={"Content-Type": "application/json", "Authorization": f"Bearer {model['api_key']}"},
        )
        with urllib.request.urlopen(http, timeout=10) as answer:
            reply = json.load(answer)
        text = reply["choices"][0]["message"]["content"] or ""
        return {"ok": True, "output": text.strip(), "stop_reason": "completed"}


if __name__ == "__main__":
    StripsOutput().serve()
