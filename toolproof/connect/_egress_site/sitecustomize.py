"""toolproof's egress guard for `cmd:` Python candidates, loaded at interpreter start.

The harness puts this directory first on the candidate's PYTHONPATH, so
`site` imports this module before the candidate imports its runtime. It loads
toolproof/connect/egress.py by path (the candidate's environment need not have
toolproof), installs the guard when TOOLPROOF_EGRESS_LOG is set, and then
runs the `sitecustomize` this one shadows, if the environment has one.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import os
import sys

_HERE = os.path.dirname(os.path.abspath(__file__))


def _install_guard() -> None:
    path = os.path.join(os.path.dirname(_HERE), "egress.py")
    spec = importlib.util.spec_from_file_location("_toolproof_egress", path)
    if spec is None or spec.loader is None:
        raise ImportError(f"toolproof egress guard not found at {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    module.install_from_env()


def _chain() -> None:
    """Run the next `sitecustomize` on sys.path (the one this module shadows), as `site` would have."""
    rest = [entry for entry in sys.path if os.path.abspath(entry or os.curdir) != _HERE]
    spec = importlib.machinery.PathFinder.find_spec("sitecustomize", rest)
    if spec is None or spec.loader is None:
        return
    module = importlib.util.module_from_spec(spec)
    sys.modules["sitecustomize"] = module
    spec.loader.exec_module(module)


try:
    _install_guard()
except Exception as exc:  # never keep the candidate from starting: the check then reports not_testable
    sys.stderr.write(f"toolproof: egress guard not installed: {exc!r}\n")
_chain()
