"""Logi-Sticks: logic-gate pieces on a chess board carry TRUE/FALSE signals from the centre
stones to target stones at the players' edges.

Rooms as in every game package: ``model`` (position and its JSON), ``rules`` (the plain rule
engine), ``encode`` (completions as a formula), ``analyze`` (the queries), ``render``.
The rules as implemented are stated in ``seeds/logisticks.md``.
"""
