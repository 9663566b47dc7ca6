"""A pass needs its observation: an invariant a test is built to show tools (issue 22 §4).

`tp.must_show(invariant, *markers)` names the tools a test exists to show a whole-suite invariant
(the rich `shapes` schemas for wire.parameters-valid-schema, say). When no request of that test
offered them (the build failed or hung, the runtime dropped the tools), the invariant is
`undecided` there, with the reason, and its row cannot pass on the simple schemas other tests
happened to offer. Small suites run by pytester in a subprocess against wrappers of the reference.
"""

from __future__ import annotations

import pytest
from test_vacuity import Run, Suite  # the vacuity self-tests' pytester driver (tests/vacuity)

from toolproof.report import exitcodes

WRAPPERS = '''
from toolproof.candidates.reference.adapter import reference


class Wrapped:
    def __init__(self):
        self.inner = reference()

    async def hello(self):
        return await self.inner.hello()

    async def build(self, id, config):
        return await self.inner.build(id, config)

    async def run(self, id, input):
        return await self.inner.run(id, input)

    async def close(self, id):
        return await self.inner.close(id)


class FailsRichBuilds(Wrapped):
    """Cannot build a tool with a rich schema: every build with the shapes server fails."""

    async def build(self, id, config):
        if "shapes" in config["mcp_servers"]:
            return {"ok": False, "error": {"kind": "internal", "message": "cannot convert the schema"}}
        return await self.inner.build(id, config)


class DropsRichServers(Wrapped):
    """Silently leaves the shapes server out: the build and the run succeed, its tools are never offered."""

    async def build(self, id, config):
        servers = {k: v for k, v in config["mcp_servers"].items() if k != "shapes"}
        return await self.inner.build(id, {**config, "mcp_servers": servers})


def fails_rich_builds():
    return FailsRichBuilds()


def drops_rich_servers():
    return DropsRichServers()
'''

TESTS = """
import pytest

from toolproof.fakes import Text


@pytest.mark.checks("loop.completed-output")
@pytest.mark.capability("openai.chat")
def test_simple_schema(tp):
    tp.script(Text("done"))
    tp.build(tp.config({"beta": tp.server("beta")}))
    tp.expect_outcome("loop.completed-output", tp.run("q"), {"ok": True, "output": "done"}, what="run")


@pytest.mark.checks("loop.completed-output")
@pytest.mark.capability("openai.chat")
def test_rich_schema(tp):
    tp.must_show("wire.parameters-valid-schema", "shapes/schema_refs")
    tp.script(Text("done"))
    tp.build(tp.config({"shapes": tp.server("shapes")}))
    tp.expect_outcome("loop.completed-output", tp.run("q"), {"ok": True, "output": "done"}, what="run")
"""

SHOWN = "wire.parameters-valid-schema"


@pytest.fixture
def suite(pytester: pytest.Pytester) -> Suite:
    made = Suite(pytester)
    (pytester.path / "shown_candidates.py").write_text(WRAPPERS, encoding="utf-8")
    return made


def occurrences(run: Run, check: str) -> dict[str, tuple[str, str | None]]:
    results = run.report["results"]
    return {r["test"]: (r["status"], r["blocked_by"]) for r in results if r["check"] == check}


def test_shown_by_the_reference_the_invariant_passes(suite: Suite) -> None:
    run = suite.run(TESTS, "--candidate=reference")
    assert run.ret == exitcodes.OK, run.output
    assert run.rows[SHOWN]["status"] == "pass"


def test_a_failed_rich_build_leaves_the_invariant_undecided_not_passed_on_simple_schemas(
    suite: Suite,
) -> None:
    run = suite.run(TESTS, "--candidate=py:shown_candidates:fails_rich_builds")
    assert run.ret == exitcodes.CHECK_FAILED, run.output  # the precondition: one verdict
    assert occurrences(run, SHOWN) == {
        "test_suite.py::test_simple_schema": ("pass", None),
        "test_suite.py::test_rich_schema": ("undecided", "proto.valid-config-builds-and-runs"),
    }
    row = run.rows[SHOWN]
    assert row["status"] == "undecided"
    assert row["message"] == (
        "not decided: this test is built to show wire.parameters-valid-schema [tp:shapes/schema_refs], "
        "and no model request of it offered it with parameters (0 request(s) judged; a build or run "
        "the test needed did not succeed: proto.valid-config-builds-and-runs failed); a pass on other "
        "tools is not this observation"
    )
    assert f"UNDECIDED {SHOWN} [MUST]: not decided: this test is built to show" in run.output


def test_rich_tools_never_offered_leave_the_invariant_undecided(suite: Suite) -> None:
    run = suite.run(TESTS, "--candidate=py:shown_candidates:drops_rich_servers")
    assert run.ret == exitcodes.OK, run.output  # nothing failed: the row is listed, no exit code
    assert occurrences(run, SHOWN) == {
        "test_suite.py::test_simple_schema": ("pass", None),
        "test_suite.py::test_rich_schema": ("undecided", None),
    }
    assert run.rows[SHOWN]["message"] == (
        "not decided: this test is built to show wire.parameters-valid-schema [tp:shapes/schema_refs], "
        "and no model request of it offered it with parameters (1 request(s) judged); a pass on other "
        "tools is not this observation"
    )
