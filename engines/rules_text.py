"""A game's rules in sections for ``/rules``: read from ``rules.toml`` and the
decisions of ``RULES.md`` beside the game's package."""

from __future__ import annotations

import re
import tomllib
from functools import cache
from pathlib import Path

from engines.contract import RulesSection

# "(setup: `test_x`)", "(cosmic::some_test)": where a ruling is proved.
_DECISION_TESTS = re.compile(r"\s*\([^()]*(?:`test_|\b\w+::\w+|\ball tests\b)[^)]*\)")
# A sentence naming a test file: its dots inside backticks ("`test_x.py`") do not end it.
_TEST_SENTENCE = re.compile(r"[^.\n]*`tests?[/_][^`]*`[^.]*\.")
_PROOF_COLUMNS = ("#", "test", "tests")


def _plain_ruling(text: str) -> str:
    """A RULES.md section as players read it: tables as bullet lines, and the
    references to the tests that prove each ruling left out."""
    lines: list[str] = []
    header: list[str] | None = None
    for line in text.splitlines():
        if not line.startswith("|"):
            header = None
            lines.append(line)
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if header is None:
            header = [c.lower() for c in cells]
        elif not all(set(c) <= set("-: ") for c in cells):
            kept = [c for c, h in zip(cells, header, strict=False) if h not in _PROOF_COLUMNS and c]
            lines.append("• " + " — ".join(kept))
    plain = _DECISION_TESTS.sub("", "\n".join(lines))
    return _TEST_SENTENCE.sub("", plain).strip()


def rules_sections_from(folder: Path) -> list[RulesSection]:
    """A game's rules from the files beside its code: ``rules.toml`` (sections
    written from the rulebook: ``[[section]]`` with key, title, text) and the
    decisions in ``RULES.md`` (one section per ``## `` heading, with the
    references to tests left out: players need the ruling, not its proof)."""
    return list(_read_rules(folder))


@cache
def _read_rules(folder: Path) -> tuple[RulesSection, ...]:
    # Read once per process: autocomplete asks on every keystroke.
    sections: list[RulesSection] = []
    summary = folder / "rules.toml"
    if summary.is_file():
        data = tomllib.loads(summary.read_text(encoding="utf-8"))
        sections += [RulesSection.model_validate(item) for item in data.get("section", [])]
    decisions = folder / "RULES.md"
    if decisions.is_file():
        for block in decisions.read_text(encoding="utf-8").split("\n## ")[1:]:
            title, _, body = block.partition("\n")
            text = _plain_ruling(body)
            slug = re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")
            key = f"decisions-{slug}"[:48].rstrip("-")
            sections.append(RulesSection(key=key, title=title.strip(), text=text, decision=True))
    return tuple(sections)
