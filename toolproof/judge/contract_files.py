"""Where the contract data lives: inside the installed package, or the checkout."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import yaml

_PACKAGED = Path(__file__).resolve().parents[1] / "contracts"  # toolproof/contracts in the wheel
_CHECKOUT = Path(__file__).resolve().parents[2] / "contracts"  # contracts/ beside toolproof/


def contracts_dir() -> Path:
    """Return the contracts directory (the wheel's copy wins over a checkout's)."""
    for candidate in (_PACKAGED, _CHECKOUT):
        if (candidate / "options.yaml").is_file():
            return candidate
    raise FileNotFoundError(
        f"toolproof contracts not found (looked in {_PACKAGED} and {_CHECKOUT}); "
        "the installation is incomplete"
    )


@cache
def load_json(relative: str) -> Any:
    """Load a JSON file under contracts/ (cached: contract data is read-only)."""
    return json.loads((contracts_dir() / relative).read_text(encoding="utf-8"))


@cache
def load_yaml(relative: str) -> Any:
    """Load a YAML file under contracts/ (cached: contract data is read-only)."""
    return yaml.safe_load((contracts_dir() / relative).read_text(encoding="utf-8"))
