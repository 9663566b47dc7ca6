"""`python -m toolproof.lint [--json] [--rule NAME] [PATH...]`: exit 0 clean, 1 findings, 2 bad input."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from toolproof.lint import RULES, lint_paths, suite_dir


def main(argv: Sequence[str] | None = None) -> int:
    """Lint the given paths (default: the installed suite) and print one line per finding."""
    parser = argparse.ArgumentParser(prog="python -m toolproof.lint", description=__doc__)
    parser.add_argument(
        "paths",
        nargs="*",
        type=Path,
        help="files or directories (default: the installed suite, toolproof.conformance)",
    )
    parser.add_argument("--json", action="store_true", help="print the findings as one JSON document")
    parser.add_argument(
        "--rule", action="append", choices=sorted(RULES), help="run only this rule (repeatable)"
    )
    parser.add_argument("--list-rules", action="store_true", help="print every rule with its summary")
    args = parser.parse_args(argv)
    if args.list_rules:
        for name, rule in RULES.items():
            print(f"{name}: {(rule.__doc__ or '').strip().splitlines()[0]}")
        return 0
    try:
        findings = lint_paths(args.paths or [suite_dir()], args.rule)
    except (OSError, SyntaxError) as exc:
        print(f"toolproof.lint: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps([f.__dict__ for f in findings], indent=2, ensure_ascii=False))
    else:
        for finding in findings:
            print(finding.render())
        print(f"toolproof.lint: {len(findings)} finding(s)", file=sys.stderr)
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
