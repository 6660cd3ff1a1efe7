"""Lixso in a browser: one self-contained HTML page to play puzzles on, from disk.

The page's script, style sheet and template are files of this package (``play.js``,
``play.css``, ``play.html``), inlined when a page is written (:func:`page_html`), so the page
needs no network. Hints are the hint engine's steps (``solver/lixso/explain.py``), made when
the page is written (:func:`hint_steps`).
"""

from .page import PagePuzzle, hint_steps, page_html, prepare_in_worker, prepare_puzzle, scramble, unscramble

__all__ = ["PagePuzzle", "hint_steps", "page_html", "prepare_in_worker", "prepare_puzzle", "scramble", "unscramble"]
