"""The grade's fit: weights and cut points from labelled puzzles, and how far to trust them.

Used by benchmarks/grade.py (`fit`): least squares of StarBattleLab's tier ranks on the grade's
terms (starbattle/logic/grade.py), cut points between tiers, and Spearman's rho with its
spread (bootstrap interval, cross-validation, random halves).
"""

from __future__ import annotations

import math

import numpy as np
from scipy.optimize import lsq_linear
from scipy.stats import spearmanr

from starbattle.logic.grade import pace, score_of, share
from starbattle.logic.registry import EFFORTS

SEED = 14
"""The seed of every random choice of the fit's checks."""

RISE = 0.01
"""The least a harder effort class adds to the score (so that a tier can tell them apart)."""
PACED = ("region",)
"""The effort classes whose amount is the trace's steps per row (`pace`), not the share of the
cells their steps decide: a region step's share said nothing of StarBattleLab's tiers (weight
0 when fitted), a long trace of basic and region steps did."""


def fit_weights(rows: list[dict]) -> dict[str, float]:
    """Least squares of the label rank on the terms: a harder class never scores less.

    The score at share 0 rises (by RISE at least) from each effort class to the next, and a
    share or pace never lowers it: the fit is made on steps (a term per class: needs that
    class or a harder one) and amounts (steps per row for PACED classes, shares for the
    others but basic, whose steps decide every cell left), each weighing 0 or more, then
    said per class. A PACED class's base is free: the grade keeps its score between the
    classes around it (`bounds`). Only the classes some fitted puzzle needs get weights
    (`terms` counts a class without them as the nearest easier one that has them).
    """
    seen = sorted({row["raw"]["effort"] for row in rows})
    amounts = [("pace" if EFFORTS[k] in PACED else "share", k) for k in seen]
    amounts = [(m, k) for m, k in amounts if k or m == "pace"]  # basic decides every cell
    amount_of = {"pace": pace, "share": share}
    design = np.array(
        [
            [1.0]
            + [float(row["raw"]["effort"] >= k) for k in seen[1:]]
            + [amount_of[m](row["raw"]) * float(row["raw"]["effort"] == k) for m, k in amounts]
            for row in rows
        ]
    )
    # a paced class's least comes from its pace: `bounds` keeps it above the easier class
    rises = [-np.inf if EFFORTS[k] in PACED else RISE for k in seen[1:]] + [0.0] * len(amounts)
    bounds = ([-np.inf, *rises], np.inf)
    y = np.array([row["label_rank"] for row in rows], dtype=float)
    solution = lsq_linear(design, y, bounds=bounds).x
    bases = np.cumsum(solution[: len(seen)])
    return {
        **{f"is_{EFFORTS[k]}": round(float(b), 4) for k, b in zip(seen, bases, strict=True)},
        **{
            f"{m}_{EFFORTS[k]}": round(float(w), 4)
            for (m, k), w in zip(amounts, solution[len(seen) :], strict=True)
        },
    }


def cross_validated(rows: list[dict], folds: int = 5, repeats: int = 4) -> float:
    """Mean Spearman's rho over folds of the rows, each scored by weights fitted on the rest."""
    ranks = np.array([row["label_rank"] for row in rows])
    rng, rhos = np.random.default_rng(SEED), []
    for _ in range(repeats):
        order = rng.permutation(len(rows))
        for k in range(folds):
            test = order[k::folds]
            weights = fit_weights([rows[i] for i in np.setdiff1d(order, test)])
            values = [score_of(rows[i]["raw"], weights) for i in test]
            rhos.append(spearmanr(values, ranks[test]).statistic)
    return float(np.mean(rhos))


def random_halves(rows: list[dict], times: int = 20) -> dict[str, list[float]]:
    """Spearman's rho on one half of the rows, weights fitted on the other, for `times` random
    halves (seed 14; each size, star count and label split evenly): 'all' and per size class.
    """
    groups: dict[tuple, list[int]] = {}
    for k, row in enumerate(rows):
        groups.setdefault((row["n"], row["stars"], row["label_rank"]), []).append(k)
    rng, rhos = np.random.default_rng(SEED), {}
    for _ in range(times):
        test = [k for group in groups.values() for k in rng.permutation(group)[len(group) // 2 :]]
        weights = fit_weights([rows[k] for k in sorted(set(range(len(rows))) - set(test))])
        by_size: dict[str, list[int]] = {"all": test}
        for k in test:
            by_size.setdefault(f"{rows[k]['n']}x{rows[k]['n']} {rows[k]['stars']}★", []).append(k)
        for name, members in by_size.items():
            ranks = [rows[k]["label_rank"] for k in members]
            if len(set(ranks)) > 1:
                values = [score_of(rows[k]["raw"], weights) for k in members]
                rhos.setdefault(name, []).append(float(spearmanr(values, ranks).statistic))
    return rhos


def fit_cuts(
    values: np.ndarray, ranks: np.ndarray, gentle: np.ndarray, machine: float
) -> tuple[float, ...]:
    """Cut points between ranks 0-1, 1-2, 2-3, then the expert 90th percentile (rounded down,
    so that the scores at it are extreme), at most `machine`.

    Each of the first three misplaces the fewest of the two ranks it parts, each rank's
    share counted (the ranks are not equally common).

    The expert cut lies above every `gentle` score (puzzles other sources label normal or
    easy), the extreme cut above the expert cut and at most the least score of a trace with
    a machine step (`machine`, rounded down): a clingo core or a chain too long to follow is
    beyond a person, extreme whatever the experts' scores.
    """
    cuts = []
    for low in range(3):
        lower, upper = values[ranks == low], values[ranks == low + 1]
        candidates = np.unique(np.concatenate([lower, upper]))
        errors = [(lower >= c).mean() + (upper < c).mean() for c in candidates]
        cuts.append(round(float(candidates[int(np.argmin(errors))]), 3))
    if len(gentle):
        cuts[2] = max(cuts[2], round(float(gentle.max()) + 0.001, 3))
    expert = math.floor(1000 * min(float(np.percentile(values[ranks == 3], 90)), machine)) / 1000
    cuts.append(max(expert, round(cuts[2] + 0.001, 3)))
    return tuple(sorted(cuts))


def rho_with_interval(scores: list[float], ranks: list[int]) -> tuple[float, float, float]:
    """Spearman's rho and its bootstrap 95% interval (1,000 resamples, seed 14)."""
    scores_, ranks_ = np.array(scores), np.array(ranks)
    rho = float(spearmanr(scores_, ranks_).statistic)
    rng, draws = np.random.default_rng(SEED), []
    for _ in range(1000):
        pick = rng.integers(0, len(scores_), len(scores_))
        if len(set(ranks_[pick])) > 1:
            draws.append(spearmanr(scores_[pick], ranks_[pick]).statistic)
    low, high = np.nanpercentile(draws, [2.5, 97.5])
    return rho, float(low), float(high)
