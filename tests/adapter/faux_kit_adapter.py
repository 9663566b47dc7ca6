"""A protocol v1 adapter on the kit (toolproof.adapter) for the faux runtime, as a user would write it.

`cmd:{python} tests/adapter/faux_kit_adapter.py` or in-process `py:faux_kit_adapter:factory`.
"""

from __future__ import annotations

import sys
from typing import Any

from toolproof import adapter as kit


class Adapter(kit.Adapter):
    """The faux runtime's part; the kit does the protocol."""

    def describe(self) -> kit.Response:
        """Chat wire only, every option at its default."""
        return kit.hello("faux-kit-runtime", "0.0.1", ["openai.chat"], {})

    def create(self, id: str, config: dict[str, Any]) -> Any:
        """CONFIG -> the faux Agent (imported here, after the stdout guard)."""
        import faux_kit_runtime

        if any(server.get("dedup_key") for server in config["mcp_servers"].values()):
            raise kit.Fail("invalid_config", "no dedup_key here")
        if config.get("max_tool_turns") is not None:
            raise kit.Fail("invalid_config", "no turn cap here")
        return faux_kit_runtime.Agent(config)

    async def invoke(self, agent: Any, input: str) -> kit.Response:
        """One model request; its text is the output."""
        return kit.run_ok(agent.ask(input))

    def release(self, agent: Any) -> None:
        """Close the agent."""
        agent.close()

    def rules(self) -> list[kit.Rule]:
        """The faux runtime's one error type."""
        import faux_kit_runtime

        return [(faux_kit_runtime.FauxError, "model_error")]


def factory() -> Adapter:
    """In-process form."""
    return Adapter()


if __name__ == "__main__":
    sys.exit(kit.main(factory))
