"""Shared by toolproof's self-tests: pytester drives the plugin tests (tests/plugin).

toolproof's plugin is no entry point; the self-tests load it (its markers: suite modules the
harness imports, such as the differential schema verdict, carry `checks` marks).
"""

pytest_plugins = ["pytester", "toolproof.plugin"]
