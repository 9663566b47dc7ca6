"""The runtime inserts a continuation message while declaring continuation null.

HomeAgent's placeholder was an implementation detail nobody declared; a
candidate that says `continuation: null` and still adds one breaks every
consumer that trusts the declaration.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="cont-undeclared-placeholder",
    provenance="seed",
    bug="a continuation message is inserted after tool rounds although continuation is declared null",
    source="seed homeagent-qq-output-send-loop §2.5 (an undeclared placeholder)",
    kills=("cont.none-when-null",),
    # The synthetic message also breaks the general history rules (another area's checks).
    collateral=("hist.append-only", "hist.runs-per-build"),
    patches=(
        Patch(
            file="runtime.py",
            old="                continuation=self.profile.continuation,\n",
            new='                continuation="请根据以上工具结果继续。",\n',
        ),
    ),
)
