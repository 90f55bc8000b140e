"""Golden-image comparison: tolerant of how a font rasterises, strict on layout.

A picture matches its golden file when it has exactly the same size (every band,
card and row is where it was: a layout change moves the bottom edge) and no
16×16 block differs by more than a small mean amount (a card drawn elsewhere, a
missing row or a wrong colour changes whole blocks; a glyph's antialiasing on
another FreeType changes a few pixels of one). Set ``UPDATE_GOLDEN=1`` to write
the current pictures as the new golden files, then look at them before committing.
"""

from __future__ import annotations

import io
import os
from pathlib import Path

from PIL import Image, ImageChops, ImageStat

GOLDEN = Path(__file__).parent / "golden"
BLOCK = 16
BLOCK_LIMIT = 24.0  # mean difference (0-255) allowed in any one block
MEAN_LIMIT = 3.0  # mean difference allowed over the whole picture


def differences(picture: Image.Image, golden: Image.Image) -> tuple[float, float]:
    """(worst block's mean difference, whole picture's mean difference), both 0-255."""
    diff = ImageChops.difference(picture.convert("RGB"), golden.convert("RGB")).convert("L")
    worst = diff.reduce(BLOCK).getextrema()[1]  # a one-band picture: (lowest, highest)
    assert isinstance(worst, int | float)
    return float(worst), float(ImageStat.Stat(diff).mean[0])


def updating() -> bool:
    return os.environ.get("UPDATE_GOLDEN") == "1"


def assert_matches_golden(png: bytes, name: str) -> None:
    path = GOLDEN / f"{name}.png"
    if updating():
        GOLDEN.mkdir(exist_ok=True)
        path.write_bytes(png)
    assert path.exists(), f"no golden picture {path.name}: run with UPDATE_GOLDEN=1 and look at it"
    picture, golden = Image.open(io.BytesIO(png)), Image.open(path)
    assert picture.size == golden.size, f"{name}: layout changed, size {picture.size} != {golden.size}"
    worst, mean = differences(picture, golden)
    assert worst <= BLOCK_LIMIT and mean <= MEAN_LIMIT, (
        f"{name}: differs from its golden picture (worst block {worst:.1f}, mean {mean:.2f}); "
        "if the change is meant, run with UPDATE_GOLDEN=1 and look at the new picture"
    )
