"""Proof files (placesat.core.proof) on a game small enough to solve by hand: a pile of
counters, each player takes 1 or 2, who takes the last counter wins.

Hand-worked facts: the player to move wins exactly when the pile is not a multiple of 3
(take the rest modulo 3; the other then faces a multiple of 3 again), and from a pile of n
the winner needs ceil(n / 3) own moves against every defence."""

from __future__ import annotations

import copy
import json

import pytest

from placesat.core.andor import replay_strategy
from placesat.core.errors import InputError
from placesat.core.play import Outcome
from placesat.core.proof import (
    PROOF_FORMAT,
    check_proof,
    header_mismatch,
    proof_document,
    proof_text,
    read_header,
)


class Pile:
    """Positions are (counters left, seat to move); moves are 1 or 2 counters taken."""

    def to_move(self, position):
        return position[1]

    def moves(self, position):
        return [take for take in (1, 2) if take <= position[0]]

    def play(self, position, take):
        assert take in self.moves(position)
        return (position[0] - take, 3 - position[1])

    def outcome(self, position):
        # the player who took the last counter is the one not to move now
        return Outcome(3 - position[1]) if position[0] == 0 else None


def text(take):
    return f"take {take}"


def winning_proof(pile: int, own_moves: int | None = None) -> dict:
    """Seat 1 to move on ``pile`` (not a multiple of 3): the strategy replayed and written."""
    bound = own_moves or -(-pile // 3)
    replayed = replay_strategy(Pile(), (pile, 1), 1, bound, lambda p: p[0] % 3 or None)
    return proof_document("pile", f"pile {pile}", 1, "first", bound, "last counter", "the last counter", replayed.tree, text)


def check(data, pile):
    header = read_header(data, "pile")
    refused = header_mismatch(header, "pile", f"pile {pile}", "first", "last counter", "the last counter")
    if refused is not None:
        return refused
    reached = lambda p: Pile().outcome(p) is not None and Pile().outcome(p).winner == 1  # noqa: E731
    return check_proof(Pile(), (pile, 1), header, 1, reached, lambda p, m: text(m))


@pytest.mark.parametrize("pile", [1, 2, 4, 5, 7, 8, 10, 11])
def test_every_winning_pile_has_a_valid_proof(pile):
    data = winning_proof(pile)
    verdict = check(json.loads(proof_text(data)), pile)
    assert verdict.valid, verdict.words()
    assert verdict.own_moves_used == -(-pile // 3)
    assert data["format"] == PROOF_FORMAT and data["claim"].startswith("first reaches the last counter within")


def test_equal_subtrees_are_written_once():
    # from 10: after take 1 the other faces 9; both its replies lead to winning piles whose
    # strategies end in the same few subtrees: one "reached" node serves every leaf
    data = winning_proof(10)
    nodes = data["nodes"]
    assert sum(1 for n in nodes if n.get("reached")) == 1
    assert all(child > i for i, n in enumerate(nodes) for child in
               ([n["then"]] if "then" in n else list(n.get("replies", {}).values())))


def test_a_bound_too_small_is_refused():
    data = winning_proof(7)  # needs 3 own moves
    data["own_moves"] = 2
    data["claim"] = data["claim"].replace("within 3 own moves", "within 2 own moves")
    verdict = check(data, 7)
    assert not verdict.valid and "own moves ran out" in verdict.reason


def test_a_missing_reply_is_named_with_where_it_is():
    data = winning_proof(4)  # take 1, then the other faces 3 and has two replies
    replies = data["nodes"][1]["replies"]
    del replies["take 2"]
    verdict = check(data, 4)
    assert not verdict.valid
    assert verdict.reason.startswith("the reply 'take 2' is missing") and verdict.where == "$.nodes[1].replies"
    assert verdict.line == ["take 1"]
    assert "after take 1" in verdict.words()


def test_an_illegal_or_losing_move_is_refused():
    data = winning_proof(4)
    data["nodes"][0]["move"] = "take 3"
    verdict = check(data, 4)
    assert not verdict.valid and verdict.reason == "the move 'take 3' is not legal here" and verdict.where == "$.nodes[0].move"
    data = winning_proof(4)
    data["nodes"][0]["move"] = "take 2"  # legal, but leaves 2: the file's answers no longer fit
    verdict = check(data, 4)
    assert not verdict.valid and verdict.reason == "the move 'take 2' is not legal here"
    assert verdict.line == ["take 2", "take 1"]  # 1 left: the answer written for 2 left cannot be played



def test_a_branch_that_loses_is_refused():
    # pile 2, seat 1 plays "take 1": the other takes the last counter; the file's "reached" is false
    data = winning_proof(2)
    data["nodes"] = [{"move": "take 1", "then": 1}, {"replies": {"take 1": 2}}, {"reached": True}]
    verdict = check(data, 2)
    assert not verdict.valid and verdict.reason == "the game is over without the goal" and verdict.line == ["take 1", "take 1"]


def test_a_truncated_branch_is_refused():
    data = winning_proof(5)
    # the first reply's subtree cut short: the file says the goal is reached where it is not
    first = data["nodes"][1]["replies"]["take 1"]
    data["nodes"][first] = {"reached": True}
    verdict = check(data, 5)
    assert not verdict.valid and verdict.reason == "the file says the goal is reached here, but it is not"
    assert verdict.where == f"$.nodes[{first}]" and verdict.line == ["take 2", "take 1"]


def test_another_game_or_position_or_claim_is_refused():
    data = winning_proof(4)
    other = dict(data, game="laido")
    assert check(other, 4).where == "$.game" and "a proof for laido, not for pile" in check(other, 4).reason
    assert check(data, 5).where == "$.root"
    assert check(dict(data, claim="first wins in 1"), 4).where == "$.claim"
    assert check(dict(data, target_name="second"), 4).where == "$.target_name"


@pytest.mark.parametrize(
    "change, where",
    [
        (lambda d: d.pop("nodes"), "$.nodes: missing"),
        (lambda d: d.update(format="zip"), "$.format: not a placesat proof"),
        (lambda d: d.update(version=2), "$.version: this placesat reads proofs of version 1"),
        (lambda d: d.update(own_moves="2"), "$.own_moves: must be an integer"),
        (lambda d: d["nodes"].__setitem__(0, {"move": "take 1", "then": 99}), "$.nodes[0].then: must be the index of a node"),
        (lambda d: d["nodes"].__setitem__(0, {"move": "take 1", "then": 0}), "$.nodes[0].then: a node's children come after it"),
        (lambda d: d["nodes"].__setitem__(0, {"replies": {}}), "$.nodes[0]: the target is to move here"),
        (lambda d: d["nodes"].__setitem__(1, ["take 1"]), "$.nodes[1]: a strategy node is a JSON object"),
    ],
)
def test_files_of_the_wrong_shape_are_bad_input_with_the_json_path(change, where):
    data = copy.deepcopy(winning_proof(4))
    change(data)
    with pytest.raises(InputError) as caught:
        check(data, 4)
    assert str(caught.value).startswith(where)
