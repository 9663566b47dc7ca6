"""The positive control (seed ru §6): a probe that rejects everything must be caught too.

The seed's advice after the any-typed probe: next to the probe, check that
a type known to fit does satisfy it, so a drifting signature shows. Here:
every probe replaced by one that objects to every sample; the self-tests
must fail on every sample each probe must accept.
"""

from toolproof.controls.control import Control, Patch
from toolproof.selftest.probes import names

CONTROL = Control(
    name="probe-rejects-everything",
    provenance="seed",
    bug="every probe reports a problem for every sample (a signature that no longer fits anything)",
    source="seed ru §6 (positive control beside the probe)",
    kills=tuple(f"selftest:test_probe_accepts[{name}]" for name in names()),
    patches=(
        Patch(
            file="selftest/probes.py",
            old="    return _registry()[name]\n",
            new=(
                "    found = _registry()[name]\n"
                "    return Probe(\n"
                "        found.name, found.kind, found.summary, found.target, lambda s: ['rejected'], "
                "found.fields\n"
                "    )\n"
            ),
        ),
    ),
    # Reject samples pinning more than one problem see one: their counts differ too.
    collateral=tuple(f"selftest:test_probe_rejects[{name}]" for name in names()),
    target="toolproof",
    runs="selftest",
)
