"""Make the site's icons (committed): the browser tab's, a bookmark's on a tablet's home
screen, and the sizes an installed web app asks for.

    .venv/bin/python -m tools.make_icons

The picture: two playing cards, the front one showing an "S" for Snap, on the site's
accent colour, drawn with Pillow and the shipped Noto Sans Bold (no other source).
Written to games/static/games/icons/: favicon.ico (16, 32 and 48 px; served at
/favicon.ico too), apple-touch-icon.png (180 px, opaque as iOS wants), icon-192.png,
icon-512.png.
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

BASE_DIR = Path(__file__).resolve().parent.parent
OUT = BASE_DIR / "games" / "static" / "games" / "icons"
FONT = BASE_DIR / "games" / "static" / "games" / "fonts" / "NotoSans-Bold.ttf"
ACCENT = (194, 24, 91)  # --accent in site.css
PAPER = (255, 253, 247)  # --paper
INK = (29, 36, 51)  # --ink


def picture(size: int) -> Image.Image:
    """The icon at `size` px, drawn at 4x and scaled down (smooth edges)."""
    big = size * 4
    image = Image.new("RGB", (big, big), ACCENT)
    draw = ImageDraw.Draw(image)
    u = big / 32
    radius = round(2.2 * u)
    # The card behind, tilted by offset only (a rotation blurs at 16 px).
    draw.rounded_rectangle((6 * u, 4 * u, 22 * u, 26 * u), radius, fill=(248, 187, 208))
    draw.rounded_rectangle((10 * u, 7 * u, 26 * u, 29 * u), radius, fill=PAPER, outline=INK,
                           width=max(1, round(0.6 * u)))  # fmt: skip
    font = ImageFont.truetype(str(FONT), round(15 * u))
    draw.text((18 * u, 18 * u), "S", font=font, fill=ACCENT, anchor="mm")
    return image.resize((size, size), Image.LANCZOS)


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    picture(48).save(OUT / "favicon.ico", sizes=[(16, 16), (32, 32), (48, 48)])
    for name, size in (("apple-touch-icon.png", 180), ("icon-192.png", 192), ("icon-512.png", 512)):
        picture(size).save(OUT / name, optimize=True)
    for path in sorted(OUT.iterdir()):
        print(f"{path.name}: {path.stat().st_size} bytes")


if __name__ == "__main__":
    main()
