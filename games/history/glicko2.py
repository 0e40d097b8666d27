"""Glicko-2 (Mark Glickman, "Example of the Glicko-2 system", 2022 revision), pure Python, no Django.

Why not the PyPI package ``glicko2`` 2.1.0: its volatility step computes ``f(x)`` with the
player's *rating* squared where the paper has the rating *deviation* squared (phi^2). The error
is small (its own tests round the volatility to five places and miss it) but it makes a result
depend on where the ratings sit, not only on their differences. Its ``Player`` is also a mutable
object updated in place, and its expected score has no room for an advantage, which
cribbage needs (the first dealer wins about 55% of games between equal players). This module is
the paper's steps 1-8 plus that one addition, in about a hundred lines.

**First-dealer advantage.** A result may carry ``advantage``, a logit added to the player's side
of the expected score: ``E = 1 / (1 + exp(-(g(phi_j) * (mu - mu_j) + advantage)))``. For the first
dealer ``advantage = ln(p / (1 - p))`` with ``p`` the first dealer's win rate between equal
players (0.55 gives 0.2007); for the pone it is the negative. Between equal ratings the first
dealer is then expected to score exactly ``p`` whatever the deviations, so winning from the deal
earns a little less and winning as the pone a little more. The derivative of this ``E`` with
respect to ``mu`` is still ``g * E * (1 - E)``, so the paper's ``v`` and ``Delta`` apply unchanged.

Glickman's worked example (rating 1500, RD 200, volatility 0.06; beats 1400/30, loses to
1550/100 and to 1700/300):

>>> r = update(Rating(1500, 200, 0.06), [Result(Rating(1400, 30), 1), Result(Rating(1550, 100), 0),
...                                        Result(Rating(1700, 300), 0)])
>>> round(r.rating, 2), round(r.rd, 2), round(r.volatility, 6)  # the paper: 1464.06, 151.52, 0.05999
(1464.05, 151.52, 0.059996)
>>> round(expected(Rating(), Rating(), advantage=first_dealer_advantage(0.55)), 4)
0.55
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

SCALE = 173.7178  # Glicko-2 units per rating point (400 / ln 10)
BASE = 1500.0
DEFAULT_RD = 350.0
DEFAULT_VOLATILITY = 0.06
TAU = 0.5  # constrains the change in volatility; the paper suggests 0.3 to 1.2
EPSILON = 0.000001  # convergence tolerance of the volatility iteration
MIN_RD = 30.0  # keeps a very active player's rating able to move


@dataclass(frozen=True)
class Rating:
    rating: float = BASE
    rd: float = DEFAULT_RD
    volatility: float = DEFAULT_VOLATILITY

    @property
    def mu(self) -> float:
        return (self.rating - BASE) / SCALE

    @property
    def phi(self) -> float:
        return self.rd / SCALE


@dataclass(frozen=True)
class Result:
    """One game against ``opponent``: ``score`` 1 won, 0 lost (0.5 a draw); ``advantage`` a logit
    added to this player's expected score (see the module docstring)."""

    opponent: Rating
    score: float
    advantage: float = 0.0


def first_dealer_advantage(win_rate: float) -> float:
    """The logit of the first dealer's win rate between equal players: ln(p / (1 - p))."""
    if not 0 < win_rate < 1:
        raise ValueError("a win rate is strictly between 0 and 1")
    return math.log(win_rate / (1 - win_rate))


def _g(phi: float) -> float:
    return 1 / math.sqrt(1 + 3 * phi * phi / (math.pi * math.pi))


def _e(mu: float, mu_j: float, phi_j: float, advantage: float) -> float:
    return 1 / (1 + math.exp(-(_g(phi_j) * (mu - mu_j) + advantage)))


def expected(player: Rating, opponent: Rating, *, advantage: float = 0.0) -> float:
    """The score ``player`` is expected to make against ``opponent`` (0..1)."""
    return _e(player.mu, opponent.mu, opponent.phi, advantage)


def _volatility(phi: float, sigma: float, delta: float, v: float, tau: float) -> float:
    """Step 5: the new volatility by the Illinois algorithm."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        phi2 = phi * phi
        return ex * (delta * delta - phi2 - v - ex) / (2 * (phi2 + v + ex) ** 2) - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2)


def idle(player: Rating, periods: int = 1) -> Rating:
    """Step 6 alone, ``periods`` times: the deviation of a player who did not play grows."""
    phi = math.sqrt(player.phi ** 2 + periods * player.volatility ** 2)
    return Rating(player.rating, min(phi * SCALE, DEFAULT_RD), player.volatility)


def update(player: Rating, results: Sequence[Result], *, tau: float = TAU) -> Rating:
    """The player's rating after one rating period with these ``results`` (steps 2-8)."""
    if not results:
        return idle(player)
    mu, phi = player.mu, player.phi
    v_inv = 0.0
    total = 0.0
    for r in results:
        g = _g(r.opponent.phi)
        e = _e(mu, r.opponent.mu, r.opponent.phi, r.advantage)
        v_inv += g * g * e * (1 - e)
        total += g * (r.score - e)
    v = 1 / v_inv
    delta = v * total
    sigma = _volatility(phi, player.volatility, delta, v, tau)
    phi_star = math.sqrt(phi * phi + sigma * sigma)
    new_phi = 1 / math.sqrt(1 / (phi_star * phi_star) + 1 / v)
    new_mu = mu + new_phi * new_phi * total
    rd = min(max(new_phi * SCALE, MIN_RD), DEFAULT_RD)
    return Rating(new_mu * SCALE + BASE, rd, sigma)
