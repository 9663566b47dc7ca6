"""Shared by toolproof's self-tests: pytester drives the plugin tests (tests/plugin)."""

pytest_plugins = ["pytester"]
