"""An embedded text resource's text never reaches the model.

The runtime puts the resource structure aside (an artifact the model does not
see) and sends nothing of it: GitHub MCP's `get_file_contents` returned the
file as an embedded resource whose text the model never got
(langchain-ai/langchainjs#9654).
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="blocks-text-resource-invisible",
    provenance="public-bug",
    bug="an embedded text resource gives the model nothing (embedded_text_resource text declared)",
    source="CONTRACT.md §5d.4 (tp-result-text-resource); sources.md upstream-embedded-resource-lost "
    "(https://github.com/langchain-ai/langchainjs/pull/9654)",
    kills=("result.block-text-resource",),
    patches=(
        Patch(
            file="results.py",
            old="        return block.resource.text\n",
            new='        return ""\n',
        ),
    ),
    select="test_result_blocks",
)
