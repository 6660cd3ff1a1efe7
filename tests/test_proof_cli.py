"""``forced --proof`` and ``check-proof`` of each game, through the installed command: the shipped
proofs of small boards are valid, tampered ones are refused with their reason and place, and a
proof written by ``forced`` is accepted by ``check-proof``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

PLACESAT = str(Path(sys.executable).with_name("placesat"))
GRIDS = Path(__file__).resolve().parent.parent / "grids"


def run(*args, stdin=None):
    return subprocess.run([PLACESAT, *map(str, args)], capture_output=True, text=True, input=stdin, timeout=120)


GROUPS = {"laido": ("laido",), "quarry": ("quarry",), "lixso-game": ("lixso", "game"), "logisticks": ("logisticks",), "lsd": ("lsd",)}


def shipped() -> list[tuple[tuple[str, ...], Path, Path, list[str]]]:
    """Every shipped proof, ``grids/GAME/proofs/STEM[-pN][-...].proof.json``, with its position
    ``grids/GAME/STEM.json`` (``.txt`` for the Lixso game, whose ``-pN`` names the players)."""
    found = []
    for folder, group in GROUPS.items():
        for proof in sorted((GRIDS / folder / "proofs").glob("*.proof.json")):
            name = proof.name.removesuffix(".proof.json")
            options: list[str] = []
            if folder == "lixso-game":
                stem, players = name.rsplit("-p", 1)
                position, options = GRIDS / folder / f"{stem}.txt", ["--players", players]
            else:
                position = GRIDS / folder / f"{name.split('-p')[0]}.json"
            found.append((group, position, proof, options))
    return found


@pytest.mark.parametrize("group, position, proof, options", shipped(), ids=[proof.name for _, _, proof, _ in shipped()])
def test_shipped_proofs_are_valid(group, position, proof, options):
    done = run(*group, "check-proof", position, proof, *options, "--json")
    assert done.returncode == 0, done.stdout + done.stderr
    verdict = json.loads(done.stdout)
    data = json.loads(proof.read_text())
    assert verdict["valid"] is True and verdict["claim"] == data["claim"]
    assert verdict["nodes"] == len(data["nodes"]) and verdict["positions"] >= verdict["nodes_used"] > 0
    assert 1 <= verdict["own_moves_used"] <= data["own_moves"]


def test_every_game_ships_proofs():
    assert {group for group, *_ in shipped()} == set(GROUPS.values())


def tampered(tmp_path, proof: str, change) -> Path:
    data = json.loads((GRIDS / proof).read_text())
    change(data)
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(data))
    return path


def first_replies(data) -> tuple[int, dict]:
    """The first node where the other side replies, and its replies."""
    index = next(i for i, node in enumerate(data["nodes"]) if "replies" in node)
    return index, data["nodes"][index]["replies"]


def test_laido_refuses_a_missing_reply(tmp_path):
    def change(data):
        index, replies = first_replies(data)
        del replies["swap"]

    done = run("laido", "check-proof", GRIDS / "laido/empty2.json", tampered(tmp_path, "laido/proofs/empty2.proof.json", change))
    assert done.returncode == 1
    assert done.stdout.startswith("invalid: $.nodes[1].replies: the reply 'swap' is missing") and "after 0,0" in done.stdout


def test_laido_refuses_an_illegal_move_and_a_truncated_branch(tmp_path):
    done = run("laido", "check-proof", GRIDS / "laido/empty2.json",
               tampered(tmp_path, "laido/proofs/empty2.proof.json", lambda d: d["nodes"][0].update(move="5,5")))
    assert done.returncode == 1 and done.stdout.startswith("invalid: $.nodes[0].move: the move '5,5' is not legal here at the root")

    def cut(data):
        index, replies = first_replies(data)
        data["nodes"][replies["pass"]] = {"reached": True}

    done = run("laido", "check-proof", GRIDS / "laido/empty2.json", tampered(tmp_path, "laido/proofs/empty2.proof.json", cut))
    assert done.returncode == 1 and "the file says the goal is reached here, but it is not after 0,0; pass" in done.stdout


def test_a_proof_of_another_game_or_position(tmp_path):
    done = run("laido", "check-proof", GRIDS / "laido/empty2.json", GRIDS / "quarry/proofs/smallest.proof.json")
    assert done.returncode == 1 and done.stdout.strip() == "invalid: $.game: a proof for quarry, not for laido at the root"
    other = tmp_path / "side3.json"
    other.write_text('{"size": 3, "moves": []}')
    done = run("laido", "check-proof", other, GRIDS / "laido/proofs/empty2.proof.json")
    assert done.returncode == 1 and "$.root: the proof starts from another position" in done.stdout


def test_bad_json_and_wrong_shapes_are_bad_input(tmp_path):
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": "placesat-proof", "nodes": [')
    done = run("quarry", "check-proof", GRIDS / "quarry/smallest.json", broken)
    assert done.returncode == 2 and done.stderr.startswith(f"placesat: error: {broken}:1:") and "malformed JSON" in done.stderr
    path = tampered(tmp_path, "quarry/proofs/smallest.proof.json", lambda d: d["nodes"][0].update(then="x"))
    done = run("quarry", "check-proof", GRIDS / "quarry/smallest.json", path)
    assert done.returncode == 2
    assert done.stderr.strip() == f"placesat: error: {path}: $.nodes[0].then: must be the index of a node (0 to 1), not \"x\""
    path = tampered(tmp_path, "quarry/proofs/smallest.proof.json", lambda d: d.pop("own_moves"))
    done = run("quarry", "check-proof", GRIDS / "quarry/smallest.json", path)
    assert done.returncode == 2 and "$.own_moves: missing" in done.stderr


def test_proof_from_standard_input():
    text = (GRIDS / "quarry/proofs/smallest.proof.json").read_text()
    done = run("quarry", "check-proof", GRIDS / "quarry/smallest.json", "-", stdin=text)
    assert done.returncode == 0 and done.stdout.startswith("valid: black reaches a completed line within 1 own move")


@pytest.mark.parametrize(
    "group, position, options",
    [
        (("laido",), "laido/empty2.json", ["-k", "3"]),
        (("quarry",), "quarry/smallest.json", ["-k", "2"]),
        (("lixso", "game"), "lixso-game/6x6-L3-1.txt", ["-k", "3"]),
        (("logisticks",), "logisticks/endgame-2.json", ["-k", "2", "--player", "2", "--score", "3"]),
        (("lsd",), "lsd/double-threat.json", ["-k", "2"]),
    ],
    ids=["laido", "quarry", "lixso", "logisticks", "lsd"],
)
def test_forced_proof_round_trip(tmp_path, group, position, options):
    proof = tmp_path / "proof.json"
    done = run(*group, "forced", GRIDS / position, *options, "--proof", proof, "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["answer"] == "win"
    data = json.loads(proof.read_text())
    assert data["format"] == "placesat-proof" and data["root"]
    done = run(*group, "check-proof", GRIDS / position, proof)
    assert done.returncode == 0 and done.stdout.startswith("valid: "), done.stdout + done.stderr


def test_no_proof_without_a_win(tmp_path):
    proof = tmp_path / "proof.json"
    done = run("laido", "forced", GRIDS / "laido/empty2.json", "-k", "2", "--proof", proof)
    assert done.returncode == 0 and done.stdout.startswith("no forced win")
    assert "no proof written to" in done.stderr and "'no forced win'" in done.stderr and not proof.exists()


def test_check_proof_past_its_time_limit_is_unknown():
    done = run("lixso", "game", "check-proof", GRIDS / "lixso-game/6x6-L4-2.txt",
               GRIDS / "lixso-game/proofs/6x6-L4-2-p2.proof.json", "--time-limit", "0.01", "--json")
    assert done.returncode == 1 and json.loads(done.stdout)["valid"] is None


def test_a_proof_goes_to_a_file_not_standard_output():
    done = run("quarry", "forced", GRIDS / "quarry/smallest.json", "-k", "1", "--proof", "-")
    assert done.returncode == 2 and "--proof must name a file" in done.stderr and not done.stdout


def test_a_logisticks_proof_of_a_higher_score_is_refused(tmp_path):
    # player 2 makes sure of 5 points in endgame-1, not of 6: the same strategy claimed for 6 fails
    def raise_the_score(data):
        data["goal"]["score"] = 6
        data["claim"] = data["claim"].replace("at least 5", "at least 6")

    path = tampered(tmp_path, "logisticks/proofs/endgame-1-p2-s5.proof.json", raise_the_score)
    done = run("logisticks", "check-proof", GRIDS / "logisticks/endgame-1.json", path)
    assert done.returncode == 1 and "the file says the goal is reached here, but it is not" in done.stdout
    path = tampered(tmp_path, "logisticks/proofs/endgame-1-p2-s5.proof.json", lambda d: d["goal"].update(score=0))
    done = run("logisticks", "check-proof", GRIDS / "logisticks/endgame-1.json", path)
    assert done.returncode == 2 and "$.goal.score: must be a whole number from 1, not 0" in done.stderr
