"""存檔 (sealed saves): the key file next to a saved record, sealed with a per-install secret.

A save is two files: the record (``FILE``, the game record so far, JSON Lines) and its key
(``FILE.key``). The key holds the settings resuming needs (bot level, language), the match seed
*wrapped* with a secret kept in the user's data directory (never next to the save), the number of
record lines saved and an HMAC chain over those lines, and an HMAC over all of it. The data
directory also keeps each save's last saved point, so an older copy of a save (a move undone by
restoring files) is refused. What this protects and what it cannot is in ``docs/play.md``.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hkmahjong.errors import MahjongError

__all__ = [
    "DATA_DIR_ENV",
    "KEY_FORMAT",
    "KEY_VERSION",
    "SaveError",
    "SaveKey",
    "data_dir",
    "install_secret",
    "key_path",
    "line_chain",
    "new_save_id",
    "read_key",
    "saved_point",
    "write_save",
]

KEY_FORMAT = "hkmj-parlor-key"
KEY_VERSION = 2
DATA_DIR_ENV = "HKMJ_DATA_DIR"
"""Overrides the data directory (tests; several installs side by side)."""
_SECRET_FILE = "install-secret"
_SECRET_BYTES = 32
_SEALED = ("save_id", "opponents", "wrapped_seed", "lines", "chain")
"""The key's fields under its HMAC (the language is a display preference: ``--lang`` overrides it)."""


class SaveError(MahjongError):
    """A save file that cannot be read, does not fit this game, or was changed after saving.

    The message is the detailed English one; ``kind`` (one of :data:`SAVE_REFUSALS`), ``path``,
    ``line`` and ``errno`` let the game say the refusal in the player's language
    (:func:`hkmahjong.cli.tui.i18n.save_refusal`).
    """

    def __init__(
        self,
        message: str,
        *,
        kind: str = "damaged",
        path: Path | str | None = None,
        line: int | None = None,
        errno: int | None = None,
    ) -> None:
        super().__init__(message)
        if kind not in SAVE_REFUSALS:
            raise ValueError(f"unknown save refusal kind {kind!r}")
        self.kind = kind
        self.path = None if path is None else str(path)
        self.line = line
        self.errno = errno


SAVE_REFUSALS = ("unreadable", "damaged", "old_version", "changed", "older", "wrong_key", "record")
"""Why a save is refused: cannot be read; not a usable save; of an older version; changed after
it was saved (or sealed on another install); an older copy than the last save; a key of another
match; a record that does not verify as it was saved."""


def data_dir() -> Path:
    """The user's data directory for hkmj (``$HKMJ_DATA_DIR``, else the platform's)."""
    override = os.environ.get(DATA_DIR_ENV)
    if override:
        return Path(override)
    import platformdirs

    return platformdirs.user_data_path("hkmahjong", appauthor=False)


def key_path(path: Path) -> Path:
    """The key file saved next to a record: ``FILE.key``."""
    return path.with_name(path.name + ".key")


def _private_dir(path: Path) -> Path:
    path.mkdir(parents=True, exist_ok=True, mode=0o700)
    return path


