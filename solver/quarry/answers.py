"""The records Quarry's commands print with ``--json`` where the library's answer is not the
whole of it, built here once so that the command line and the Python API
(:mod:`placesat.quarry`) print the same."""

from __future__ import annotations

from typing import Any

from .forced import UNKNOWN as FORCED_UNKNOWN, WIN as FORCED_WIN
from .model import PLAYERS, Move, Position, cell_name, move_text, position_to_json
from .reach import POSSIBLE, Race
from .rules import State, lay, line, placements, play, tournament_points
from .stones import StoneSet, stones_to_json
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


def laid_after(state: State, player: str, placement, base: int) -> tuple[State, tuple]:
    """The position after ``player`` lays one stone, and the cells it covers."""
    after = state.copy()
    lay(after, player, placement, base)
    return after, after.laid[-1].cells


def block_title(state: State, who: str, other: str, now: list, found: list, legal: list) -> str:
    """The block question and its answer in one sentence, the first blocking move numbered (the
    one drawn), the others listed after it (at most eight)."""
    threat = f"{other}'s {len(now)} winning move(s)" if now else f"{other}'s every winning stone"
    if not found:
        return f"{who.capitalize()} cannot block {threat}" + ("" if legal else f": {who} cannot lay any stone")
    moves = [b.placement.text(state.stones) for b in found]
    more = f", and {len(moves) - 8} more" if len(moves) > 8 else ""
    others = f"; also {', '.join(moves[1:8])}{more}" if len(moves) > 1 else ""
    return f"{who.capitalize()} blocks {threat} with {len(moves)} move(s): 1. {moves[0]}{others}"


def block_record(state: State, who: str, now: list, found: list, legal: list) -> dict[str, Any]:
    """``quarry block --json``: the opponent's winning stones now, ``who``'s legal placements,
    the question and answer in a sentence, and each blocking move with the cells it covers.
    ``now``: the opponent's threats; ``found``: the blocks; ``legal``: every placement."""
    other = PLAYERS[1] if who == PLAYERS[0] else PLAYERS[0]
    return {"player": who, "opponent_threats": len(now), "legal": len(legal), "title": block_title(state, who, other, now, found, legal),
            "blocks": [{"move": b.placement.text(state.stones), "height": b.base, "wins": b.wins,
                        "cells": [cell_name(c) for c in laid_after(state, who, b.placement, b.base)[1]]} for b in found]}


def race_title(result: Race, lead: dict) -> str:
    """The race in one sentence: what each player needs at the fewest stones, and who is ahead."""
    needs = []
    for player, answer in result.fewest_stones.items():
        needs.append(f"{player} {answer.stones} stone(s)" if answer.answer == POSSIBLE else f"{player} {answer.answer}")
    verdict, ahead, by = lead["stones"]["verdict"], lead["stones"]["ahead"], lead["stones"]["by"]
    if verdict == "ahead":
        standing = f"{ahead} is ahead" + (f" by {by} stone(s)" if by is not None else "")
    else:
        standing = {"level": f"level, {result.to_move} to move", "neither": "neither can complete a line", "unknown": "unknown"}[verdict]
    return f"Race at the fewest stones: {', '.join(needs)}: {standing}"


def race_record(state: State, result: Race) -> dict[str, Any]:
    """``quarry race --json``: each player's cheapest win by stones and by points, who leads, in a sentence."""
    lead = result.lead()
    return {
        "to_move": None if state.is_over else state.to_move,
        "fewest_stones": {p: a.to_json(state) for p, a in result.fewest_stones.items()},
        "fewest_points": {p: a.to_json(state) for p, a in result.fewest_points.items()},
        "lead": lead,
        "title": race_title(result, lead),
    }


def stones_record(kinds: StoneSet, source: str, left: dict[str, dict[str, int]] | None = None) -> dict[str, Any]:
    """``quarry stones --json``: where the stones come from, and each stone's name, count,
    points, cubes and faces; ``left`` (a position's): how many each player has left."""
    listed = stones_to_json(kinds)
    for row, kind in zip(listed, kinds.kinds):
        row["cubes"] = kind.cubes
        if left is not None:
            row["left"] = {p: left[p][kind.name] for p in PLAYERS}
    return {"source": source, "stones": listed}
