"""Golden wire transcripts of the reference for named scenarios (syrupy, byte-exact).

They guard the reference and document the wire; they are not conformance
verdicts, and neither the kill matrix nor the mutation run uses them. The
transcripts come from the suite's own `--wire-record` (tokens and ports
normalised), always against the bundled `reference`: golden files are only
ever (re)written from the reference, with `pytest --snapshot-update`, never
in CI.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from syrupy.assertion import SnapshotAssertion
from syrupy.extensions.single_file import SingleFileSnapshotExtension, WriteMode

from toolproof.invocation import suite_pytest_args

# Named scenarios: stable, and together they show tools, calls, results and the cap.
SCENARIOS = (
    "test_model_request_uses_configured_model_and_key",
    "test_text_reply_completes_the_run",
    "test_balda_session_memory_golden",
    "test_output_channel_receipt_is_exactly_ok",
    "test_no_status_is_synthesized_for_empty_or_scalar_results",
)


class WireTranscript(SingleFileSnapshotExtension):
    """One pretty-printed JSON file per scenario, key order as on the wire."""

    _write_mode = WriteMode.TEXT
    file_extension = "json"

    def serialize(self, data: Any, **kwargs: Any) -> str:
        return json.dumps(data, indent=2, ensure_ascii=False) + "\n"

    @classmethod
    def dirname(cls, *, test_location: Any) -> str:
        return str(Path(test_location.filepath).parent / "transcripts")


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Run the named scenarios once against the reference, recording their transcripts."""
    out = tmp_path_factory.mktemp("wire")
    command = [
        sys.executable,
        "-m",
        "pytest",
        *suite_pytest_args(),
        "-q",
        "--candidate",
        "reference",
        "--wire-record",
        str(out),
        "-k",
        " or ".join(SCENARIOS),
    ]
    done = subprocess.run(
        command,
        cwd=out,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
    )
    if done.returncode != 0:
        raise AssertionError(f"recording run failed (exit {done.returncode}):\n{done.stdout[-3000:]}")
    return {p.stem.split("__", 1)[1]: json.loads(p.read_text(encoding="utf-8")) for p in out.glob("*.json")}


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_reference_wire_transcript(
    recorded: dict[str, Any], scenario: str, snapshot: SnapshotAssertion
) -> None:
    assert recorded[scenario] == snapshot(extension_class=WireTranscript)
