"""toolproof.judge.contract_files.parse_yaml: libyaml's safe loader, read as `yaml.safe_load` reads.

Every suite run parses the contract files again; the C loader is the fast path, and it must
neither read a contract file differently nor construct what the safe loader refuses.
"""

from __future__ import annotations

import pytest
import yaml

from toolproof.judge.contract_files import contracts_dir, parse_yaml


@pytest.mark.parametrize(
    "relative", sorted(str(p.relative_to(contracts_dir())) for p in contracts_dir().rglob("*.yaml"))
)
def test_a_contract_file_reads_as_safe_load_reads_it(relative: str) -> None:
    text = (contracts_dir() / relative).read_text(encoding="utf-8")
    assert parse_yaml(text) == yaml.safe_load(text)


def test_python_tags_are_refused() -> None:
    with pytest.raises(yaml.constructor.ConstructorError):
        parse_yaml("!!python/object/apply:os.getcwd []")
