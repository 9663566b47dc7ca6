"""toolproof's suite self-tests, shipped with the wheel:
`pytest -p toolproof.plugin --pyargs toolproof.selftest`.

They judge the judges: every probe the suite classifies observations with
(toolproof.selftest.probes) must accept its accept samples and reject its reject
samples (contracts/probes/). The `any-typed-probe` control proves they can fail.
"""
