# ruff: noqa
"""Truthiness that steers (run only after a successful build) decides no verdict."""

from toolproof.plugin.scenario import Scenario, tool_texts


def test_run_only_if_built(tp: Scenario) -> None:
    build = tp.build(tp.config({}))
    run = tp.run("x") if build.ok else build
    bodies = tp.model_bodies()
    texts = tool_texts(bodies[-1], tp.declared) if bodies else []
    tp.expect_outcome("dedup.balda-scoped-only", run, {"ok": True}, what="w")
    tp.expect("dedup.balda-call-carries-token", texts, ["context=abc123"], what="w")
    if not build.ok:
        tp.expect("dedup.balda-scoped-only", build.kind, None, what="w")
    else:
        tp.expect("dedup.balda-scoped-only", run.ok, True, what="w")
