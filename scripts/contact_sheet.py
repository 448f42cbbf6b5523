"""Write the contact sheet's index: one HTML page showing every screenshot in a folder,
grouped by what precedes the size in its name (``make screenshots``).

Usage: python scripts/contact_sheet.py build/screenshots
"""

import html
import sys
from pathlib import Path


def index(folder: Path) -> Path:
    shots = sorted(folder.glob("*.png"))
    rows = []
    for shot in shots:
        name = html.escape(shot.stem)
        rows.append(
            f'<figure><a href="{html.escape(shot.name)}"><img src="{html.escape(shot.name)}" '
            f'alt="{name}" loading="lazy"></a><figcaption>{name}</figcaption></figure>'
        )
    page = folder / "index.html"
    page.write_text(
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        "<title>Contact sheet: every screen</title><style>"
        "body{font:14px sans-serif;background:#222;color:#eee;margin:1rem}"
        "main{display:grid;grid-template-columns:repeat(auto-fill,minmax(320px,1fr));gap:1rem}"
        "figure{margin:0}img{width:100%;border:1px solid #555}"
        "figcaption{word-break:break-all}a{color:#eee}</style></head><body>"
        f"<h1>Every screen ({len(shots)} screenshots)</h1><main>\n"
        + "\n".join(rows)
        + "\n</main></body></html>\n",
        encoding="utf-8",
    )
    return page


if __name__ == "__main__":
    folder = Path(sys.argv[1] if len(sys.argv) > 1 else "build/screenshots")
    print(f"contact sheet: {index(folder)}")
