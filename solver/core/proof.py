"""Proof files: a forced win written down, and a checker that replays it on the plain rules alone.

A *proof* says that one seat (the *target*) reaches its goal within ``own_moves`` of its own
moves from a root position, whatever every other seat plays, and holds the strategy that does
it: the target's move at each of its turns, and at every other seat's turn a continuation for
*every* legal reply. :func:`proof_document` writes a replayed strategy
(:class:`placesat.core.andor.StrategyNode`) as such a file; :func:`check_proof` reads one back
and replays it on the game's rule engine, trusting nothing of the search that found it.

The file is one JSON object::

    {"format": "placesat-proof", "version": 1, "game": "laido",
     "root": "<the root position in the game's own file format>",
     "target": 1, "target_name": "black", "own_moves": 3, "goal": {...},
     "claim": "black wins within 3 own moves",
     "nodes": [{"move": "0,0", "then": 1}, {"replies": {"0,-1": 2, "1,0": 3}}, {"reached": true}, ...]}

The strategy is a list of nodes, the root's first; a node names its children by their index
in the list, always a later one (so the file cannot loop). Equal subtrees are written once
(the same node answers wherever the same continuation wins), which keeps files small: the
tree is a DAG. A node is ``{"reached": true}`` (the goal holds here), ``{"move": TEXT,
"then": I}`` (the target plays the move) or ``{"replies": {TEXT: I, ...}}`` (another seat
is to move: one entry for every legal reply). Moves are written as the game's players type
them; ``goal`` is the game's own statement of what counts as reached (the game reads it).

Structural faults (not JSON, a missing key, a wrong type, an index out of range) are bad
input: :class:`placesat.core.errors.InputError` with the JSON path. A proof that does not
hold on the rules (an illegal move, a reply left out, a goal not reached within the bound,
another game or position) gives a :class:`ProofVerdict` that is not valid, with the reason,
the JSON path and the line of play that leads there.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Callable, Hashable

from .andor import StrategyNode
from .errors import InputError
from .inputs import expect_int, expect_str, json_path, shown
from .limits import Deadline

PROOF_FORMAT = "placesat-proof"
PROOF_VERSION = 1


def claim_words(target_name: str, own_moves: int, goal_words: str) -> str:
    """The claim of a proof in one sentence: "black reaches a decided win within 3 own moves"."""
    return f"{target_name} reaches {goal_words} within {own_moves} own move{'' if own_moves == 1 else 's'}, whatever the others play"


def strategy_nodes(tree: StrategyNode, text: Callable[[Any], str]) -> list[dict[str, Any]]:
    """The strategy tree as the file's list of nodes, the root's first, each child after its
    parent, equal subtrees once (built bottom-up, each node looked up by its written form)."""
    made: dict[str, int] = {}
    written: list[dict[str, Any]] = []  # children before parents; reversed below
    done: dict[int, int] = {}  # id(StrategyNode) -> its index in ``written``

    def index_of(node: StrategyNode) -> int:
        known = done.get(id(node))
        if known is not None:
            return known
        if node.reached:
            form: dict[str, Any] = {"reached": True}
        elif node.move is not None:
            if node.then is None:
                raise ValueError("a strategy node with a move and nothing after it")
            form = {"move": text(node.move), "then": index_of(node.then)}
        else:
            form = {"replies": {text(reply): index_of(after) for reply, after in node.replies}}
        signature = json.dumps(form, sort_keys=True)
        index = made.get(signature)
        if index is None:
            index = made[signature] = len(written)
            written.append(form)
        done[id(node)] = index
        return index

    index_of(tree)
    last = len(written) - 1

    def renumbered(form: dict[str, Any]) -> dict[str, Any]:
        if "then" in form:
            return {"move": form["move"], "then": last - form["then"]}
        if "replies" in form:
            return {"replies": {reply: last - index for reply, index in form["replies"].items()}}
        return form

    return [renumbered(form) for form in reversed(written)]


def proof_document(
    game: str,
    root_text: str,
    target: int,
    target_name: str,
    own_moves: int,
    goal: Any,
    goal_words: str,
    tree: StrategyNode,
    text: Callable[[Any], str],
) -> dict[str, Any]:
    """A proof file's JSON object (see the module docstring) for a replayed strategy: ``target``
    (a seat, from 1, as the game's checker counts them) reaches ``goal`` within ``own_moves``
    of its own moves from the position whose save text is ``root_text``; moves written by
    ``text(move)`` (the game's move text, which its checker reads back)."""
    return {
        "format": PROOF_FORMAT,
        "version": PROOF_VERSION,
        "game": game,
        "root": root_text,
        "target": target,
        "target_name": target_name,
        "own_moves": own_moves,
        "goal": goal,
        "claim": claim_words(target_name, own_moves, goal_words),
        "nodes": strategy_nodes(tree, text),
    }


def proof_text(document: dict[str, Any]) -> str:
    """The proof as the file holds it: one node a line, so a diff or a reader can follow it."""
    head = {key: value for key, value in document.items() if key != "nodes"}
    lines = [json.dumps(head, separators=(",", ":"))[:-1] + ',"nodes":[']
    nodes = document["nodes"]
    for i, node in enumerate(nodes):
        lines.append(json.dumps(node, separators=(",", ":")) + ("," if i < len(nodes) - 1 else ""))
    lines.append("]}")
    return "\n".join(lines) + "\n"


@dataclass(frozen=True)
class ProofHeader:
    """A proof file's fields, checked for shape (not yet against any position)."""

    game: str
    root: str
    target: int
    target_name: str
    own_moves: int
    goal: Any
    claim: str
    nodes: list


def read_header(data: Any, game: str, most_own_moves: int = 10_000) -> ProofHeader:
    """The header of a decoded proof file, its shape checked: ``InputError`` with the JSON path
    of the first bad field (bad input, exit 2). The node list's entries are checked as they are
    replayed (:func:`check_proof`)."""
    if not isinstance(data, dict):
        raise InputError(f"$: a proof is a JSON object, not {shown(data)}")
    for key in ("format", "version", "game", "root", "target", "target_name", "own_moves", "goal", "claim", "nodes"):
        if key not in data:
            raise InputError(f"$.{key}: missing (a proof file has format, version, game, root, target, target_name, own_moves, goal, claim, nodes)")
    if data["format"] != PROOF_FORMAT:
        raise InputError(f"$.format: not a placesat proof ({shown(data['format'])}; expected {json.dumps(PROOF_FORMAT)})")
    version = expect_int(data["version"], "$.version")
    if version != PROOF_VERSION:
        raise InputError(f"$.version: this placesat reads proofs of version {PROOF_VERSION}, not {version}")
    nodes = data["nodes"]
    if not isinstance(nodes, list) or not nodes:
        raise InputError(f"$.nodes: must be a non-empty list of strategy nodes, not {shown(nodes)}")
    return ProofHeader(
        game=expect_str(data["game"], "$.game"),
        root=expect_str(data["root"], "$.root"),
        target=expect_int(data["target"], "$.target", 1, 64),
        target_name=expect_str(data["target_name"], "$.target_name"),
        own_moves=expect_int(data["own_moves"], "$.own_moves", 0, most_own_moves),
        goal=data["goal"],
        claim=expect_str(data["claim"], "$.claim"),
        nodes=nodes,
    )


@dataclass
class ProofVerdict:
    """What :func:`check_proof` found: ``valid``, or the ``reason`` it is not, at ``where`` (the
    JSON path of the node) after ``line`` (the moves from the root, as written in the file).
    ``positions``: the positions replayed (each node once per position it is met at);
    ``nodes``: the file's nodes; ``nodes_used``: those the replay reached; ``own_moves_used``:
    the most own moves any branch needed."""

    valid: bool
    claim: str
    reason: str = ""
    where: str = ""
    line: list[str] = field(default_factory=list)
    positions: int = 0
    nodes: int = 0
    nodes_used: int = 0
    own_moves_used: int = 0

    def words(self) -> str:
        """The verdict in one line."""
        if self.valid:
            return (f"valid: {self.claim} ({self.positions} positions replayed on the rules, "
                    f"{self.nodes} strategy nodes, at most {self.own_moves_used} own moves needed)")
        after = f" after {'; '.join(self.line)}" if self.line else " at the root"
        return f"invalid: {self.where}: {self.reason}{after}"

    def to_json(self) -> dict[str, Any]:
        """The verdict as ``check-proof --json`` prints it."""
        return {
            "valid": self.valid,
            "claim": self.claim,
            "reason": self.reason or None,
            "where": self.where or None,
            "line": self.line,
            "positions": self.positions,
            "nodes": self.nodes,
            "nodes_used": self.nodes_used,
            "own_moves_used": self.own_moves_used,
        }


class _Refuted(Exception):
    def __init__(self, reason: str, where: str, line: list[str]) -> None:
        super().__init__(reason)
        self.reason, self.where, self.line = reason, where, line


def refuse(header: ProofHeader, reason: str, where: str) -> ProofVerdict:
    """An invalid verdict found before the replay (another game, another position, a goal
    the game does not know)."""
    return ProofVerdict(False, header.claim, reason, where, nodes=len(header.nodes))


def header_mismatch(header: ProofHeader, game: str, root_text: str, target_name: str | None, goal: Any,
                    goal_words: str) -> ProofVerdict | None:
    """An invalid verdict when a proof's header is not about this game, this position (its save
    text ``root_text``), this target (``target_name``: None when the seat does not exist) and
    this goal, or when its claim does not say what its fields do; None when all agree."""
    if header.game != game:
        return refuse(header, f"a proof for {header.game}, not for {game}", "$.game")
    if header.root.strip() != root_text.strip():
        return refuse(header, "the proof starts from another position than the one given", "$.root")
    if target_name is None:
        return refuse(header, f"there is no seat {header.target} in this game", "$.target")
    if header.target_name != target_name:
        return refuse(header, f"seat {header.target} is {target_name}, not {header.target_name}", "$.target_name")
    if header.goal != goal:
        return refuse(header, f"the goal {shown(header.goal)} is not this game's ({shown(goal)})", "$.goal")
    expected = claim_words(target_name, header.own_moves, goal_words)
    if header.claim != expected:
        return refuse(header, f"the claim does not say what the proof's fields do (expected {expected!r})", "$.claim")
    return None


def check_proof(
    rules,
    root,
    header: ProofHeader,
    target: int,
    reached: Callable[[Any], bool],
    move_text: Callable[[Any, Any], str],
    key: Callable[[Any], Hashable] | None = None,
    deadline: Deadline | None = None,
) -> ProofVerdict:
    """Replay a proof's strategy on the plain rules from ``root``, against every reply.

    ``rules`` gives ``to_move``, ``moves``, ``play`` and ``outcome`` (a
    :class:`placesat.core.play.Playable`, or a view of one, as the game's replay used);
    ``target`` is the seat, from 1, that the strategy plays; ``reached(position)`` the game's
    goal; ``move_text(position, move)`` a legal move as the file writes it. At the target's
    turns the file's move must be one of the legal moves; at every other seat's turn the file
    must give a continuation for each legal reply and for nothing else; every branch must end
    in a position where the goal holds before the target has played more than
    ``header.own_moves`` moves, without the game ending first. A node met again at a position
    equal by ``key`` (default: the position itself) with as many own moves left is replayed
    once. Raises ``InputError`` (with the JSON path) for a node of the wrong shape, and
    :class:`placesat.core.limits.TimeUp` when ``deadline`` comes first.
    """
    deadline = deadline or Deadline.never()
    nodes = header.nodes
    proven: set = set()
    used: set[int] = set()
    counts = {"positions": 0, "deepest": 0}

    def node_at(index: Any, where: str, parent: int) -> int:
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(nodes):
            raise InputError(f"{where}: must be the index of a node (0 to {len(nodes) - 1}), not {shown(index)}")
        if index <= parent:
            raise InputError(f"{where}: a node's children come after it in $.nodes (index above {parent}), not {index}")
        return index

    def walk(position, index: int, left: int, line: list[str]) -> None:
        deadline.check()
        where = f"$.nodes[{index}]"
        node = nodes[index]
        if not isinstance(node, dict):
            raise InputError(f"{where}: a strategy node is a JSON object, not {shown(node)}")
        try:
            memo = (index, position if key is None else key(position), left)
            hash(memo)
        except TypeError:
            memo = None
        if memo is not None and memo in proven:
            return
        used.add(index)
        counts["positions"] += 1
        spent = header.own_moves - left
        if reached(position):
            counts["deepest"] = max(counts["deepest"], spent)
        elif rules.outcome(position) is not None:
            raise _Refuted("the game is over without the goal", where, line)
        elif node.get("reached") is True:
            raise _Refuted("the file says the goal is reached here, but it is not", where, line)
        else:
            legal = list(rules.moves(position))
            texts = {move_text(position, move): move for move in legal}
            if rules.to_move(position) == target:
                if "move" not in node or "then" not in node:
                    raise InputError(f"{where}: the target is to move here: the node needs \"move\" and \"then\", not {shown(node)}")
                written = expect_str(node["move"], json_path(where, "move"))
                if left <= 0:
                    raise _Refuted(f"the {header.own_moves} own moves ran out before the goal", where, line)
                if written not in texts:
                    raise _Refuted(f"the move {written!r} is not legal here", json_path(where, "move"), line)
                after = node_at(node["then"], json_path(where, "then"), index)
                walk(rules.play(position, texts[written]), after, left - 1, line + [written])
            else:
                replies = node.get("replies")
                if not isinstance(replies, dict):
                    raise InputError(f"{where}: another seat is to move here: the node needs \"replies\" (an object), not {shown(node)}")
                for written in replies:
                    if written not in texts:
                        raise _Refuted(f"{written!r} is not a legal reply here", json_path(where, "replies"), line)
                for text, move in texts.items():
                    if text not in replies:
                        raise _Refuted(f"the reply {text!r} is missing ({len(texts)} legal replies, {len(replies)} given)",
                                       json_path(where, "replies"), line)
                    after = node_at(replies[text], f"{where}.replies[{json.dumps(text)}]", index)
                    walk(rules.play(position, move), after, left, line + [text])
        if memo is not None:
            proven.add(memo)

    try:
        node_at(0, "$.nodes", -1)
        walk(root, 0, header.own_moves, [])
    except _Refuted as refuted:
        return ProofVerdict(False, header.claim, refuted.reason, refuted.where, refuted.line,
                            counts["positions"], len(nodes), len(used))
    return ProofVerdict(True, header.claim, positions=counts["positions"], nodes=len(nodes), nodes_used=len(used),
                        own_moves_used=counts["deepest"])


__all__ = [
    "PROOF_FORMAT", "PROOF_VERSION", "ProofHeader", "ProofVerdict", "check_proof", "claim_words", "header_mismatch",
    "proof_document", "proof_text", "read_header", "refuse", "strategy_nodes",
]
