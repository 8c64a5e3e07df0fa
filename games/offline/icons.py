"""Draws the site's app icons (PNG) with Pillow: ``python -m games.offline.icons``.

Two playing cards on the felt green of the table, the front one marked with an "S";
the same picture at every size, with room around it so that a "maskable" icon (cut to
a circle or a rounded square by the device) keeps it whole. The PNGs are committed
(games/static/games/icons/); run this again only to change them.
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw

OUT = Path(__file__).resolve().parents[1] / "static" / "games" / "icons"
FELT = (31, 111, 74)
PAPER = (255, 253, 247)
ACCENT = (194, 24, 91)
INK = (29, 36, 51)
SIZES = (192, 512)


def draw(size: int) -> Image.Image:
    scale = 4  # drawn large, then reduced: smooth edges
    big = size * scale
    image = Image.new("RGB", (big, big), FELT)
    pen = ImageDraw.Draw(image)
    unit = big / 100
    radius = 5 * unit
    # The back card, turned a little, then the front card (the safe zone: 20 %-80 %).
    back = Image.new("RGBA", (int(34 * unit), int(48 * unit)), (0, 0, 0, 0))
    ImageDraw.Draw(back).rounded_rectangle(
        (0, 0, back.width - 1, back.height - 1), radius=radius, fill=ACCENT, outline=PAPER,
        width=int(1.5 * unit),
    )  # fmt: skip
    back = back.rotate(-14, expand=True, resample=Image.BICUBIC)
    image.paste(back, (int(40 * unit), int(22 * unit)), back)
    front = (27 * unit, 30 * unit, 61 * unit, 78 * unit)
    pen.rounded_rectangle(front, radius=radius, fill=PAPER, outline=INK, width=int(1.2 * unit))
    # An "S" of two arcs, in the accent colour.
    width = int(4.5 * unit)
    pen.arc((35 * unit, 40 * unit, 53 * unit, 55 * unit), 90, 330, fill=ACCENT, width=width)
    pen.arc((35 * unit, 53 * unit, 53 * unit, 68 * unit), -90, 150, fill=ACCENT, width=width)
    return image.resize((size, size), Image.LANCZOS)


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for size in SIZES:
        draw(size).save(OUT / f"icon-{size}.png", optimize=True)
    draw(180).save(OUT / "apple-touch-icon.png", optimize=True)


if __name__ == "__main__":
    main()
