"""LSD (Linearity, Simplicity, Duality): square tiles with half dots and capturing icons on an
unbounded grid; four tiles of one's own colour in a row win (three with four players).

Rooms, as in every game package: ``model`` (tiles, positions, game records, the JSON and move
formats), ``rules`` (the plain referee, no solver), ``encode`` (bounded model checking of the
rules as SAT / CP-SAT constraints), ``reach`` and ``forced`` (queries: encode or search, solve,
decode, replay on ``rules``), ``search`` (a game-independent AND/OR search), ``render`` (text
and SVG). The rules as implemented, with every interpretation, are in ``seeds/lsd.md``.
"""
