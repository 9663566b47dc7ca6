# ruff: noqa
"""Reaching into a candidate's internals instead of through protocol v1 (the seed's unit test of hostedToolsets)."""

import importlib

import candidates.reference.hydrate  # flag: candidate-import
from candidates.reference import toolsets  # flag: candidate-import
from candidates import reference  # flag: candidate-import
import toolproof.candidates.reference.dedup  # flag: candidate-import
from toolproof.candidates.reference import packing  # flag: candidate-import
from toolproof import candidates  # flag: candidate-import

from toolproof.plugin.scenario import Scenario


def test_internal(tp: Scenario) -> None:
    module = importlib.import_module("candidates.reference.dedup")  # flag: candidate-import
    module = importlib.import_module("toolproof.candidates.reference.dedup")  # flag: candidate-import
    tp.expect("dedup.balda-scoped-only", module is not None, True, what="w")
