"""stdio servers inherit only the MCP SDK's allowlist while the runtime declares
`stdio_env_inherit: all`.

The spawn passes the configured env alone and the SDK merges its default
variables (HOME, PATH, ...) under it: a correct `sdk_allowlist` runtime, but not
the one declared. PATH still arrives; the runtime's other variables do not.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="stdio-env-allowlist-declared-all",
    provenance="contract",
    bug="stdio servers inherit the SDK allowlist, not the whole environment the runtime declares",
    source="CONTRACT.md §5b (tp-mcp-stdio-env-inherit), options.yaml stdio_env_inherit",
    kills=("mcp.stdio-env-inherit-per-option",),
    patches=(
        Patch(
            file="toolsets.py",
            old="        env={**os.environ, **server.env},\n",
            new="        env=dict(server.env),\n",
        ),
    ),
)
