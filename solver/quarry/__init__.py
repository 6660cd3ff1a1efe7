"""Quarry: Shaun R. Mather's stacking connection game. Stones of cubes are laid and stacked on a
10 x 9 board; a player wins when, seen from above, its colour joins one Quarry zone to the other.

Rooms, as in every game package: ``stones`` (the stone table), ``model`` (board, positions, moves,
JSON and text), ``rules`` (the plain referee, no solver), ``encode`` (one-sided building as SAT /
CP-SAT constraints), ``reach`` (cheapest wins: encode, solve, decode, order, replay on ``rules``),
``threats`` (one-move wins and blocks, by the rules alone), ``render`` (text and SVG). The rules
as implemented, with every interpretation, are in ``seeds/quarry.md``.
"""
