"""Where the contract data lives: inside the installed package, or the checkout."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import yaml

# libyaml's loader where PyYAML was built with it (its wheels are): the same documents, about ten
# times faster than the pure-Python one. Every suite run (each control's, each xdist worker's)
# parses the contract files again: 0.35 s of CPU each with the pure-Python loader.
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

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


def parse_yaml(text: str) -> Any:
    """`yaml.safe_load(text)`, with libyaml's safe loader when PyYAML has it."""
    return yaml.load(text, Loader=_LOADER)  # a safe loader either way


@cache
def load_yaml(relative: str) -> Any:
    """Load a YAML file under contracts/ (cached: contract data is read-only)."""
    return parse_yaml((contracts_dir() / relative).read_text(encoding="utf-8"))
