"""toolproof's suite self-tests, shipped with the wheel: `pytest --pyargs conformance.selftest`.

They judge the judges: every probe the suite classifies observations with
(conformance.probes) must accept its accept samples and reject its reject
samples (contracts/probes/). The `any-typed-probe` control proves they can fail.
"""
