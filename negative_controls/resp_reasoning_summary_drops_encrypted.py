"""A reasoning item with a summary loses its encrypted content on replay.

Microsoft Agent Framework dropped `encrypted_content` whenever reasoning
summaries were present, which broke `store=False` conversations.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="resp-reasoning-summary-drops-encrypted",
    provenance="public-bug",
    bug="encrypted_content dropped from a reasoning item that carries a summary",
    source="upstream-resp-summary-drops-encrypted (microsoft/agent-framework #4644)",
    kills=("responses.reasoning-kept-with-summary",),
    collateral=("responses.unstored-never-referenced",),
    profile="reference-responses",
    patches=(
        Patch(
            file="responses.py",
            old='                kept.append(item.to_dict(mode="json"))\n',
            new=(
                '                kept.append({k: v for k, v in item.to_dict(mode="json").items()'
                ' if not (item.summary and k == "encrypted_content")})\n'
            ),
        ),
    ),
    select="test_reasoning_with_a_summary_keeps_its_encrypted_content",
)
