"""What a good opponent lays away: weights for the ranks of the opponent's two crib cards.

The expert's crib expectation averages over every pair of cards the opponent could lay away. A
uniform average treats a pone throwing two fives into the dealer's crib as often as two kings, which
no decent player does. So each pair of ranks ``(a, b)`` (``a <= b``) gets a factor: how often the
expert itself (discarding with the uniform model) lays away those ranks in a random deal, divided by
how often a random pair of the six cards has them. Fitted by ``python -m bench.ai --fit-throw-model``
(40,000 deals per role, seed 7, add-2 smoothing toward 1) and pasted here; the opponent's pair is
then weighted by ``ways x factor``. It is a marginal model (it ignores what else the opponent held),
good enough to tilt the crib estimate the right way: a pone rarely gives away fives, a dealer keeps
pairs and near-fifteens for his own crib.
"""

from __future__ import annotations

from .ranks import PAIRS

PairFactor = dict[tuple[int, int], float]

# Rows: the lower rank of the pair; columns: the higher rank, from the row's rank up to the king.
_OPPONENT_DEALS = (
    2.377, 1.713, 1.781, 1.151, 0.345, 0.462, 0.821, 0.877, 0.726, 0.477, 0.470, 0.491, 0.569,  # A
    2.787, 2.307, 1.599, 0.522, 0.660, 1.213, 0.974, 0.636, 0.555, 0.557, 0.475, 0.580,  # 2
    2.787, 1.968, 0.473, 0.730, 1.030, 0.730, 0.553, 0.510, 0.442, 0.470, 0.582,  # 3
    2.437, 0.636, 0.697, 0.596, 0.493, 0.382, 0.425, 0.394, 0.470, 0.547,  # 4
    1.639, 0.749, 0.774, 0.549, 0.425, 1.116, 1.368, 1.415, 1.228,  # 5
    2.760, 2.305, 2.224, 2.061, 0.468, 0.388, 0.328, 0.330,  # 6
    3.126, 3.328, 1.902, 0.536, 0.479, 0.367, 0.464,  # 7
    3.361, 1.898, 0.895, 0.411, 0.384, 0.322,  # 8
    2.492, 1.395, 0.691, 0.373, 0.365,  # 9
    1.934, 1.867, 1.337, 0.563,  # T
    2.126, 1.948, 1.463,  # J
    2.230, 1.900,  # Q
    2.257,  # K
)
_OPPONENT_IS_PONE = (
    0.776, 1.535, 0.910, 0.450, 0.093, 1.013, 1.669, 1.680, 1.537, 1.514, 1.044, 2.082, 2.453,  # A
    0.568, 0.167, 0.846, 0.097, 0.926, 1.384, 1.694, 1.498, 1.104, 0.883, 1.347, 1.647,  # 2
    0.415, 0.493, 0.062, 0.968, 0.914, 1.275, 1.151, 0.819, 0.757, 1.273, 1.533,  # 3
    0.306, 0.052, 0.307, 1.021, 0.834, 0.829, 0.788, 0.547, 1.025, 1.075,  # 4
    0.033, 0.047, 0.070, 0.116, 0.159, 0.083, 0.080, 0.050, 0.060,  # 5
    0.317, 0.448, 0.920, 0.460, 1.116, 0.640, 1.211, 1.581,  # 6
    0.415, 0.237, 1.471, 1.500, 0.780, 1.977, 2.602,  # 7
    0.956, 0.926, 0.580, 1.203, 1.603, 2.387,  # 8
    0.645, 0.359, 0.706, 1.975, 2.334,  # 9
    0.492, 0.477, 1.395, 3.710,  # T
    0.404, 0.619, 0.937,  # J
    0.650, 2.266,  # Q
    0.716,  # K
)

_FACTORS: dict[bool, PairFactor] = {
    True: dict(zip(PAIRS, _OPPONENT_DEALS, strict=True)),
    False: dict(zip(PAIRS, _OPPONENT_IS_PONE, strict=True)),
}


def throw_factor(*, opponent_is_dealer: bool) -> PairFactor:
    """The weight of each pair of ranks the opponent may lay away, by whose crib it is.

    >>> pone = throw_factor(opponent_is_dealer=False)
    >>> pone[(5, 5)] < 0.1 < 2 < pone[(10, 13)]  # a pone keeps two fives, gives away ten-king
    True
    """
    return _FACTORS[opponent_is_dealer]
