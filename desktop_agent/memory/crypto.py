"""AES-256-GCM blobs: a version byte, a random 12-byte nonce, then ciphertext and tag.

The associated data binds each blob to where it lives (table, row id, field, key id), so a
ciphertext copied into another row, field or key slot fails to open instead of decrypting as
something it is not.
"""

from __future__ import annotations

import os
import secrets
from typing import Final

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

BLOB_VERSION: Final = 1
NONCE_BYTES: Final = 12
TAG_BYTES: Final = 16
HEADER_BYTES: Final = 1 + NONCE_BYTES
OVERHEAD: Final = HEADER_BYTES + TAG_BYTES
KEY_BYTES: Final = 32

__all__ = ["BlobError", "InvalidTag", "aad", "new_id", "new_key", "open_blob", "seal"]


class BlobError(Exception):
    """A blob that cannot be opened: wrong key, wrong place, damaged or unknown version."""


def new_key() -> bytes:
    return AESGCM.generate_key(bit_length=256)


def new_id() -> str:
    """An opaque random id (128 bits, hex): says nothing about what it names."""
    return secrets.token_hex(16)


def aad(table: str, row_id: str, field: str, key_id: str) -> bytes:
    # NUL cannot occur in any of these (ids are hex, tables and fields are our constants).
    return b"%d\x00%s\x00%s\x00%s\x00%s" % (
        BLOB_VERSION,
        table.encode(),
        row_id.encode(),
        field.encode(),
        key_id.encode(),
    )


def seal(cipher: AESGCM, plaintext: bytes, associated: bytes) -> bytes:
    nonce = os.urandom(NONCE_BYTES)
    return bytes((BLOB_VERSION,)) + nonce + cipher.encrypt(nonce, plaintext, associated)


def open_blob(cipher: AESGCM, blob: bytes | memoryview, associated: bytes) -> bytes:
    if len(blob) < OVERHEAD or blob[0] != BLOB_VERSION:
        raise BlobError("unknown blob version or truncated blob")
    try:
        return cipher.decrypt(blob[1:HEADER_BYTES], blob[HEADER_BYTES:], associated)
    except InvalidTag:
        raise BlobError("authentication failed") from None


def seal_with_key(key: bytes, plaintext: bytes, associated: bytes) -> bytes:
    return seal(AESGCM(key), plaintext, associated)


def open_with_key(key: bytes, blob: bytes | memoryview, associated: bytes) -> bytes:
    return open_blob(AESGCM(key), blob, associated)
