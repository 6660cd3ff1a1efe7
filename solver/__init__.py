"""placesat: compile the placement rules of board games and puzzles into SAT and CP-SAT.

Installed as one package, ``placesat``, from the repository's folders: ``solver/`` is
``placesat`` itself (``placesat.core``, ``placesat.lixso``, ...), ``cli/`` is ``placesat.cli``.
Three floors, every import pointing down: ``placesat.cli`` -> ``placesat.<game>`` ->
``placesat.core``; importing ``placesat`` or a game loads no command line.
"""

__version__ = "0.1.0"
