"""The encrypted memory vault: the only package that imports lancedb or lance.

Rows on disk are opaque ids, a key id and AES-256-GCM ciphertext; at unlock everything is
decrypted into RAM, where get, list and search run. See docs/SECURITY.md.
"""

from desktop_agent.memory.audit import AuditEntry, AuditReport
from desktop_agent.memory.backup import ExportSummary, ImportSummary
from desktop_agent.memory.header import vault_key_mode
from desktop_agent.memory.keystore import KeySource
from desktop_agent.memory.model import (
    KINDS,
    Damage,
    ForgetReceipt,
    KeyStatus,
    MemoryId,
    MemoryNotFound,
    MemoryRecord,
    MemoryVersion,
    NewMemory,
    SearchHit,
)
from desktop_agent.memory.read_only import VaultReadOnlyError
from desktop_agent.memory.vault import Vault

__all__ = [
    "KINDS",
    "AuditEntry",
    "AuditReport",
    "Damage",
    "ExportSummary",
    "ForgetReceipt",
    "ImportSummary",
    "KeySource",
    "KeyStatus",
    "MemoryId",
    "MemoryNotFound",
    "MemoryRecord",
    "MemoryVersion",
    "NewMemory",
    "SearchHit",
    "Vault",
    "VaultReadOnlyError",
    "vault_key_mode",
]
