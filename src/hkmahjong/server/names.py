"""名稱 player names as people mean them (issue 29, docs/security.md *Names*).

A name is shown as typed (trimmed, in Unicode NFKC: ``ＡＬＩＣＥ`` is shown ``ALICE``, ``𝔞𝔩𝔦𝔠𝔢``
``alice``) and known by two derived strings, each in its own column of ``users``:

- its **key** (:func:`name_key`): NFKC, case-folded, NFKC again — Unicode's caseless identifier
  matching, computed here in Python and never by the database (SQLite's ``lower()`` folds ASCII
  only). ``Émile``/``émile``, ``STRASSE``/``Straße``, ``Ωμέγα``/``ωμέγα`` have one key each. The
  key is unique: it decides who a name is, at login and at sign-up.
- its **skeleton** (:func:`name_skeleton`): the key's Unicode TR39 skeleton, from ICU's
  ``SpoofChecker`` (the reference implementation, through PyICU): two names with one skeleton
  look alike (``alice`` and ``alicе`` with a Cyrillic ``е``; ``ah ming`` and ``ah rning``). It is
  indexed, so refusing a look-alike of any existing name is one query.

A new name is refused (:func:`parse_name`, each with its own code and message) when it is not
1–24 letters of any script, digits, spaces and ``_ . -`` starting and ending with a letter or
digit (``bad_name``); when its key or skeleton starts with a reserved prefix (``guest``, after
normalisation: ``ｇｕｅｓｔ-1a2b3c4d`` too; ``name_reserved``); when it mixes scripts beyond
TR39's *highly restrictive* level — one script, or Latin with Han and Bopomofo, with Han,
Hiragana and Katakana, or with Han and Hangul — or holds invisible characters or digits of
several systems (``name_mixed``). Look-alikes and exact matches of existing names are the
store's questions (``name_confusable``, ``name_taken``: :mod:`hkmahjong.server.auth`).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

import icu

__all__ = [
    "MAX_NAME",
    "RESERVED_PREFIXES",
    "Name",
    "NameRefusedError",
    "lookup_key",
    "name_key",
    "name_skeleton",
    "parse_name",
]

MAX_NAME = 24
"""The longest name, in characters (after NFKC)."""
NAME_RE = re.compile(r"[^\W_](?:[\w .\-]{0,22}[^\W_])?")
RESERVED_PREFIXES = ("guest",)
"""Names the parlor gives itself (guests are ``guest-1a2b3c4d``); checked on the key and on the
skeleton, so no normalisation or look-alike gets past them."""


class NameRefusedError(Exception):
    """A name that cannot be registered; ``code`` is the ``?error=`` the pages translate."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True, slots=True)
class Name:
    """A name as shown, its key (who it is) and its skeleton (what it looks like)."""

    display: str
    key: str
    skeleton: str


def name_key(name: str) -> str:
    """The caseless key of a name: NFKC, case-folded, NFKC again, trimmed.

    >>> name_key(" Straße ") == name_key("STRASSE") == "strasse"
    True
    >>> name_key("ＡＬＩＣＥ") == name_key("𝔞𝔩𝔦𝔠𝔢") == "alice"
    True
    """
    folded = unicodedata.normalize("NFKC", name).casefold()
    return unicodedata.normalize("NFKC", folded).strip()


_CONTROL = re.compile("[\x00-\x1f\x7f]")


def lookup_key(name: str) -> str | None:
    """The key to look a typed name up by (login, a player's page), or None when no user can
    have it (empty, too long, control characters: nothing to ask the database)."""
    key = name_key(name)
    if not key or len(key) > 64 or _CONTROL.search(key):
        return None
    return key


def _checker(checks: int) -> icu.SpoofChecker:
    checker = icu.SpoofChecker()
    checker.setChecks(checks)
    checker.setRestrictionLevel(icu.URestrictionLevel.HIGHLY_RESTRICTIVE)
    return checker


_SKELETONS = icu.SpoofChecker()
"""ICU's checkers are safe to share between threads once configured (the routes run in a pool)."""
_MIXING = _checker(
    icu.USpoofChecks.RESTRICTION_LEVEL | icu.USpoofChecks.INVISIBLE | icu.USpoofChecks.MIXED_NUMBERS
)


def name_skeleton(key: str) -> str:
    """The TR39 skeleton of a key: equal skeletons look alike.

    >>> name_skeleton(name_key("Alicе")) == name_skeleton("alice")  # a Cyrillic е
    True
    """
    return str(_SKELETONS.getSkeleton(0, key))


_RESERVED_SKELETONS = tuple(name_skeleton(p) for p in RESERVED_PREFIXES)


def parse_name(raw: str) -> Name:
    """A new name checked (its key and skeleton computed); its look-alikes among existing names
    are the store's question.

    :raises NameRefusedError: ``bad_name``, ``name_reserved`` or ``name_mixed``, saying why.
    """
    display = unicodedata.normalize("NFKC", raw).strip()
    if len(display) > MAX_NAME or not NAME_RE.fullmatch(display):
        raise NameRefusedError(
            "bad_name",
            f"name {display[:40]!r}: 1-{MAX_NAME} letters, digits, spaces, _ . - "
            "(starting and ending with a letter or digit)",
        )
    key = name_key(display)
    skeleton = name_skeleton(key)
    if key.startswith(RESERVED_PREFIXES) or skeleton.startswith(_RESERVED_SKELETONS):
        raise NameRefusedError(
            "name_reserved", f"name {display!r}: names starting with 'guest' are reserved"
        )
    if _MIXING.check(key):
        raise NameRefusedError(
            "name_mixed",
            f"name {display!r} mixes scripts (such as Latin and Cyrillic letters), invisible "
            "characters or digits of several kinds",
        )
    return Name(display, key, skeleton)
