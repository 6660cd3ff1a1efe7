"""Print & play sheets: puzzles on paper, as a PDF, with answer pages at the end if asked.

A page holds 1, 2, 4 or 6 puzzles. Each puzzle is drawn with its name and level above it;
clue cells show their colour with the letter on it, or in *symbols* mode the letter alone in
black on white (for colour-blind players and pen and paper, as the box suggests), and the
puzzle's frame takes the colour of its level (in symbols mode a plain frame and a "Level N"
label). Answer pages, smaller and many to a page, show each solution with its tiles
outlined. A puzzle page never shows an answer.

Drawn with reportlab's canvas: the grids are vector lines and the letters the standard
Helvetica font, so sheets print sharply at any size and need no embedded fonts.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from io import BytesIO

from .model import EMPTY, Grid
from .render import SVG_FILL, tile_ids

LEVEL_COLOURS = {
    1: "#2e9e4f",  # green: starter
    2: "#7cb342",
    3: "#f2b705",
    4: "#f57c00",
    5: "#d32f2f",
    6: "#6a1b9a",  # purple: very hard
}
"""Our choice of frame colour per level (the box colours its cards by level, but the rule text
does not say which colours): a ramp from green to red, then purple for the hardest."""

LAYOUTS = {1: (1, 1), 2: (1, 2), 4: (2, 2), 6: (2, 3)}
"""Puzzles per page -> (columns, rows)."""
ANSWER_LAYOUT = (3, 4)
PAPERS = ("a4", "letter")


@dataclass(frozen=True)
class SheetPuzzle:
    """One puzzle to print: the grid, its level (None when unknown) and its unique solution."""

    grid: Grid
    level: int | None
    solution: tuple[str, ...]


def _page_size(paper: str) -> tuple[float, float]:
    from reportlab.lib.pagesizes import A4, LETTER

    return {"a4": A4, "letter": LETTER}[paper]


RULES_FOOTER = (
    "Cover the grid with L-tiles (3 cells). A letter is the colour of the tile on it. "
    "Tiles of one colour never touch, not even at a corner. "
    "Each colour has a limited number of tiles."
)


def _creation_time(created: float | None) -> float:
    """``created`` seconds since the epoch; by default ``SOURCE_DATE_EPOCH`` when set (the
    reproducible-builds convention), else now."""
    if created is None:
        epoch = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
        created = float(epoch) if epoch.isdigit() else time.time()
    return created


def _creation_date(created: float | None) -> str:
    """A PDF date (``D:YYYYMMDDHHmmSS+00'00'``, UTC) for ``created`` (see :func:`_creation_time`)."""
    return time.strftime("D:%Y%m%d%H%M%S+00'00'", time.gmtime(_creation_time(created)))


def level_counts(puzzles: list[SheetPuzzle]) -> list[tuple[int | None, int]]:
    """How many puzzles of each level, easiest first (an unknown level last)."""
    counts: dict[int | None, int] = {}
    for puzzle in puzzles:
        counts[puzzle.level] = counts.get(puzzle.level, 0) + 1
    return sorted(counts.items(), key=lambda item: (item[0] is None, item[0] or 0))


def _label_size(cell: float) -> float:
    """The font size of the row and column numbers beside a grid of ``cell``-point cells."""
    return min(max(cell * 0.3, 4.5), 9.0)


def _fitted(pdf, text: str, font: str, size: float, room: float) -> str:
    """``text``, cut short with an ellipsis when it is wider than ``room`` points."""
    if pdf.stringWidth(text, font, size) <= room:
        return text
    while text and pdf.stringWidth(text + "\u2026", font, size) > room:
        text = text[:-1]
    return text + "\u2026"


def sheets_pdf(
    puzzles: list[SheetPuzzle],
    per_page: int = 4,
    symbols: bool = False,
    solutions: bool = False,
    paper: str = "a4",
    title: str | None = None,
    labels: bool = True,
    pack_name: str | None = None,
    created: float | None = None,
    creator: str = "placesat",
    cover: bool = False,
) -> bytes:
    """The PDF document: puzzle pages (``per_page`` puzzles each), then answer pages if asked.
    ``labels``: row numbers on the left and column numbers above each grid, from 1, as hints
    name cells (r2c7). The document's properties: its title (``title``, else "Lixso puzzles:
    ``pack_name``"), ``creator`` (the command gives "placesat <version>"), and ``created``
    (seconds since the epoch; by default ``SOURCE_DATE_EPOCH`` when set, else now) as its
    creation date, in UTC. Everything else is the same bytes for the same puzzles and options (reportlab's invariant
    mode: the document's ID is a digest of its content, not of the clock). ``cover``: a first
    page with the title, the pack, how many puzzles of which levels, and the date (``created``'s
    day, UTC); it has no page number, and the puzzle pages count from 1 after it."""
    from reportlab.lib.colors import HexColor, black, white
    from reportlab.lib.units import mm
    from reportlab.lib.utils import simpleSplit
    from reportlab.pdfgen.canvas import Canvas

    if per_page not in LAYOUTS:
        raise ValueError(f"per_page must be one of {sorted(LAYOUTS)}")
    width, height = _page_size(paper)
    buffer = BytesIO()
    pdf = Canvas(buffer, pagesize=(width, height), pageCompression=1, invariant=1)
    pdf.setTitle(title or ("Lixso puzzles: " + pack_name if pack_name else "Lixso puzzles"))
    pdf.setAuthor("placesat")
    pdf.setCreator(creator)
    pdf.setSubject("Lixso print & play sheets")
    # invariant mode dates every document 2000-01-01: the true date is written in its place
    stamp = _creation_date(created)
    pdf.setDateFormatter(lambda *_: stamp)
    margin = 14 * mm
    header = 12 * mm
    page_number = 0

    def page_header(kind: str) -> None:
        nonlocal page_number
        page_number += 1
        pdf.setFillColor(black)
        pdf.setFont("Helvetica-Bold", 13)
        pdf.drawString(margin, height - margin - 4 * mm, title or "Lixso")
        pdf.setFont("Helvetica", 9)
        pdf.drawRightString(width - margin, height - margin - 4 * mm, f"{kind} - page {page_number}")
        if kind == "puzzles":
            pdf.setFont("Helvetica", 7.5)
            # wrapped within the margins (on one line it ran to 2 mm from the paper's edge)
            rules = simpleSplit(RULES_FOOTER, "Helvetica", 7.5, width - 2 * margin)
            for number, line in enumerate(rules):
                pdf.drawString(margin, margin - 4 * mm - number * 3.2 * mm, line)

    def draw_grid(rows: tuple[str, ...], clues: tuple[str, ...], x: float, y: float, cell: float, answer: bool, frame) -> None:
        """A grid with its top-left corner at (x, y) in page coordinates (y grows upwards)."""
        rows_n, cols_n = len(rows), len(rows[0])
        for r in range(rows_n):
            for c in range(cols_n):
                letter = rows[r][c]
                left, top = x + c * cell, y - r * cell
                shown = letter != EMPTY and (answer or clues[r][c] != EMPTY)
                fill = HexColor(SVG_FILL[letter]) if shown and not symbols else white
                pdf.setFillColor(fill)
                pdf.setStrokeColor(HexColor("#9e9e9e"))
                pdf.setLineWidth(0.4)
                pdf.rect(left, top - cell, cell, cell, stroke=1, fill=1)
                if shown:
                    bold = clues[r][c] != EMPTY
                    light_text = not symbols and letter in ("X", "O")
                    pdf.setFillColor(white if light_text else black)
                    pdf.setFont("Helvetica-Bold" if bold else "Helvetica", cell * 0.52)
                    pdf.drawCentredString(left + cell / 2, top - cell * 0.69, letter)
        if answer:
            ids = tile_ids(rows)
            pdf.setStrokeColor(black)
            pdf.setLineWidth(max(cell * 0.08, 0.8))
            for r in range(rows_n):
                for c in range(cols_n):
                    left, top = x + c * cell, y - r * cell
                    if c + 1 < cols_n and ids[r][c] != ids[r][c + 1]:
                        pdf.line(left + cell, top, left + cell, top - cell)
                    if r + 1 < rows_n and ids[r][c] != ids[r + 1][c]:
                        pdf.line(left, top - cell, left + cell, top - cell)
        pdf.setStrokeColor(frame)
        pdf.setLineWidth(max(cell * 0.12, 1.2))
        pdf.rect(x, y - rows_n * cell, cols_n * cell, rows_n * cell, stroke=1, fill=0)
        if labels:
            size = _label_size(cell)
            pdf.setFillColor(HexColor("#555555"))
            pdf.setFont("Helvetica", size)
            for c in range(cols_n):
                pdf.drawCentredString(x + c * cell + cell / 2, y + size * 0.45, str(c + 1))
            for r in range(rows_n):
                pdf.drawRightString(x - size * 0.5, y - r * cell - cell / 2 - size * 0.35, str(r + 1))

    def lay_out(items: list[SheetPuzzle], columns: int, rows: int, answer: bool, kind: str, caption_size: float) -> None:
        top = height - margin - header
        usable_w = width - 2 * margin
        usable_h = top - margin
        slot_w, slot_h = usable_w / columns, usable_h / rows
        per = columns * rows
        for start in range(0, len(items), per):
            page_header(kind)
            for k, item in enumerate(items[start : start + per]):
                col, row = k % columns, k // columns
                grid = item.grid
                caption_h = caption_size * 2.2
                if labels:  # the column numbers sit between the caption and the grid
                    caption_h += _label_size(min(slot_w / grid.width, slot_h / grid.height)) * 1.4
                cell = min((slot_w - 8 * mm) / grid.width, (slot_h - caption_h - 8 * mm) / grid.height)
                grid_w, grid_h = cell * grid.width, cell * grid.height
                x0 = margin + col * slot_w + (slot_w - grid_w) / 2
                y_top = top - row * slot_h - caption_h - (slot_h - caption_h - grid_h - 6 * mm) / 2
                level = item.level
                frame = black if symbols or level is None else HexColor(LEVEL_COLOURS.get(level, "#000000"))
                pdf.setFillColor(black)
                pdf.setFont("Helvetica-Bold", caption_size)
                level_text = f"Level {level}" if level is not None else "Level ?"
                # the name left and the level right above the grid, over the slot's width when
                # the grid is narrower; a name that still does not fit is cut short
                gap = caption_size
                level_w = pdf.stringWidth(level_text, "Helvetica-Bold", caption_size)
                name = grid.label()
                span = max(grid_w, min(slot_w - 4 * mm, pdf.stringWidth(name, "Helvetica-Bold", caption_size) + gap + level_w))
                left = x0 + (grid_w - span) / 2
                name = _fitted(pdf, name, "Helvetica-Bold", caption_size, span - gap - level_w)
                above = y_top + caption_size * 0.6 + (_label_size(cell) * 1.4 if labels else 0)
                pdf.drawString(left, above, name)
                if not symbols and level is not None:
                    pdf.setFillColor(frame)
                pdf.drawRightString(left + span, above, level_text)
                if answer:
                    draw_grid(item.solution, grid.rows, x0, y_top, cell, True, black)
                else:
                    draw_grid(grid.rows, grid.rows, x0, y_top, cell, False, frame)
            pdf.showPage()

    def cover_page() -> None:
        middle = width / 2
        y = height * 0.72
        pdf.setFillColor(black)
        pdf.setFont("Helvetica-Bold", 34)
        pdf.drawCentredString(middle, y, _fitted(pdf, title or "Lixso", "Helvetica-Bold", 34, width - 2 * margin))
        y -= 12 * mm
        pdf.setFont("Helvetica", 14)
        pdf.drawCentredString(middle, y, _fitted(pdf, "Print & play puzzles" + (f": {pack_name}" if pack_name else ""), "Helvetica", 14, width - 2 * margin))
        y -= 20 * mm
        pdf.setFont("Helvetica-Bold", 18)
        count = len(puzzles)
        pdf.drawCentredString(middle, y, f"{count} puzzle{'s' if count != 1 else ''}" + (", answers at the end" if solutions else ""))
        y -= 14 * mm
        rows_of_levels = level_counts(puzzles)
        swatch = 6 * mm
        line_w = 62 * mm
        for level, number in rows_of_levels:
            left = middle - line_w / 2
            label = f"Level {level}" if level is not None else "Level unknown"
            if symbols or level is None:
                pdf.setStrokeColor(black)
                pdf.setFillColor(white)
            else:
                pdf.setStrokeColor(HexColor(LEVEL_COLOURS.get(level, "#000000")))
                pdf.setFillColor(HexColor(LEVEL_COLOURS.get(level, "#000000")))
            pdf.setLineWidth(1.2)
            pdf.rect(left, y - 1.5 * mm, swatch, swatch, stroke=1, fill=1)
            pdf.setFillColor(black)
            pdf.setFont("Helvetica", 13)
            pdf.drawString(left + swatch + 4 * mm, y, label)
            pdf.drawRightString(left + line_w, y, f"{number} puzzle{'s' if number != 1 else ''}")
            y -= 9 * mm
        y -= 10 * mm
        pdf.setFont("Helvetica", 10)
        for line in simpleSplit(RULES_FOOTER, "Helvetica", 10, width - 6 * margin):
            pdf.drawCentredString(middle, y, line)
            y -= 5 * mm
        pdf.setFont("Helvetica", 11)
        made = time.strftime("%Y-%m-%d", time.gmtime(_creation_time(created)))
        pdf.drawCentredString(middle, margin + 8 * mm, f"made {made} with {creator}")
        pdf.showPage()

    if cover:
        cover_page()
    columns, rows = LAYOUTS[per_page]
    lay_out(puzzles, columns, rows, answer=False, kind="puzzles", caption_size=11 if per_page <= 2 else 9.5)
    if solutions:
        lay_out(puzzles, *ANSWER_LAYOUT, answer=True, kind="answers", caption_size=7.5)
    pdf.save()
    return buffer.getvalue()
