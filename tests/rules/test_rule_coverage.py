"""Every rule in docs/rules.md is named by at least one test (the ID appears in a test file)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]  # tests/
RULE_ID = re.compile(r"^- ([EN]-[A-Z]+-\d+)\b", re.MULTILINE)


def rule_ids() -> list[str]:
    return RULE_ID.findall((ROOT.parent / "docs" / "rules.md").read_text(encoding="utf-8"))


def test_rules_file_lists_rules() -> None:
    ids = rule_ids()
    assert len(ids) > 60
    assert "E-TUN-3" in ids and "N-SCORE-1" in ids


def test_every_rule_has_a_test() -> None:
    text = "\n".join(
        p.read_text(encoding="utf-8") for p in ROOT.rglob("test_*.py") if p.name != "test_rule_coverage.py"
    )
    text = text.replace("_", "-")
    missing = [rule for rule in rule_ids() if rule not in text]
    assert not missing, f"rules with no test naming them: {missing}"
