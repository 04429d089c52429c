"""Skill ratings with openskill's Plackett-Luce model, from a game's final places."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce


@dataclass(frozen=True, slots=True)
class Skill:
    """A rating: mean skill and its uncertainty."""

    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """The conservative estimate mu - 3 sigma that boards sort by."""
        return self.mu - 3 * self.sigma


def new_model() -> PlackettLuce:
    """The rating model with openskill's default parameters (mu 25, sigma 25/3)."""
    return PlackettLuce()


def initial_skill(model: PlackettLuce) -> Skill:
    """The rating of a player who has not played yet."""
    return Skill(model.mu, model.sigma)


def rate(
    model: PlackettLuce,
    players: Sequence[int],
    places: Sequence[int],
    priors: Mapping[int, Skill],
) -> dict[int, Skill]:
    """New ratings after one game: seat i was taken by `players[i]` and finished `places[i]`
    (1 is best; ties share a place). Every seat is its own one-player team.

    A player in several seats (a computer level playing itself) is rated in each seat from
    the same prior, and keeps the mean of those posteriors.
    """
    teams = [[model.rating(priors[p].mu, priors[p].sigma)] for p in players]
    rated = model.rate(teams, ranks=[float(place) for place in places])
    posteriors: dict[int, list[Skill]] = defaultdict(list)
    for player, team in zip(players, rated, strict=True):
        posteriors[player].append(Skill(team[0].mu, team[0].sigma))
    return {
        player: Skill(
            sum(s.mu for s in skills) / len(skills), sum(s.sigma for s in skills) / len(skills)
        )
        for player, skills in posteriors.items()
    }
