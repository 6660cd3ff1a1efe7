"""The ``placesat`` command line: parses arguments, calls ``solver``, prints. No rule logic here."""
