"""The Lixso game's commands as a player meets them: options against the record, long
input lines in ``play-vs``, ``show`` on a pack, the solved line of play, the backends."""

from __future__ import annotations

import pytest

from .test_lixso_game_cli import GRID, one_line_error

NAMED = "# players: IS XO\n" + GRID.split("\n", 1)[1]


@pytest.mark.parametrize("command", [["show"], ["moves"], ["play", "@", "I r1c1 r1c2 r2c1"], ["bounds"], ["solve"], ["play-vs"]])
def test_every_command_refuses_players_that_disagree_with_the_file(run_cli, tmp_path, command):
    named = tmp_path / "named.txt"
    named.write_text(NAMED)
    args = [str(named) if word == "@" else word for word in command]
    if len(args) == 1:
        args.append(str(named))
    one_line_error(run_cli("lixso", "game", *args, "--players", "3"), "--players 3", "disagrees", "IS XO")
