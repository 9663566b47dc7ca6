"""Protocol and config-path rules every candidate must follow (contracts/requirements.yaml)."""

from __future__ import annotations

import pytest

from conformance.fakes import Text
from conformance.scenario import Scenario


@pytest.mark.checks("proto.unknown-build-id")
def test_run_on_unknown_build_id_is_an_internal_error(tp: Scenario) -> None:
    outcome = tp.run("hello?")  # never built
    tp.expect_outcome(
        "proto.unknown-build-id",
        outcome,
        {"ok": False, "kind": "internal"},
        what="run on a build id that was never built",
    )


@pytest.mark.checks("proto.model-settings-from-config")
def test_model_request_uses_configured_model_and_key(tp: Scenario) -> None:
    tp.script(Text("done"))
    tp.build(tp.config({}))
    tp.run("say done")
    requests = tp.model_requests()
    observed = [
        {
            "path": r.path,
            "model": (r.json or {}).get("model"),
            "authorization": [v for k, v in r.headers if k.lower() == "authorization"],
        }
        for r in requests
    ]
    tp.expect(
        "proto.model-settings-from-config",
        observed,
        [
            {
                "path": f"/{tp.token}/v1/chat/completions",
                "model": "conformance-model",
                "authorization": ["Bearer conformance-key"],
            }
        ],
        what="the one model request of a text-only run",
    )


@pytest.mark.checks("proto.unknown-op")
def test_unknown_op_is_an_internal_error_and_the_adapter_keeps_serving(tp: Scenario) -> None:
    if tp.transport != "cmd":
        tp.not_testable(
            "proto.unknown-op", "an in-process candidate has no wire on which an unknown op could arrive"
        )
        return
    generation = tp.process_generation()
    answer = tp.send_raw({"op": "frobnicate", "id": tp.token})
    observed = {"ok": answer.get("ok"), "kind": (answer.get("error") or {}).get("kind")}
    tp.expect(
        "proto.unknown-op", observed, {"ok": False, "kind": "internal"}, what="the answer to an unknown op"
    )
    again = tp.send_raw({"op": "hello", "protocol": 1})
    tp.expect(
        "proto.unknown-op",
        [again.get("ok"), tp.process_generation()],
        [True, generation],
        what="hello answered by the same adapter process afterwards",
    )
