"""The records Quarry's commands print with ``--json`` where the library's answer is not the
whole of it, built here once so that the command line and the Python API
(:mod:`placesat.quarry`) print the same."""

from __future__ import annotations

from typing import Any

from .forced import UNKNOWN as FORCED_UNKNOWN, WIN as FORCED_WIN
from .model import PLAYERS, Move, Position, cell_name, move_text, position_to_json
from .rules import State, line, placements, play, tournament_points
from .threats import threats


def moves_record(state: State, player: str, stones: tuple[str, ...] | None = None) -> dict[str, Any]:
    """``quarry moves --json``: the legal placements of ``player``, grouped by stone (each
    once), with the height each would rest at; ``stones``: only these stones."""
    grouped: dict[str, list[dict[str, Any]]] = {}
    for placement, base in placements(state, player, stones):
        grouped.setdefault(placement.stone, []).append({"move": placement.text(state.stones), "height": base})
    return {"player": player, "over": state.is_over, "moves": grouped}


def threats_record(state: State) -> dict[str, Any]:
    """``quarry threats --json``: every single stone that would win at once, for each player."""
    found = threats(state)
    return {"to_move": None if state.is_over else state.to_move,
            **{p: [{"move": m.text(state.stones), "height": b} for m, b in found[p]] for p in PLAYERS}}


def advice_record(state: State, advice) -> dict[str, Any]:
    """``quarry best --json``: the move the engine recommends for the player to move, and why."""
    return {"player": state.to_move, "move": move_text(advice.move, state.stones), "kind": advice.kind,
            "reason": advice.reason, "line": list(advice.line),
            "evaluation": advice.evaluation, "evaluation_name": advice.evaluation_name, "depth": advice.depth}


def status_words(state: State) -> str:
    """Who has won, or that the game is over, or who is to move, in words."""
    if state.winner is not None:
        return f"{state.winner} has won"
    if state.is_over:
        return "game over: neither player could move (no winner)"
    return f"{state.to_move} to move"


def state_record(state: State) -> dict[str, Any]:
    """``quarry show --json``: whose turn, the winner, each cell's height and top colour, the
    stones left, the tournament points and the winning line."""
    board = state.board
    rows = range(board.length)
    won = line(state, state.winner) if state.winner else None
    return {
        "to_move": None if state.is_over else state.to_move,
        "winner": state.winner,
        "over": state.is_over,
        "heights": [[state.height_at((r, c)) for c in range(board.width)] for r in rows],
        "top": [[state.top_at((r, c)) for c in range(board.width)] for r in rows],
        "left": {p: state.supply(p) for p in PLAYERS},
        "tournament_points": tournament_points(state),
        "line": [cell_name(cell) for cell in won] if won else None,
    }


def line_after(state: State, moves: list) -> tuple[State, list]:
    """The board after a line of play (through the rules), and who played what."""
    after = state
    laid = []
    for move in moves:
        laid.append((after.to_move, move))
        after = play(after, move)
    return after, laid


def forced_title(answer, state: State) -> str:
    """The question and the answer of ``quarry forced`` in one sentence."""
    who = answer.player
    asked = f"Can {who} force a line within {answer.moves} own move(s)?"
    if answer.answer == FORCED_WIN:
        if answer.within == 0:
            return f"{asked} Yes: {who} has won already."
        _, laid = line_after(state, answer.line)
        steps = ", ".join(f"{i}. {mover} {move_text(m, state.stones)}" for i, (mover, m) in enumerate(laid, 1))
        return f"{asked} Yes, within {answer.within}: {steps}"
    if answer.answer == FORCED_UNKNOWN:
        settled = f" (no forced win within {answer.no_win_within} own move(s) was settled before it)" if answer.no_win_within else ""
        # a win the search found but the rules did not replay in time is no yes
        why = answer.note or "the time limit came first"
        return f"{asked} Unknown: {why}{settled}."
    if state.is_over:
        return f"{asked} No: {status_words(state)}."
    other = PLAYERS[1] if who == PLAYERS[0] else PLAYERS[0]
    return f"{asked} No: {other} can stop it (searched in full)."


def forced_record(answer, state: State) -> dict[str, Any]:
    """``quarry forced --json``: the answer, with the question and the answer in one sentence."""
    return {**answer.to_json(state), "title": forced_title(answer, state)}


def played_record(player: str, move: Move, height: int | None, before: State, after: State, position: Position) -> dict[str, Any]:
    """``quarry play --json``: who played what, the height it rests at (None for a pass), the
    winner after it, and the position (the game record) with the move."""
    return {"player": player, "move": move_text(move, before.stones), "height": height, "winner": after.winner,
            "position": position_to_json(position)}
