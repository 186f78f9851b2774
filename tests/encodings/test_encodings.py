"""Each rule file on tiny hand-written facts: the complete set of answer sets."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from helpers import ROOT, answer_sets

BASE = ROOT / "encodings" / "base"
VARIANTS = ROOT / "encodings" / "variants"

CELLS_2X2 = "cell(1,1). cell(1,2). cell(2,1). cell(2,2). row(1). row(2). column(1). column(2)."


def stars(*cells: str) -> frozenset[str]:
    """A set of star atoms from 'RC' strings, e.g. stars('11', '22')."""
    return frozenset(f"star({cell[0]},{cell[1]})" for cell in cells)


def kept_subsets(
    cells: list[tuple[int, int]], keep: Callable[[set[tuple[int, int]]], bool]
) -> tuple[set[frozenset[str]], int]:
    """The star sets of the subsets of `cells` that `keep` accepts, and how many subsets exist."""
    subsets = [
        {cell for bit, cell in enumerate(cells) if mask >> bit & 1}
        for mask in range(1 << len(cells))
    ]
    return {stars(*(f"{r}{c}" for r, c in chosen)) for chosen in subsets if keep(chosen)}, len(
        subsets
    )


SHOW_STARS = "#show star/2."


def test_domain_defines_rows_columns_and_unblocked_cells() -> None:
    facts = "size(2). region(1,1,a). region(1,2,a). region(2,1,b). blocked(2,2)."
    result = answer_sets([BASE / "domain.lp"], facts, "#show row/1. #show column/1. #show cell/2.")
    assert result == {
        frozenset(
            {"row(1)", "row(2)", "column(1)", "column(2)", "cell(1,1)", "cell(1,2)", "cell(2,1)"}
        )
    }


def test_choose_generates_every_subset_of_cells() -> None:
    result = answer_sets([BASE / "choose.lp"], "cell(1,1). cell(1,2).", SHOW_STARS)
    assert result == {stars(), stars("11"), stars("12"), stars("11", "12")}


def test_rows_demands_exactly_s_per_row() -> None:
    result = answer_sets(
        [BASE / "choose.lp", BASE / "rows.lp"], CELLS_2X2 + "stars(1).", SHOW_STARS
    )
    assert result == {stars("11", "21"), stars("11", "22"), stars("12", "21"), stars("12", "22")}


def test_columns_demands_exactly_s_per_column() -> None:
    result = answer_sets(
        [BASE / "choose.lp", BASE / "columns.lp"], CELLS_2X2 + "stars(1).", SHOW_STARS
    )
    assert result == {stars("11", "12"), stars("11", "22"), stars("21", "12"), stars("21", "22")}


def test_regions_demands_exactly_s_per_region() -> None:
    facts = CELLS_2X2 + "stars(1). region(1,1,a). region(1,2,b). region(2,1,b). region(2,2,b)."
    result = answer_sets([BASE / "choose.lp", BASE / "regions.lp"], facts, SHOW_STARS)
    assert result == {stars("11", "12"), stars("11", "21"), stars("11", "22")}


def test_regions_with_two_stars() -> None:
    facts = (
        "cell(1,1). cell(1,2). cell(1,3). stars(2). region(1,1,a). region(1,2,a). region(1,3,a)."
    )
    result = answer_sets([BASE / "choose.lp", BASE / "regions.lp"], facts, SHOW_STARS)
    assert result == {stars("11", "12"), stars("11", "13"), stars("12", "13")}


def test_notouch_allows_at_most_one_star_in_a_2x2_board() -> None:
    result = answer_sets([BASE / "choose.lp", BASE / "notouch.lp"], CELLS_2X2, SHOW_STARS)
    assert result == {stars(), stars("11"), stars("12"), stars("21"), stars("22")}


def test_notouch_allows_stars_two_apart() -> None:
    facts = "cell(1,1). cell(1,3). row(1). column(1..3)."
    result = answer_sets([BASE / "choose.lp", BASE / "notouch.lp"], facts, SHOW_STARS)
    assert result == {stars(), stars("11"), stars("13"), stars("11", "13")}


def band_boxes_filled(chosen: set[tuple[int, int]], size: int, stars: int) -> bool:
    """Independent statement of bands.lp: each two-row (two-column) band, cut into boxes of
    two columns (rows) from column 1 or from column 0, has at least 2S boxes with a star."""
    for first in range(1, size):
        for offset in (0, 1):
            rows = {(c + offset) // 2 for r, c in chosen if r in (first, first + 1)}
            columns = {(r + offset) // 2 for r, c in chosen if c in (first, first + 1)}
            if len(rows) < 2 * stars or len(columns) < 2 * stars:
                return False
    return True


@pytest.mark.parametrize("size", [3, 4])
@pytest.mark.parametrize("bands_from", [None, 1])
@pytest.mark.slow
def test_bands_keeps_exactly_the_subsets_whose_bands_fill_2s_boxes(
    size: int, bands_from: int | None
) -> None:
    stars_per_unit = 1  # with S = 2 a 4x4 band has only 3 boxes: nothing would be left
    cells = [(r, c) for r in range(1, size + 1) for c in range(1, size + 1)]
    facts = "".join(f"region({r},{c},a). " for r, c in cells) + f"size({size}). king_rule. "
    result = answer_sets(
        [BASE / "domain.lp", BASE / "choose.lp", BASE / "bands.lp"],
        facts + f"stars({stars_per_unit}).",
        SHOW_STARS,
        () if bands_from is None else ("-c", f"bands_from={bands_from}"),
    )
    applies = bands_from is not None  # by default the counts start at 4 stars
    expected, every = kept_subsets(
        cells, lambda chosen: not applies or band_boxes_filled(chosen, size, stars_per_unit)
    )
    assert result == expected
    assert len(expected) < every if applies else len(expected) == every


def test_bands_rest_on_the_king_rule_atom() -> None:
    """Without king_rule (a variant that lets stars touch), bands.lp removes nothing."""
    cells = [(r, c) for r in range(1, 4) for c in range(1, 4)]
    facts = "".join(f"region({r},{c},a). " for r, c in cells) + "size(3). stars(1)."
    result = answer_sets(
        [BASE / "domain.lp", BASE / "choose.lp", BASE / "bands.lp"],
        facts,
        SHOW_STARS,
        ("-c", "bands_from=1"),
    )
    assert len(result) == 1 << 9
    notouch = answer_sets(
        [BASE / "domain.lp", BASE / "choose.lp", BASE / "notouch.lp"], facts, "#show king_rule/0."
    )
    assert notouch == {frozenset({"king_rule"})}


def region_boxes_filled(chosen: set[tuple[int, int]], regions: dict, stars: int) -> bool:
    """Independent statement of boxes.lp: each region's stars, under each of the four cuttings
    into 2x2 boxes (rows and columns from 0 or 1), lie in at least S different boxes."""
    for label in set(regions.values()):
        inside = [(r, c) for r, c in chosen if regions[r, c] == label]
        for row_offset in (0, 1):
            for column_offset in (0, 1):
                boxes = {((r + row_offset) // 2, (c + column_offset) // 2) for r, c in inside}
                if len(boxes) < stars:
                    return False
    return True


@pytest.mark.parametrize(
    ("constants", "applies"),
    [
        ((), False),  # by default the counts start at 3 stars
        (("-c", "boxes_from=1"), True),
        (("-c", "boxes_from=1", "-c", "boxes_upto=1"), False),  # 2 stars: above boxes_upto
    ],
)
def test_boxes_keeps_exactly_the_subsets_whose_regions_fill_s_boxes(
    constants: tuple[str, ...], applies: bool
) -> None:
    cells = [(r, c) for r in range(1, 4) for c in range(1, 4)]
    regions = {cell: "a" if cell[1] < 3 else "b" for cell in cells}
    facts = "".join(f"region({r},{c},{regions[r, c]}). " for r, c in cells)
    result = answer_sets(
        [BASE / "domain.lp", BASE / "choose.lp", BASE / "boxes.lp"],
        facts + "stars(2). king_rule.",
        SHOW_STARS,
        constants,
    )
    expected, every = kept_subsets(
        cells, lambda chosen: not applies or region_boxes_filled(chosen, regions, 2)
    )
    assert result == expected
    assert len(expected) < every if applies else len(expected) == every


def test_boxes_rest_on_the_king_rule_atom() -> None:
    """Without king_rule (a variant that lets stars touch), boxes.lp removes nothing."""
    facts = "".join(f"region({r},{c},a). " for r in range(1, 3) for c in range(1, 3))
    result = answer_sets(
        [BASE / "domain.lp", BASE / "choose.lp", BASE / "boxes.lp"],
        facts + "stars(2).",
        SHOW_STARS,
        ("-c", "boxes_from=1"),
    )
    assert len(result) == 1 << 4


def test_the_host_applies_each_implied_count_file_by_star_count() -> None:
    from starbattle.asp.solver import program_files

    def implied(stars: int, *constants: str) -> list[str]:
        names = [Path(path).name for path in program_files(None, (), stars, constants)]
        return [name for name in names if name in ("bands.lp", "boxes.lp")]

    assert [implied(stars) for stars in range(1, 8)] == [
        [], [], ["boxes.lp"], ["bands.lp", "boxes.lp"], ["bands.lp", "boxes.lp"],
        ["bands.lp"], ["bands.lp"],
    ]  # fmt: skip
    assert implied(2, "boxes_from=2", "bands_from=2") == ["bands.lp", "boxes.lp"]
    assert implied(6, "boxes_upto=6") == ["bands.lp", "boxes.lp"]
    assert implied(3, "boxes_from=x") == ["boxes.lp"]  # not an integer: clingo will refuse it


@pytest.mark.parametrize("notouch", [True, False])
def test_explain_implied_region_counts_hold_while_region_and_notouch_are_active(
    notouch: bool,
) -> None:
    """encodings/explain/implied.lp: a region's box count holds only under its units."""
    cells = [(r, c) for r in range(1, 4) for c in range(1, 4)]
    regions = {cell: "a" if cell[1] < 3 else "b" for cell in cells}
    facts = "".join(f"region({r},{c},{regions[r, c]}). " for r, c in cells)
    facts += "stars(2). unit(region(a)). unit(region(b)). active(region(a)). active(region(b)). "
    result = answer_sets(
        [BASE / "domain.lp", BASE / "choose.lp", ROOT / "encodings" / "explain" / "implied.lp"],
        facts + ("active(notouch)." if notouch else ""),  # no size/1: no band counts
        SHOW_STARS,
        parts=("implied",),
    )
    expected, every = kept_subsets(
        cells, lambda chosen: not notouch or region_boxes_filled(chosen, regions, 2)
    )
    assert result == expected
    assert len(expected) < every if notouch else len(expected) == every


