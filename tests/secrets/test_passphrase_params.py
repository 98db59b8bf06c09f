"""Nonsense Argon2 costs in a vault.json or a backup are refused at once (issue 13, part 9):
time_cost 10^6 hung for minutes, zero or negative values crashed."""

from __future__ import annotations

import pytest

from desktop_agent.errors import InputError
from desktop_agent.secrets.passphrase import Argon2Params


@pytest.mark.parametrize(
    "raw",
    [
        {"time_cost": 1_000_000, "memory_kib": 65536, "parallelism": 2},
        {"time_cost": 0, "memory_kib": 65536, "parallelism": 2},
        {"time_cost": 3, "memory_kib": -5, "parallelism": 2},
        {"time_cost": 3, "memory_kib": 65536, "parallelism": 0},
        {"time_cost": "x", "memory_kib": 65536, "parallelism": 2},
        {"memory_kib": 65536, "parallelism": 2},
    ],
)
def test_out_of_range_costs_are_refused(raw: dict) -> None:
    with pytest.raises(InputError, match="damaged or was not written by desktop-agent"):
        Argon2Params.from_json(raw)


def test_the_costs_this_app_writes_are_read_back() -> None:
    params = Argon2Params()
    assert Argon2Params.from_json(params.to_json()) == params
