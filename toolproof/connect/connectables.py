"""The `--candidate SPEC` mini-language: how to reach a candidate.

- ``reference`` (and its other profiles, ``REFERENCE_PROFILES``): the bundled
  reference runtime, in-process.
- ``py:package.module:factory``: in-process.
- ``cmd:<shell command>``: a JSON Lines subprocess. ``{python}`` in the
  command is replaced by the running interpreter (handy in tox).
- ``pipe:package.module:factory``: a Python stdio adapter's JSON Lines loop
  (``module.serve(stdin, stdout, factory())``) on a thread, over OS pipes,
  judged as ``cmd:`` is (toolproof.connect.pipe; how the mutation run reaches
  the reference's protocol layer). Not in the usage message: a harness form.
"""

from __future__ import annotations

import os
import re
import shlex
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import IO

from toolproof.connect.connection import Connection
from toolproof.errors import UsageError

REFERENCE_PROFILES = (
    "reference",
    "reference-continuation",
    "reference-prefix",
    "reference-stream",
    "reference-responses",
    "reference-responses-stream",
    "reference-responses-chained",
    "reference-responses-chained-stream",
    "reference-responses-refs",
    "reference-anthropic",
    "reference-anthropic-stream",
)
"""The bundled reference's profiles: the harness's one list of them (the controls, the matrix and
the usage message read it). The reference defines its own (`candidates/reference/profiles.py`),
which the harness never imports; tests/harness/test_connectables.py pins that the two agree."""


def reference_spec(profile: str, package: str = "toolproof.candidates") -> str:
    """The `py:` spec of the reference's in-process factory for `profile` (named after it:
    `reference-prefix` -> `reference_prefix`); `package` is where the reference is imported from."""
    return f"py:{package}.reference.adapter:{profile.replace('-', '_')}"


BUNDLED = {profile: reference_spec(profile) for profile in REFERENCE_PROFILES}

# Provider credentials and endpoints a candidate must never inherit: a runtime
# that silently falls back to them would leave 127.0.0.1.
_SCRUB = re.compile(
    r"^(OPENAI_|AZURE_OPENAI_|ANTHROPIC_|GEMINI_|GOOGLE_API_KEY|GOOGLE_APPLICATION_CREDENTIALS|MISTRAL_|"
    r"GROQ_|COHERE_|DEEPSEEK_|XAI_|TOGETHER_|FIREWORKS_|OPENROUTER_|HF_TOKEN|HUGGING_FACE_HUB_TOKEN|"
    r"AWS_ACCESS_KEY_ID|AWS_SECRET_ACCESS_KEY|AWS_SESSION_TOKEN|AWS_PROFILE|LANGSMITH_|LANGCHAIN_|"
    r"LOGFIRE_|HTTPS?_PROXY|ALL_PROXY|https?_proxy|all_proxy).*"
)


@dataclass(frozen=True)
class ConnectSettings:
    """How to start and talk to a candidate (CLI flags or ini settings)."""

    timeout: float = 60.0
    startup_grace: float = 20.0
    cwd: str | None = None
    env: tuple[tuple[str, str], ...] = ()
    trace: IO[str] | None = None
    #: Rewrites a cmd: command line before it is started (the egress guard's --toolproof-netns).
    wrap: Callable[[str], str] | None = None


def scrubbed_env(base: Mapping[str, str], extra: tuple[tuple[str, str], ...] = ()) -> dict[str, str]:
    """The environment a candidate gets: no provider credentials, loopback never proxied."""
    env = {k: v for k, v in base.items() if not _SCRUB.match(k)}
    env["NO_PROXY"] = env["no_proxy"] = "127.0.0.1,localhost"
    env.update(extra)
    return env


def scrubbed_keys(base: Mapping[str, str]) -> list[str]:
    """Names the scrub would remove (for the report)."""
    return sorted(k for k in base if _SCRUB.match(k))


def resolve(spec: str) -> str:
    """Expand bundled shorthands; reject what is not a spec."""
    spec = BUNDLED.get(spec, spec)
    if spec.startswith(("py:", "cmd:")) and len(spec) > 4:
        return spec
    if spec.startswith("pipe:") and len(spec) > 5:
        return spec
    shorthands = "".join(f"{name!r}, " for name in REFERENCE_PROFILES)
    raise UsageError(
        f"--candidate {spec!r}: expected {shorthands}'py:package.module:factory' or 'cmd:<shell command>'"
    )


def connect(spec: str, settings: ConnectSettings) -> Connection:
    """Open a connection to the candidate `spec` describes."""
    resolved = resolve(spec)
    if resolved.startswith("py:"):
        from toolproof.connect.inprocess import InProcessConnection

        return InProcessConnection(resolved[3:])
    if resolved.startswith("pipe:"):
        from toolproof.connect.pipe import PipeConnection

        return PipeConnection(resolved[5:], startup_grace=settings.startup_grace, trace=settings.trace)
    from toolproof.connect.stdio import StdioConnection

    command = resolved[4:].replace("{python}", shlex.quote(sys.executable))
    if settings.wrap is not None:
        command = settings.wrap(command)
    return StdioConnection(
        command,
        env=scrubbed_env(os.environ, settings.env),
        cwd=settings.cwd,
        startup_grace=settings.startup_grace,
        trace=settings.trace,
    )
