"""Quoted values escaped to ASCII (`"cl\\u00e9"`), unlike Go's %q, which keeps printable Unicode."""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="dedup-conflict-message-ascii-escaped",
    provenance="contract",
    bug="go_quote uses json.dumps with ensure_ascii, escaping non-ASCII that Go's %q prints as is",
    source="upstream-contracts §1-§2 (Go %q quoting)",
    kills=("err.reference-message-dedup-conflict",),
    patches=(
        Patch(
            file="errors.py",
            old="    return json.dumps(text, ensure_ascii=False)\n",
            new="    return json.dumps(text)\n",
        ),
    ),
)
