"""Laido: stones on a hexagonal board of triangles; a group is worth its connection part (a
chordless path between two edge stones) minus the rest of it.

Rooms, as in every game package: ``model`` (positions, game records, JSON), ``rules`` (the plain
referee, no solver), ``encode`` (rules as SAT / CP-SAT constraints), ``score`` and ``reach``
(queries: encode, solve, decode, replay on ``rules``), ``render`` (text and SVG). The rules as
implemented, with every interpretation, are in ``seeds/laido.md``.
"""
