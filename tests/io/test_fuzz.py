"""Every reader, fed anything, gives a Board or a StarBattleError: never another exception."""

from __future__ import annotations

import random
import warnings
from pathlib import Path

import pytest
from fuzzing import mutate
from helpers import INSTANCES
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from starbattle import Board, StarBattleError, read_board, write_board
from starbattle.io.formats.answer import read_answer
from starbattle.io.inputs import READERS, TEXT_WRITERS, parse_board, records

SEEDS = [
    write_board(read_board(str(INSTANCES / name)), fmt)
    for name in ("pzprjs-6x6-1star.lp", "generated-10x10-2star.lp", "norvig-5x5-given.lp")
    for fmt in TEXT_WRITERS
    if not (fmt in ("url", "sbn", "pzprv3") and "given" in name)
]


def outcome(read: object, text: str) -> None:
    """Call a reader; anything but a Board or a StarBattleError fails the test."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # SBN notes about ignored annotations
        try:
            result = read(text)  # type: ignore[operator]
        except StarBattleError as error:
            assert str(error)  # a message to show
            return
    assert isinstance(result, Board | list)


READ = {
    name: (lambda text, reader=reader: reader(text, name="fuzz"))
    for name, reader in READERS.items()
}
READ["auto"] = lambda text: parse_board(text, name="fuzz")
READ["answer"] = lambda text: read_answer(text, 6, name="fuzz")


@pytest.mark.parametrize("reader", list(READ))
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=st.text(max_size=400))
def test_arbitrary_text(reader: str, text: str) -> None:
    outcome(READ[reader], text)


@pytest.mark.parametrize("reader", list(READ))
@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32), rounds=st.integers(1, 4), base=st.sampled_from(SEEDS))
def test_mutated_valid_inputs(reader: str, seed: int, rounds: int, base: str) -> None:
    outcome(READ[reader], mutate(base, random.Random(seed), rounds))


@settings(max_examples=100, deadline=None)
@given(data=st.binary(max_size=300))
def test_arbitrary_bytes_through_a_file(
    tmp_path_factory: pytest.TempPathFactory, data: bytes
) -> None:
    path = Path(tmp_path_factory.mktemp("fuzz")) / "input"
    path.write_bytes(data)
    outcome(lambda _: [record.board() for record in records(str(path))], "")


@pytest.mark.parametrize(
    "text",
    [
        "[" * 100_000,
        '{"stars": 1, "regions": ' + "[" * 50_000 + "]" * 50_000 + "}",
        "size(" + "9" * 5000 + ").",
        "stars: " + "9" * 5000 + "\nA",
        "https://puzz.link/p?starbattle/" + "9" * 400 + "/6/1/00",
        "pzprv3/starbattle/" + "9" * 400 + "/6/1/6/",
        "\x00" * 1000,
        "size(²).",
        '{"stars": ' + "9" * 5000 + ', "regions": ["A"]}',
        "stars: ²\nA",
        "https://puzz.link/p?starbattle/²/6/1/00",
        "pzprv3/starbattle/²/6/1/6/",
        "A\u0301B\u0301\nB\u0301A\u0301",
    ],
)
def test_pathological_inputs(text: str) -> None:
    outcome(READ["auto"], text)
