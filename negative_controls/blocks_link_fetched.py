"""The runtime reads a resource_link's resource on its own.

After the tools/call, every resource_link of the result is resolved with
`resources/read` (as Logicle does, logicleai/logicle#958); what reaches the
model is unchanged (the link's JSON), so only the read itself is judged.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="blocks-link-fetched",
    provenance="public-bug",
    bug="every resource_link of a result is read with resources/read by the runtime, unasked",
    source="CONTRACT.md §5d.6 (tp-result-link-not-fetched); sources.md upstream-resource-link-fetched "
    "(https://github.com/logicleai/logicle/pull/958)",
    kills=("result.link-not-fetched",),
    patches=(
        Patch(
            file="calls.py",
            old='    if wire == "responses" and has_binary_block(result):\n',
            new=(
                "    from .toolsets import on_server\n"
                "\n"
                "    for block in result.content:\n"
                '        if getattr(block, "type", None) == "resource_link":\n'
                '            uri = str(getattr(block, "uri"))\n'
                "            await on_server(servers[tool.server_id], lambda c: c.read_resource(uri))\n"
                '    if wire == "responses" and has_binary_block(result):\n'
            ),
        ),
    ),
    select="test_result_blocks",
)
