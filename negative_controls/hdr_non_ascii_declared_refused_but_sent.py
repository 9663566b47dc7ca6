"""The runtime declares `header_non_ascii: refused` but builds and sends the value anyway.

A declaration the behaviour does not follow: the build with a non-ASCII
header value succeeds and the server is contacted, where the declared option
obliges a refusal before anything is contacted.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="hdr-non-ascii-declared-refused-but-sent",
    provenance="contract",
    bug="hello declares header_non_ascii refused, while the build accepts the value and sends it",
    source="CONTRACT.md tp-hdr-value-exact (header_non_ascii, as declared)",
    kills=("hdr.non-ascii-per-option",),
    patches=(
        Patch(
            file="profiles.py",
            old='        "header_non_ascii": "utf8",\n',
            new='        "header_non_ascii": "refused",\n',
        ),
    ),
)
