"""The any-typed probe (seed ru §4a P2, §6): a probe that can never reject anything.

The upstream test asserted that MCP toolsets do not implement
`ProcessRequest(ctx any, req any)`. Go requires exact types, so the real
`(agent.Context, *model.LLMRequest)` never satisfied that interface: `ok`
was always false and `t.Fatal` unreachable. A check that looked like a probe
and probed nothing.

The Python analogue: every registered probe (wire and protocol JSON Schemas,
invariants, observation matchers) replaced by one that accepts anything (a
schema `{}`, a predicate that never reports a problem). The probe self-tests
must then fail on every sample each probe must reject.
"""

from toolproof.controls.control import Control, Patch
from toolproof.selftest.probes import names

CONTROL = Control(
    name="any-typed-probe",
    provenance="seed",
    bug="every probe accepts anything: schema {} / a predicate that never returns a problem",
    source="seed ru §4a P2 and §6 (ProcessRequest(ctx any, req any))",
    kills=tuple(f"selftest:test_probe_rejects[{name}]" for name in names()),
    patches=(
        Patch(
            file="selftest/probes.py",
            old="    return _registry()[name]\n",
            new=(
                "    found = _registry()[name]\n"
                "    # any-typed: same name and target, but a judge that accepts every sample\n"
                "    return Probe(found.name, found.kind, found.summary, found.target, lambda s: [], "
                "found.fields)\n"
            ),
        ),
    ),
    target="toolproof",
    runs="selftest",
)