def test_explain_program_with_implied_counts_keeps_the_solution() -> None:
    """The explanation program with its implied part solves a 17x17 4-star puzzle alike."""
    from starbattle.asp.solver import Solver
    from starbattle.io.inputs import read_board

    board = read_board(str(ROOT / "instances" / "generated-17x17-4star.lp"))
    explain = str(ROOT / "encodings" / "explain.lp")
    implied = Solver(board, encoding=explain, parts=("implied",))
    assert list(implied.solutions(0)) == list(Solver(board).solutions(0))


def test_givens_force_stars_and_blanks() -> None:
    facts = "cell(1,1). cell(1,2). cell(1,3). given_star(1,1). given_blank(1,2)."
    result = answer_sets([BASE / "choose.lp", BASE / "givens.lp"], facts, SHOW_STARS)
    assert result == {stars("11"), stars("11", "13")}


def test_givens_without_givens_change_nothing() -> None:
    result = answer_sets([BASE / "choose.lp", BASE / "givens.lp"], "cell(1,1).", SHOW_STARS)
    assert result == {stars(), stars("11")}


def test_show_shows_only_stars() -> None:
    result = answer_sets([BASE / "show.lp"], "star(1,2). cell(1,2). size(3).")
    assert result == {stars("12")}


def test_default_program_solves_a_real_puzzle() -> None:
    result = answer_sets(
        [ROOT / "encodings" / "starbattle.lp"],
        (ROOT / "instances" / "pzprjs-6x6-1star.lp").read_text(),
    )
    assert result == {stars("12", "24", "36", "43", "55", "61")}


