"""Skill ratings of policies with OpenSkill's Plackett-Luce model.

Side module (evaluation). Each episode is one match: every agent is an entrant, ranked by its
score_total (higher is better; equal scores share a rank). Entrants carry their policy's rating.
A policy fielding several agents in one episode receives the mean of their updates (mu moves by
the mean change, sigma becomes the mean new sigma), which is exactly Plackett-Luce when each
policy plays one agent. Episodes are rated in episode order, so ratings are reproducible.
Episodes with fewer than two distinct policies carry no information and are skipped.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

Entrant = tuple[str, float]  # (policy name, score)


def competition_ranks(scores: Sequence[float]) -> list[int]:
    """1-based ranks, higher score first, ties sharing the best rank ("1224" ranking)."""
    ordered = sorted(scores, reverse=True)
    first = {}
    for position, score in enumerate(ordered, start=1):
        first.setdefault(score, position)
    return [first[score] for score in scores]


def rate_matches(
    matches: Sequence[Sequence[Entrant]], policies: Sequence[str] | None = None
) -> dict[str, dict[str, Any]]:
    """Rate policies over a series of matches.

    Args:
        matches: per match, one (policy, score) per entrant.
        policies: names to report even if they never played a rated match (in this order).

    Returns:
        policy -> {"mu", "sigma", "ordinal", "matches"}; ordinal is mu - 3 sigma (the
        conservative estimate OpenSkill ranks by).
    """
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    names = list(policies or [])
    for match in matches:
        names.extend(name for name, _ in match if name not in names)
    ratings = {name: model.rating(name=name) for name in names}
    played = dict.fromkeys(names, 0)
    for match in matches:
        if len({name for name, _ in match}) < 2:
            continue
        teams = [[model.rating(mu=ratings[n].mu, sigma=ratings[n].sigma)] for n, _ in match]
        ranks = competition_ranks([float(score) for _, score in match])
        new = model.rate(teams, ranks=ranks)
        updates: dict[str, list[tuple[float, float]]] = {}
        for (name, _), (rating,) in zip(match, new, strict=True):
            updates.setdefault(name, []).append((rating.mu, rating.sigma))
        for name, values in updates.items():
            old = ratings[name]
            mu = old.mu + sum(mu - old.mu for mu, _ in values) / len(values)
            sigma = sum(sigma for _, sigma in values) / len(values)
            ratings[name] = model.rating(mu=mu, sigma=sigma, name=name)
            played[name] += 1
    return {
        name: {
            "mu": _round(r.mu),
            "sigma": _round(r.sigma),
            "ordinal": _round(r.ordinal()),
            "matches": played[name],
        }
        for name, r in ratings.items()
    }


def leaderboard(ratings: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """Policy names, best first (ordinal, then mu, then name for a stable order); policies that
    played no rated match come last."""
    return sorted(
        ratings,
        key=lambda n: (ratings[n]["matches"] == 0, -ratings[n]["ordinal"], -ratings[n]["mu"], n),
    )


def _round(value: float) -> float:
    return round(float(value), 6) + 0.0
