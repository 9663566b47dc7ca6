"""A resource_link reaches the model without its name.

The runtime converts the link keeping its `uri` and `mimeType` only, as
langchain-mcp-adapters did (langchain-ai/langchain-mcp-adapters#606, again in
`langchain.mcp`, langchain-ai/langchain#40499): the model gets a link it
cannot name.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="blocks-link-name-lost",
    provenance="public-bug",
    bug="a resource_link's JSON block is sent without its name (resource_link_result json_block)",
    source="CONTRACT.md §5d.5 (tp-result-resource-link); sources.md upstream-resource-link-metadata-lost "
    "(https://github.com/langchain-ai/langchain-mcp-adapters/issues/606)",
    kills=("result.block-link",),
    patches=(
        Patch(
            file="results.py",
            old='    return str(dump(by_alias=True, exclude_none=True)) if dump is not None else ""\n',
            new=(
                '    return str(dump(by_alias=True, exclude_none=True, exclude={"name"})) '
                'if dump is not None else ""\n'
            ),
        ),
    ),
    select="test_result_blocks",
)
