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


def test_a_passphrase_change_checks_the_old_one_and_can_be_undone() -> None:
    from desktop_agent.secrets.passphrase import PassphraseKeySource

    cheap = Argon2Params(time_cost=1, memory_kib=8 * 1024, parallelism=1)
    source = PassphraseKeySource("old passphrase", cheap)
    with pytest.raises(InputError, match="not unlocked"):
        source.change_passphrase("old passphrase", "new passphrase")
    params = source.create_kek("v1", 1, b"k" * 32)  # as a new vault does
    with pytest.raises(InputError, match="current passphrase is wrong"):
        source.change_passphrase("guess", "new passphrase")
    with pytest.raises(InputError, match="too short"):
        source.change_passphrase("old passphrase", "short")

    undo = source.change_passphrase("old passphrase", "new passphrase")
    changed = source.create_kek("v1", 2, b"n" * 32)
    assert changed["salt"] != params["salt"]  # a fresh salt with the new passphrase
    assert PassphraseKeySource("new passphrase").load_kek("v1", 2, changed) == b"n" * 32
    undo()
    assert source.load_kek("v1", 1, params) == b"k" * 32
