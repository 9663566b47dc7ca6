"""A stdio server with a config `env` gets that env alone: PATH and the rest of the runtime's
environment are gone (contracts/sources.md upstream-stdio-env-path).

The spawn passes the configured variables in place of the runtime's environment,
over a client that merges nothing under them (as MCP SDKs once did: a given env
replaced the default one). A server without an `env` still inherits everything.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="stdio-env-replaces-inherited",
    provenance="public-bug",
    bug="a config env replaces the runtime's environment instead of going over it (PATH lost)",
    source="contracts/sources.md upstream-stdio-env-path (deepchat#555)",
    kills=("mcp.stdio-env-path-kept", "mcp.stdio-env-inherit-per-option"),
    patches=(
        Patch(
            file="toolsets.py",
            old="        env={**os.environ, **server.env},\n",
            new="        env=dict(server.env) if server.env else dict(os.environ),\n",
        ),
        Patch(
            file="toolsets.py",
            old=(
                "        return stdio_client(stdio_parameters(server), errlog=sys.__stderr__ or sys.stderr)\n"
            ),
            new=(
                "        import mcp.client.stdio as sdk_stdio\n"
                "\n"
                "        sdk_stdio.get_default_environment = dict  # merges nothing under a given env\n"
                "        return stdio_client(stdio_parameters(server), errlog=sys.__stderr__ or sys.stderr)\n"
            ),
        ),
    ),
)
