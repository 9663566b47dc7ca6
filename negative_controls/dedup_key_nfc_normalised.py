"""Keys Unicode-normalised (NFC) before comparing: NFD `café` joins the group of NFC `café`."""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="dedup-key-nfc-normalised",
    provenance="contract",
    bug="dedup_group_key compares unicodedata.normalize('NFC', key) instead of the raw key",
    source="CONTRACT.md tp-dedup-key-opaque (no Unicode normalisation)",
    kills=("dedup.keys-opaque", "dedup.key-variants-never-collapse"),
    patches=(
        Patch(
            file="dedup.py",
            old="    return server.dedup_key\n",
            new='    return __import__("unicodedata").normalize("NFC", server.dedup_key)\n',
        ),
    ),
)
