"""Without Chromium the browser tests are skipped on a developer's machine but
fail the run in CI, where a skipped suite would hide every breakage."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run_without_chromium(ci: bool) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    env |= {"CHROMIUM": str(ROOT / "no-such-chromium"), "PYTHONPATH": str(ROOT)}
    if ci:
        env["CI"] = "1"
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-rs", "tests/browser/test_home.py"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )


def test_a_missing_chromium_skips_the_browser_tests_outside_ci() -> None:
    done = run_without_chromium(ci=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 skipped" in done.stdout and "Chromium is not installed" in done.stdout


def test_a_missing_chromium_fails_the_run_in_ci() -> None:
    done = run_without_chromium(ci=True)
    assert done.returncode == 4, done.stdout + done.stderr
    assert "CI is set but the browser tests cannot run" in done.stdout + done.stderr