def _write_private(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` readable by its owner only (0600), replacing it atomically."""
    tmp = path.with_name(path.name + f".{os.getpid()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.write(fd, data)
    finally:
        os.close(fd)
    os.replace(tmp, path)


def install_secret() -> bytes:
    """This install's secret (32 random bytes in the data directory, mode 0600), made once.

    :raises SaveError: when it cannot be read or written.
    """
    path = data_dir() / _SECRET_FILE
    try:
        if not path.exists():
            _private_dir(path.parent)
            _write_private(path, secrets.token_bytes(_SECRET_BYTES))
        secret = path.read_bytes()
    except OSError as exc:
        raise SaveError(f"cannot use the save secret {path}: {exc.strerror}") from None
    if len(secret) != _SECRET_BYTES:
        raise SaveError(f"the save secret {path} is damaged ({len(secret)} bytes)")
    return secret


def new_save_id() -> str:
    """A fresh save id (16 random bytes, hex): names a match's saves on this install."""
    return secrets.token_hex(16)


def _mac(secret: bytes, tag: bytes, *parts: bytes) -> bytes:
    h = hmac.new(secret, b"hkmj/save/" + tag + b"\x00", hashlib.sha256)
    for part in parts:
        h.update(len(part).to_bytes(8, "big"))
        h.update(part)
    return h.digest()


def _wrap(secret: bytes, save_id: str, seed: bytes) -> bytes:
    pad = _mac(secret, b"wrap", save_id.encode())
    if len(seed) != len(pad):
        raise SaveError(f"a match seed must be {len(pad)} bytes to be saved, not {len(seed)}")
    return bytes(a ^ b for a, b in zip(seed, pad, strict=True))


def line_chain(secret: bytes, save_id: str, lines: Iterable[str]) -> str:
    """The HMAC chain over a record's lines: each link seals the previous one and its line."""
    link = _mac(secret, b"chain", save_id.encode())
    for line in lines:
        link = _mac(secret, b"link", link, line.encode())
    return link.hex()


@dataclass(frozen=True)
class SaveKey:
    """What ``FILE.key`` holds (its ``mac`` checked and removed)."""

    save_id: str
    opponents: str
    lang: str
    wrapped_seed: str
    lines: int
    chain: str

    def match_seed(self, secret: bytes) -> bytes:
        """The match seed, unwrapped with this install's secret."""
        return _wrap(secret, self.save_id, bytes.fromhex(self.wrapped_seed))

    def sealed(self) -> dict[str, Any]:
        """The fields under the key's HMAC."""
        return {name: getattr(self, name) for name in _SEALED}


def _key_mac(secret: bytes, sealed: Mapping[str, Any]) -> str:
    text = json.dumps(dict(sealed), sort_keys=True, separators=(",", ":"))
    return _mac(secret, b"key", text.encode()).hex()


def _points_dir() -> Path:
    return data_dir() / "saves"


def saved_point(save_id: str) -> dict[str, Any] | None:
    """The last saved point of save ``save_id`` on this install (lines and chain), if any."""
    if len(save_id) != 32 or any(c not in "0123456789abcdef" for c in save_id):
        return None
    try:
        data = json.loads((_points_dir() / f"{save_id}.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def write_save(
    path: Path,
    lines: Iterable[str],
    *,
    save_id: str,
    match_seed: bytes,
    opponents: str,
    lang: str,
) -> Path:
    """Write the record ``lines`` to ``path`` and its sealed key to ``path.key``; remember the point.

    :raises SaveError: when a file cannot be written.
    """
    secret = install_secret()
    saved = list(lines)
    key = SaveKey(
        save_id,
        opponents,
        lang,
        _wrap(secret, save_id, match_seed).hex(),
        len(saved),
        line_chain(secret, save_id, saved),
    )
    body = {"format": KEY_FORMAT, "version": KEY_VERSION, **key.sealed(), "lang": lang}
    body["mac"] = _key_mac(secret, key.sealed())
    try:
        path.write_text("".join(line + "\n" for line in saved), encoding="utf-8")
        key_path(path).write_text(json.dumps(body) + "\n", encoding="utf-8")
        _private_dir(_points_dir())
        point = json.dumps({"lines": key.lines, "chain": key.chain, "record": str(path)})
        _write_private(_points_dir() / f"{save_id}.json", point.encode())
    except OSError as exc:
        raise SaveError(f"the save failed: cannot write {exc.filename}: {exc.strerror}") from None
    return path


def read_key(path: Path) -> SaveKey:
    """The sealed key of the save at ``path`` (from ``path.key``), its HMAC checked.

    :raises SaveError: when the key is missing, malformed, of another version, or was changed.
    """
    kpath = key_path(path)
    try:
        data = json.loads(kpath.read_text(encoding="utf-8"))
    except OSError as exc:
        raise SaveError(
            f"cannot read {kpath}: {exc.strerror}", kind="unreadable", path=kpath, errno=exc.errno
        ) from None
    except UnicodeDecodeError:
        raise SaveError(f"{kpath} is not UTF-8 text", path=kpath) from None
    except json.JSONDecodeError as exc:
        raise SaveError(f"{kpath} is not a key file (not JSON: {exc.msg})", path=kpath) from None
    if not isinstance(data, dict) or data.get("format") != KEY_FORMAT:
        raise SaveError(f"{kpath} is not an hkmj play key file (format {KEY_FORMAT!r})", path=kpath)
    if data.get("version") != KEY_VERSION:
        raise SaveError(
            f"{kpath}: key version {data.get('version')!r}; this version reads {KEY_VERSION} "
            "(saves of older versions cannot be resumed)",
            kind="old_version",
            path=kpath,
        )
    unknown = sorted(set(data) - {"format", "version", "lang", "mac", *_SEALED})
    if unknown:
        raise SaveError(f"{kpath}: unknown field(s) {', '.join(unknown)}", path=kpath)
    try:
        key = SaveKey(
            str(data["save_id"]),
            str(data["opponents"]),
            str(data.get("lang", "zh-Hant")),
            str(data["wrapped_seed"]),
            int(data["lines"]),
            str(data["chain"]),
        )
        bytes.fromhex(key.wrapped_seed)
    except KeyError as exc:
        raise SaveError(f"{kpath}: missing field {exc}", path=kpath) from None
    except (TypeError, ValueError):
        raise SaveError(f"{kpath}: a field is malformed", path=kpath) from None
    mac = data.get("mac")
    if not isinstance(mac, str) or not hmac.compare_digest(
        mac, _key_mac(install_secret(), key.sealed())
    ):
        raise SaveError(
            f"{kpath} was changed after it was saved, or saved on another install: "
            "its seal does not match (the bot level, seed and saved point are sealed)",
            kind="changed",
            path=kpath,
        )
    return key
