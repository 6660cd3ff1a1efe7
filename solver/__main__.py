"""``python -m placesat``: the ``placesat`` command."""

from placesat.cli.entry import main

main()
