"""The Lixso strategic game for 2 or 4 players (and 3), played on a Lixso grid.

The rooms, as in every game package:

- ``model``: positions (game records) and their text and JSON formats, players, moves;
- ``rules``: the plain rule engine, without any solver: the referee that names a broken
  rule, and the fast bit-set engine the search runs on (each checks the other in the tests);
- ``encode``: the tile sets one side can still lay, as constraints (through the backend);
- ``bounds``: the query on them: most and sure tiles per side, who can still win;
- ``search``: a game-tree search that knows nothing of Lixso (alpha-beta, transposition
  table, bounds as cut-offs, deadline), so that another game could use it;
- ``solve``: Lixso for that search, and the query: the value with perfect play and a move;
- ``render``: the board as text, in colour, and as SVG.

The rules as implemented are stated in ``seeds/lixso.md`` ("The strategic game").
"""

GAME_BACKEND = "sat"
"""The backend of every game command that has one (bounds; solve and play-vs, whose root
bounds use it). Measured per command (benchmarks/lixso_game_bench.py backends, median CPU
of 5 runs on 9x9 positions where a solver has work to do): bounds 0.002-0.06 s with sat
against 0.009-0.046 s with cpsat, sat the faster on 14 of 15 positions; solve and play-vs
alike (their search does not depend on the backend); and cpsat adds OR-Tools' import."""
