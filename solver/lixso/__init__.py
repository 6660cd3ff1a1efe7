"""Lixso: cover a grid with L-tiles of four colours; tiles of one colour never touch.

Rooms, as in every game package: ``model`` (grids, packs, puzzle IDs), ``rules`` (the plain
checker, no solver), ``encode`` (rules as SAT / CP-SAT constraints), the queries ``solve``,
``deduce`` (levels and grading), ``explain`` (hints in words), ``generate``, ``verify`` and
``certify``, and ``render`` / ``sheets`` (terminal, SVG, printed PDF). The rules as
implemented, with every interpretation, are in ``seeds/lixso.md``.
"""
