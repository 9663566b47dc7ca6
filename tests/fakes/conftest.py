"""Fixtures of the fakes' self-tests."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest

from toolproof.fakes import ModelEndpoint


@pytest.fixture
def token(model: ModelEndpoint) -> Iterator[str]:
    """A fresh token on the module's `model` endpoint, forgotten afterwards."""
    name = f"t{uuid.uuid4().hex[:12]}"
    yield name
    model.forget(name)
