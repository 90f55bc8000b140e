"""Card faces and icons: drawn from card data alone, inside their bounds."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageChops, ImageDraw, ImageFont

from bot.render.pictures import PICTURES, card_face_png
from bot.render.pictures.base import BACKGROUND, font
from bot.render.pictures.cards import CARD_RATIO, FACE, CardArt, card_grid, card_png, draw_card
from bot.render.pictures.icons import ICONS, icon
from bot.render.pictures.spheres_of_life import card_art
from engines.registry import get_engine
from engines.spheres_of_life.cards import builtin_deck

LONG_TEXT = " ".join(["Draw a card, then give one to the player on your left."] * 8)


@pytest.mark.parametrize("name", sorted(ICONS))
def test_every_icon_draws_inside_its_box(name: str) -> None:
    image = Image.new("RGB", (60, 60), BACKGROUND)
    icon(ImageDraw.Draw(image), name, (20, 20, 40, 40), (255, 255, 255), BACKGROUND)
    drawn = ImageChops.difference(image, Image.new("RGB", (60, 60), BACKGROUND)).getbbox()
    assert drawn is not None, f"{name} draws nothing"
    left, top, right, bottom = drawn
    assert left >= 19 and top >= 19 and right <= 42 and bottom <= 42, f"{name} spills out: {drawn}"


@pytest.mark.parametrize("width", [120, 148, 300])
def test_a_card_is_as_tall_as_its_ratio_and_long_text_stays_inside(width: int) -> None:
    art = CardArt(title="A Very Long Card Title That Goes On", kind="Ability", text=LONG_TEXT, cost="12")
    card = draw_card(art, width)
    assert card.size == (width, round(width * CARD_RATIO))
    # The strip just inside the bottom border is plain card face: the text was cut, not spilled.
    inset, border = round(8 * width / 148), max(2, round(4 * width / 148))
    strip = card.crop((inset + 2, card.height - inset, width - inset - 2, card.height - border - 1))
    assert strip.getcolors() == [(strip.width * strip.height, FACE)]


def test_the_card_data_decides_the_face() -> None:
    art = CardArt(title="Noble Otter", kind="Noble animal", colour="#e8b948", icon="sparkle")
    for change in (
        {"title": "Noble Heron"},
        {"colour": "#8e44ad"},
        {"text": "Swim."},
        {"cost": "2"},
        {"icon": "thorn"},
        {"kind": "Corrupted animal"},
    ):
        assert draw_card(art.model_copy(update=change)).tobytes() != draw_card(art).tobytes(), change


def test_card_png_is_one_readable_card() -> None:
    png = card_png(CardArt(title="Druid", kind="Hero", text=LONG_TEXT, colour="#d9534f", icon="shield"))
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG" and image.width == 300 and len(png) < 256 * 1024


def test_a_bad_colour_is_refused() -> None:
    with pytest.raises(ValueError, match="colour"):
        CardArt(title="Odd", colour="red")


def test_a_grid_has_rows_of_cards() -> None:
    arts = [CardArt(title=f"Card {i}") for i in range(7)]
    assert card_grid(arts, columns=3).height > card_grid(arts[:3], columns=3).height
    assert card_grid([], title="My hand").width == card_grid(arts).width


def test_a_custom_deck_draws_from_its_own_card_data() -> None:
    """A server's deck: its own names, sides and texts reach the hand picture."""
    spec = builtin_deck().model_dump()
    spec["animals"][0] |= {"id": "noble-otter", "name": "Noble Otter"}
    spec["abilities"][0] |= {"id": "otter-trick", "name": "Otter Trick", "text": "Swap a card with a friend."}
    engine = get_engine("spheres-of-life")
    state = engine.setup(3, engine.parse_options({"deck": spec}), 11)
    otter, trick = (state.cards.index(kind) for kind in ("noble-otter", "otter-trick"))  # type: ignore[attr-defined]
    state.hands[0] = [otter, trick]  # type: ignore[attr-defined]
    view = engine.view(state, 0)
    picture = PICTURES["spheres-of-life"].hand(view, ["Ann", "Bo", "Cy"])
    expected = [
        CardArt(title="Noble Otter", kind="Noble animal", colour="#e8b948", icon="sparkle"),
        CardArt(
            title="Otter Trick",
            kind="Ability",
            text="Swap a card with a friend.",
            colour="#3b82f6",
            icon="eye",
        ),
    ]
    assert [card_art(face) for face in view.hand] == expected  # type: ignore[attr-defined]
    title = f"My hand: 2 cards · score now {view.score:+d}"  # type: ignore[attr-defined]
    assert picture is not None and picture.tobytes() == card_grid(expected, title=title).tobytes()


def test_the_bundled_font_is_the_one_drawn_with() -> None:
    face = font(17, bold=True)
    assert isinstance(face, ImageFont.FreeTypeFont) and face.getname() == ("Source Sans Pro", "Bold")


@pytest.mark.parametrize("game", sorted(PICTURES))
def test_every_card_of_every_deck_draws_for_slash_card(game: str) -> None:
    engine = get_engine(game)
    cards = engine.cards(engine.parse_options())
    assert cards
    faces = {card.key: card_face_png(game, card) for card in cards}
    for key, png in faces.items():
        assert png is not None and len(png) < 256 * 1024, key
        assert Image.open(io.BytesIO(png)).width == 300
    assert len(set(faces.values())) == len(faces), "each card has a face of its own"


def test_slash_card_draws_a_custom_decks_card_from_its_data() -> None:
    spec = builtin_deck().model_dump()
    spec["abilities"][0] |= {"name": "Otter Trick", "text": "Swap a card with a friend."}
    engine = get_engine("spheres-of-life")
    [trick] = [c for c in engine.cards(engine.parse_options({"deck": spec})) if c.name == "Otter Trick"]
    art = PICTURES["spheres-of-life"].card(trick)
    assert (art.title, art.kind, art.icon) == ("Otter Trick", "Ability", "eye") and trick.text in art.text
    assert card_face_png("spheres-of-life", trick) == card_png(art)
    assert card_face_png("high-card", trick) is None
