"""placesat: compile the placement rules of board games and puzzles into SAT and CP-SAT.

Three floors, every import pointing down: ``cli`` -> ``solver.<game>`` -> ``solver.core``.
"""

__version__ = "0.1.0"