def variant_program(variant: str) -> list[Path]:
    """Choose plus the king rule replaced (or extended) by a variant, on a 3x3 grid."""
    files = [BASE / "domain.lp", BASE / "choose.lp", VARIANTS / f"{variant}.lp"]
    return files if variant != "torus" else [*files, BASE / "notouch.lp"]


GRID_3X3 = "size(3). " + " ".join(f"region({r},{c},a)." for r in (1, 2, 3) for c in (1, 2, 3))


@pytest.mark.parametrize("variant", ["notouch-windows", "orthogonal", "torus"])
def test_variant_pairs_of_stars(variant: str) -> None:
    pairs = {
        frozenset(answer)
        for answer in answer_sets(variant_program(variant), GRID_3X3, SHOW_STARS)
        if len(answer) == 2
    }
    expected = {
        # king rule: only pairs two apart in some direction
        "notouch-windows": {
            stars("11", "13"),
            stars("11", "31"),
            stars("11", "33"),
            stars("11", "32"),
            stars("11", "23"),
            stars("12", "31"),
            stars("12", "33"),
            stars("12", "32"),
            stars("13", "31"),
            stars("13", "33"),
            stars("13", "21"),
            stars("13", "32"),
            stars("21", "23"),
            stars("21", "33"),
            stars("23", "31"),
            stars("31", "33"),
        },
        # on a 3x3 torus every two cells touch
        "torus": set(),
    }
    if variant == "orthogonal":
        cells = [(r, c) for r in (1, 2, 3) for c in (1, 2, 3)]
        expected_pairs = {
            stars(f"{a[0]}{a[1]}", f"{b[0]}{b[1]}")
            for a in cells
            for b in cells
            if a < b and abs(a[0] - b[0]) + abs(a[1] - b[1]) > 1
        }
        assert pairs == expected_pairs
    else:
        assert pairs == expected[variant]
