"""等級分: the rating is OpenSkill's Plackett–Luce update (issue 18 "a rating separate from jade …
OpenSkill's Plackett–Luce"), checked against the model's equations written out here (Weng & Lin
2011, Algorithm 4, with openskill's defaults: β = 25/6, γ = σ/c, κ = 0.0001) and against numbers
worked by hand for four newcomers. openskill 6 adds τ² = (25/300)² to each σ² before the update
(so a rating never freezes) and moves tied players' μ by their mean change; the reference does
the same."""

from __future__ import annotations

import math

import pytest

from hkmahjong.parlor.rating import MU, SIGMA, Rating, RatingError, rate, subject_of

BETA = 25 / 6
KAPPA = 0.0001
TAU = 25 / 300


def reference(ratings: list[Rating], ranks: list[int]) -> list[Rating]:
    """Plackett–Luce for one-player teams, straight from the paper (ranks: 1 = best)."""
    ratings = [Rating(r.mu, math.sqrt(r.sigma**2 + TAU**2)) for r in ratings]
    c = math.sqrt(sum(r.sigma**2 + BETA**2 for r in ratings))
    e = [math.exp(r.mu / c) for r in ratings]
    tied = [sum(1 for s in ranks if s == q) for q in ranks]
    sum_q = [sum(e[s] for s in range(4) if ranks[s] >= ranks[q]) for q in range(4)]
    out = []
    for i, r in enumerate(ratings):
        omega = delta = 0.0
        for q in range(4):
            if ranks[q] > ranks[i]:
                continue
            p = e[i] / sum_q[q]
            omega += ((1 - p) if q == i else -p) / tied[q]
            delta += p * (1 - p) / tied[q]
        omega *= r.sigma**2 / c
        delta *= (r.sigma / c) * r.sigma**2 / c**2
        out.append(Rating(r.mu + omega, r.sigma * math.sqrt(max(1 - delta, KAPPA))))
    for rank in set(ranks):
        group = [i for i in range(4) if ranks[i] == rank]
        moved = sum(out[i].mu - ratings[i].mu for i in group) / len(group)
        for i in group:
            out[i] = Rating(ratings[i].mu + moved, out[i].sigma)
    return out


def test_four_newcomers_worked_by_hand() -> None:
    # σ² = (25/3)² + τ² = 69.451; c = √(4 (σ² + β²)) = √347.25 = 18.635; all e equal, so the
    # 1st place gains σ²/c · (1 − 1/4) = 2.7953 and the 4th loses σ²/c · (1/4 + 1/3 + 1/2) = 4.0376.
    after = rate([Rating()] * 4, [120, 40, -40, -120])
    assert after[0].mu == pytest.approx(MU + 2.7953, abs=1e-4)
    assert after[3].mu == pytest.approx(MU - 4.0376, abs=1e-4)
    # σ of the last: Δ = γ σ²/c² (3/16 + 2/9 + 1/4) = 0.447214 · 0.200005 · 0.659722 = 0.059008.
    assert after[3].sigma == pytest.approx(
        math.sqrt((SIGMA**2 + TAU**2) * (1 - 0.059008)), abs=1e-5
    )
    assert [r.mu for r in after] == sorted((r.mu for r in after), reverse=True)
    assert Rating().ordinal == pytest.approx(0.0)


@pytest.mark.parametrize(
    "ratings,totals,ranks",
    [
        ([Rating()] * 4, [10, 5, 0, -15], [1, 2, 3, 4]),
        ([Rating(30, 3), Rating(20, 6), Rating(25, 8.3), Rating(18, 2)], [-50, 20, 40, -10], [4, 2, 1, 3]),
        ([Rating(27, 4), Rating(27, 4), Rating(21, 7), Rating(25, 1)], [16, 16, -8, -24], [1, 1, 3, 4]),
        ([Rating(22, 5)] * 4, [0, 0, 0, 0], [1, 1, 1, 1]),
    ],
)  # fmt: skip
def test_rate_is_plackett_luce(ratings: list[Rating], totals: list[int], ranks: list[int]) -> None:
    got = rate(ratings, totals)
    want = reference(ratings, ranks)
    for g, w in zip(got, want, strict=True):
        assert g.mu == pytest.approx(w.mu, abs=1e-9)
        assert g.sigma == pytest.approx(w.sigma, abs=1e-9)


def test_ties_share_a_place_and_move_alike() -> None:
    a, b, c, d = rate([Rating()] * 4, [10, 10, -10, -10])
    assert a == b and c == d and a.mu > MU > c.mu


def test_subjects_and_bad_input() -> None:
    assert subject_of(12, None) == "user:12"
    assert subject_of(None, "strong") == "bot:strong"
    with pytest.raises(RatingError):
        subject_of(None, None)
    with pytest.raises(RatingError, match="four"):
        rate([Rating()] * 3, [1, 2, 3])
