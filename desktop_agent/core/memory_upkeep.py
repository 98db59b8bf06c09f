"""The vault's upkeep as the memory service offers it: how healthy the store is (read-only,
damaged rows, an interrupted re-encryption) and the re-encryption itself, run inside the
service's one write lane like every other write. The CLI and the GUI both read and run these
through ``MemoryService``; neither reaches for the vault.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from desktop_agent.core.write_lane import WriteLane
    from desktop_agent.memory import Damage, Vault
    from desktop_agent.memory.rekey import Progress, RekeyReceipt

logger = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class VaultHealth:
    """What is wrong with the store now, if anything (nothing here holds memory text)."""

    read_only: str | None  # why writing is off ("the disk is full"), or None
    rekey_unfinished: bool  # a re-encryption was interrupted: `keys rotate --rekey` finishes it
    damaged: tuple[Damage, ...]  # rows and files that could not be read at unlock
    epoch: int  # the key-encryption key's epoch
    records: int  # stored records, the bookkeeping ones included

    @property
    def fine(self) -> bool:
        return self.read_only is None and not self.rekey_unfinished and not self.damaged


def vault_health(vault: Vault) -> VaultHealth:
    status = vault.status()
    return VaultHealth(
        read_only=vault.read_only,
        rekey_unfinished=vault.rekey_unfinished,
        damaged=vault.damaged,
        epoch=status.epoch,
        records=len(vault),
    )


def rekey(vault: Vault, lane: WriteLane, progress: Progress | None = None) -> RekeyReceipt:
    """Re-encrypt every stored row under new data keys and destroy the old ones, alone in the
    write lane (a chat turn or consolidation waits; run again, it finishes an interrupted one)."""
    with lane:
        resumed = vault.rekey_unfinished
        receipt = vault.rekey(progress=progress)
    logger.info(
        "rekeyed %d rows, destroyed %d keys, epoch %d -> %d%s",
        receipt.rows,
        receipt.keys_destroyed,
        receipt.previous_epoch,
        receipt.epoch,
        " (finished an interrupted run)" if resumed else "",
    )
    return receipt
