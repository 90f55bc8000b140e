"""The house's floors: no import circles in ``bot``, ``engines`` or
``storage``, nothing importing from a floor above it, and no source module
too long to read in one sitting."""

from __future__ import annotations

from pathlib import Path

from tests.support.layers import build_graph, cycles, upward_imports

ROOT = Path(__file__).resolve().parent.parent
FLOORS = ("bot", "engines", "storage")
LONGEST = 400

# Who may not import whom (ARCHITECTURE.md's floors, lowest first).
FORBIDDEN = {
    "engines": ("bot", "storage", "discord", "redis", "asyncio"),
    "storage": ("bot", "discord"),
    "bot.service": ("discord", "bot.tournaments", "bot.app", "bot.terminal", "bot.web", "bot.ops.cli"),
    "bot.tournaments": ("discord", "bot.app", "bot.terminal", "bot.web", "bot.ops.cli"),
    "bot.render": ("discord", "bot.app", "bot.terminal", "bot.service", "bot.web", "bot.ops.cli"),
    "bot.terminal": ("discord", "bot.app", "bot.web", "bot.ops.cli"),
    # The web face speaks HTTP and HTML, never discord; the Discord side may post its links.
    "bot.web": ("discord", "bot.app", "bot.terminal", "bot.ops.cli"),
    "bot.app": ("bot.terminal", "bot.ops.cli"),
    # The operator's tools every floor may use import nothing of those floors.
    **{
        f"bot.ops.{tool}": (
            "bot.service",
            "bot.app",
            "bot.terminal",
            "bot.tournaments",
            "bot.render",
            "bot.web",
        )
        for tool in ("settings", "metrics", "health", "logs", "collector")
    },
}


def test_no_import_circles() -> None:
    edges, _ = build_graph(ROOT, FLOORS)
    assert cycles(edges) == []


def test_no_floor_imports_from_a_floor_above_it() -> None:
    edges, outside = build_graph(ROOT, FLOORS)
    assert upward_imports(edges, outside, FORBIDDEN) == []


def test_no_source_module_is_over_400_lines() -> None:
    long = {
        str(path.relative_to(ROOT)): lines
        for folder in (*FLOORS, "tests", "benchmarks")
        for path in (ROOT / folder).rglob("*.py")
        if (lines := len(path.read_text().splitlines())) > LONGEST
    }
    assert long == {}, "split these by subject"


def test_the_checker_finds_a_planted_circle_and_an_upward_import(tmp_path: Path) -> None:
    for name, text in {
        "low/__init__.py": "",
        "low/a.py": "from low import b\n",
        "low/b.py": "def f() -> None:\n    from low.c import g\n",
        "low/c.py": (
            "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from low.a import x\nimport high.top\n"
        ),
        "low/d.py": "from . import e\nimport redis\n",
        "low/e.py": "import os\n",
        "high/__init__.py": "from high import top\n",
        "high/top.py": "from high import other\n",
        "high/other.py": "import high\n",
    }.items():
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_text(text)
    edges, outside = build_graph(tmp_path, ("low", "high"))
    assert edges["low.d"] == {"low.e"}
    assert cycles(edges) == [["high", "high.other", "high.top"], ["low.a", "low.b", "low.c"]]
    upward = upward_imports(edges, outside, {"low": ("high", "redis")})
    assert upward == ["low.c -> high.top", "low.d -> redis"]
    del edges["low.b"]
    assert cycles({**edges, "low.b": frozenset()}) == [["high", "high.other", "high.top"]]
