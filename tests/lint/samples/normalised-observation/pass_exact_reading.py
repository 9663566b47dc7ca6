# ruff: noqa
"""Header names are case-insensitive (RFC 9110); expected values may be built with string methods."""

from toolproof.plugin.scenario import Scenario, wire_name_for


def test_header_names_folded(tp: Scenario) -> None:
    requests = tp.model_requests()
    observed = [[v for k, v in r.headers if k.lower() == "authorization"] for r in requests]
    tp.expect("proto.model-settings-from-config", observed, [["Bearer conformance-key"]], what="w")


def test_expected_built_with_string_methods(tp: Scenario) -> None:
    notice = str(tp.option("turn_cap_notice")).replace("{n}", "3")
    tp.expect("loop.cap-end-blank", tp.run("x").output, notice.strip(), what="w")


def test_marker_found_in_coerced_description(tp: Scenario) -> None:
    body = tp.model_bodies()[0]
    found = ["[tp:alpha/lookup]" in str(t.get("description") or "") for t in body["tools"]]
    tp.expect(
        "wire.tools-offered",
        [found, wire_name_for(body, "alpha/lookup")],
        [[True], ["alpha_lookup"]],
        what="w",
    )
