"""設定 the parlor server's settings: where its data lives, its database, address, secret and clocks.

One frozen tree: :class:`Settings`, holding the tables' clocks (the parlor's own
:class:`~hkmahjong.parlor.clocks.ClockSettings`, online and practice), the heap keeper's
:class:`HeapSettings` and the league sync interval. :meth:`Settings.from_env` reads it from
``hkmj serve`` options and ``HKMJ_*`` environment variables (docs/server.md) — every number
through the one parser :func:`~hkmahjong.parlor.environ.env_number`, every failure one
:class:`SettingsError` naming the variable, what it held and what is allowed. No third-party
import, so ``hkmj serve`` can report a missing ``[server]`` extra cleanly.
"""

from __future__ import annotations

import gc
import ipaddress
import json
import os
import secrets
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path

from hkmahjong.parlor.clocks import PRACTICE_CLOCKS, ClockSettings
from hkmahjong.parlor.environ import SettingsError, env_number

__all__ = [
    "HeapSettings",
    "Settings",
    "SettingsError",
    "default_data_dir",
    "parse_networks",
]


def default_data_dir(env: Mapping[str, str] | None = None) -> Path:
    """The data directory when none is given: ``$HKMJ_DATA_DIR``, else ``$XDG_DATA_HOME/hkmahjong``
    (``~/.local/share/hkmahjong``)."""
    env = os.environ if env is None else env
    if env.get("HKMJ_DATA_DIR"):
        return Path(env["HKMJ_DATA_DIR"]).expanduser()
    base = env.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base).expanduser() / "hkmahjong"


def parse_networks(text: str | Iterable[str]) -> tuple[str, ...]:
    """Addresses or networks (``10.0.0.0/8``, ``127.0.0.1``, ``::1``), checked and normalised.

    :raises ValueError: naming the one that is neither.
    """
    items = text.split(",") if isinstance(text, str) else list(text)
    out = []
    for item in (i.strip() for i in items):
        if not item:
            continue
        try:
            out.append(str(ipaddress.ip_network(item, strict=False)))
        except ValueError:
            raise ValueError(
                f"{item!r} is not an IP address or network (e.g. 127.0.0.1, 10.0.0.0/8, ::1)"
            ) from None
    return tuple(out)


@dataclass(frozen=True)
class HeapSettings:
    """How often the heap keeper (``hkmahjong.server.heap``) freezes the survivors and sweeps
    everything (seconds; 0 = off)."""

    freeze_s: float = 0.25
    sweep_s: float = 900.0
    young: int = 10_000
    """CPython's first threshold (allocations between young collections; its default is 700)."""
    trim_s: float = 10.0
    """How often freed memory is given back to the operating system (``malloc_trim``; 0: never)."""

    @staticmethod
    def from_env(env: Mapping[str, str] | None = None) -> HeapSettings:
        """From ``HKMJ_GC_FREEZE_SECONDS``, ``HKMJ_GC_SWEEP_SECONDS``, ``HKMJ_GC_YOUNG`` and
        ``HKMJ_MALLOC_TRIM_SECONDS``.

        :raises SettingsError: naming the variable, when one is not a number in range.
        """

        def seconds(name: str, default: str, low: float, high: float) -> float:
            return env_number(
                name, default, low=low, high=high, seconds=True, zero_off=True, env=env
            )

        young = env_number("HKMJ_GC_YOUNG", "10000", low=100, high=10_000_000, env=env)
        return HeapSettings(
            freeze_s=seconds("HKMJ_GC_FREEZE_SECONDS", "0.25", 0.05, 60.0),
            sweep_s=seconds("HKMJ_GC_SWEEP_SECONDS", "900", 1.0, 86400.0),
            young=int(young),
            trim_s=seconds("HKMJ_MALLOC_TRIM_SECONDS", "10", 0.05, 86400.0),
        )

    def apply(self) -> None:
        """Set the collector's first threshold to :attr:`young` (when the keeper runs)."""
        if self.freeze_s > 0:
            _, second, third = gc.get_threshold()
            gc.set_threshold(self.young, second, third)


_NUMBERS: tuple[tuple[str, str, float, float, bool], ...] = (
    # (field, variable, low, high, seconds): each read by env_number
    ("port", "HKMJ_PORT", 0, 65535, False),
    ("starting_grant", "HKMJ_STARTING_GRANT", 0, 10**12, False),
    ("max_spectators", "HKMJ_MAX_SPECTATORS", 0, 10_000, False),
    ("login_attempts", "HKMJ_LOGIN_ATTEMPTS", 1, 10**6, False),
    ("address_attempts", "HKMJ_ADDRESS_ATTEMPTS", 1, 10**6, False),
    ("signups_per_hour", "HKMJ_SIGNUPS_PER_HOUR", 1, 10**6, False),
    ("max_open_tables", "HKMJ_MAX_OPEN_TABLES", 1, 10_000, False),
    ("max_guest_tables", "HKMJ_MAX_GUEST_TABLES", 1, 10_000, False),
    ("waiting_table_s", "HKMJ_WAITING_TABLE_SECONDS", 0.001, 10**7, True),
    ("spectators_per_address", "HKMJ_SPECTATORS_PER_ADDRESS", 1, 10_000, False),
    ("league_sync_s", "HKMJ_LEAGUE_SYNC_SECONDS", 0.05, 3600, True),
)


def _table_clocks(text: str, base: ClockSettings) -> ClockSettings:
    """``base`` with the fields of ``HKMJ_TABLE_CLOCKS`` (a JSON object of clock fields)."""
    try:
        fields = json.loads(text)
        if not isinstance(fields, dict):
            raise TypeError("not a JSON object")
        return ClockSettings.from_json({**base.to_json(), **fields})
    except (ValueError, TypeError) as exc:
        raise SettingsError(
            f"HKMJ_TABLE_CLOCKS={text!r}: expected a JSON object of clock fields in ms "
            f"({', '.join(ClockSettings().to_json())}): {exc}"
        ) from None


@dataclass(frozen=True)
class Settings:
    """設定 everything the server needs to start; ``db_url=None`` means SQLite under ``data_dir``."""

    data_dir: Path = field(default_factory=default_data_dir)
    db_url: str | None = None
    host: str = "127.0.0.1"
    port: int = 8000
    secret: str | None = None
    starting_grant: int = 10_000
    session_days: int = 30
    secure_cookies: bool = False
    max_body_bytes: int = 64 * 1024
    login_attempts: int = 10
    """Login attempts one address may make for one name in ``login_window_s`` (a success
    clears them); no limit is per name alone, so nobody can lock a name for its owner."""
    address_attempts: int = 30
    """Login attempts one address may make in ``login_window_s``, whatever the names."""
    login_window_s: float = 300.0
    signups_per_hour: int = 10
    """Accounts one address may register in an hour."""
    guests_per_window: int = 60
    guest_window_s: float = 600.0
    clocks: ClockSettings = field(default_factory=ClockSettings)
    """The clocks of every new online table (docs/rules.md §13, seed 002)."""
    practice_clocks: ClockSettings = PRACTICE_CLOCKS
    """The clocks of every new practice table."""
    heap: HeapSettings = field(default_factory=HeapSettings)
    """The heap keeper's (``hkmj serve`` runs one)."""
    league_sync_s: float = 5.0
    """How often league tables are synced with their leagues (seconds)."""
    max_spectators: int = 50
    """旁觀 spectators one table admits at most."""
    max_open_tables: int = 6
    """Open tables (waiting, playing, paused) a registered player may sit at."""
    max_guest_tables: int = 2
    """Open tables a guest may sit at."""
    waiting_table_s: float = 1800.0
    """An online table still waiting for players after this many seconds is cancelled."""
    spectators_per_address: int = 3
    """Spectator sockets one address may hold at one table."""
    trusted_proxies: tuple[str, ...] = ()
    """Proxies whose ``X-Forwarded-For`` is believed (addresses or networks; none by default:
    :mod:`hkmahjong.server.proxies`)."""

    def __post_init__(self) -> None:
        if not 0 <= self.port <= 65535:
            raise SettingsError(f"port = {self.port}: expected 0..65535")
        if self.starting_grant < 0:
            raise SettingsError(f"starting_grant = {self.starting_grant}: expected >= 0")
        if self.session_days < 1:
            raise SettingsError(f"session_days = {self.session_days}: expected >= 1")
        if self.max_body_bytes < 1024:
            raise SettingsError(f"max_body_bytes = {self.max_body_bytes}: expected >= 1024")
        if (
            min(self.login_attempts, self.address_attempts, self.signups_per_hour) < 1
            or self.login_window_s <= 0
        ):
            raise SettingsError(
                "login_attempts, address_attempts, signups_per_hour and login_window_s must be "
                "positive"
            )
        try:
            object.__setattr__(self, "trusted_proxies", parse_networks(self.trusted_proxies))
        except ValueError as exc:
            raise SettingsError(f"trusted proxies: {exc}") from None
        if self.guests_per_window < 1 or self.guest_window_s <= 0:
            raise SettingsError("guests_per_window and guest_window_s must be positive")
        if min(self.max_open_tables, self.max_guest_tables, self.spectators_per_address) < 1:
            raise SettingsError(
                "max_open_tables, max_guest_tables and spectators_per_address must be at least 1"
            )
        if self.waiting_table_s <= 0:
            raise SettingsError(f"waiting_table_s = {self.waiting_table_s}: expected > 0")
        if not 0.05 <= self.league_sync_s <= 3600:
            raise SettingsError(f"league_sync_s = {self.league_sync_s}: expected 0.05..3600")
        if not 0 <= self.max_spectators <= 10_000:
            raise SettingsError(f"max_spectators = {self.max_spectators}: expected 0..10000")
        if self.db_url is not None and not self.db_url.startswith(("sqlite", "postgresql")):
            raise SettingsError(
                f"db_url = {self.db_url!r}: expected sqlite:///FILE or postgresql://USER@HOST/DB"
            )

    @property
    def database_url(self) -> str:
        """The SQLAlchemy URL: ``db_url`` with the psycopg 3 driver named, or the SQLite file."""
        if self.db_url is None:
            return f"sqlite:///{self.data_dir / 'parlor.db'}"
        for prefix in ("postgresql://", "postgres://"):
            if self.db_url.startswith(prefix):
                return "postgresql+psycopg://" + self.db_url[len(prefix) :]
        return self.db_url

    @property
    def url(self) -> str:
        """The address to open in a browser."""
        host = "127.0.0.1" if self.host in ("0.0.0.0", "::", "") else self.host
        if ":" in host:
            host = f"[{host}]"
        return f"http://{host}:{self.port}/"

    def with_secret(self) -> Settings:
        """These settings with a secret: the given one, else the data directory's ``secret`` file
        (created with a random value on first start, readable by its owner only)."""
        if self.secret:
            return self
        self.data_dir.mkdir(parents=True, exist_ok=True)
        path = self.data_dir / "secret"
        if not path.exists():
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "w", encoding="ascii") as out:
                out.write(secrets.token_urlsafe(32))
        value = path.read_text(encoding="ascii").strip()
        if len(value) < 16:
            raise SettingsError(f"{path}: the secret is shorter than 16 characters")
        return replace(self, secret=value)

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, **overrides: object) -> Settings:
        """Settings from ``HKMJ_DB_URL``, ``HKMJ_HOST``, ``HKMJ_PORT``, ``HKMJ_SECRET``,
        ``HKMJ_DATA_DIR``, ``HKMJ_STARTING_GRANT``, ``HKMJ_SECURE_COOKIES``,
        ``HKMJ_MAX_SPECTATORS``, ``HKMJ_TRUSTED_PROXIES`` (comma-separated),
        ``HKMJ_LOGIN_ATTEMPTS``, ``HKMJ_ADDRESS_ATTEMPTS``, ``HKMJ_SIGNUPS_PER_HOUR``,
        ``HKMJ_MAX_OPEN_TABLES``, ``HKMJ_MAX_GUEST_TABLES``, ``HKMJ_WAITING_TABLE_SECONDS``,
        ``HKMJ_SPECTATORS_PER_ADDRESS`` (docs/security.md, *Abuse limits*),
        ``HKMJ_LEAGUE_SYNC_SECONDS``, ``HKMJ_TABLE_CLOCKS`` (a JSON object of clock fields for
        every new table, online and practice: tests, benchmarks) and the heap keeper's
        ``HKMJ_GC_*`` / ``HKMJ_MALLOC_TRIM_SECONDS``; ``overrides`` that are not None win.

        :raises SettingsError: naming the variable, when one does not parse or is out of range.
        """
        env = os.environ if env is None else env
        values: dict[str, object] = {"data_dir": default_data_dir(env)}
        for key, name in (
            ("db_url", "HKMJ_DB_URL"),
            ("host", "HKMJ_HOST"),
            ("secret", "HKMJ_SECRET"),
        ):
            if env.get(name):
                values[key] = env[name]
        for key, name, low, high, secs in _NUMBERS:
            if env.get(name):
                values[key] = env_number(name, "", low=low, high=high, seconds=secs, env=env)
        if env.get("HKMJ_TRUSTED_PROXIES"):
            values["trusted_proxies"] = tuple(env["HKMJ_TRUSTED_PROXIES"].split(","))
        if env.get("HKMJ_SECURE_COOKIES"):
            values["secure_cookies"] = env["HKMJ_SECURE_COOKIES"].lower() in ("1", "true", "yes")
        if env.get("HKMJ_TABLE_CLOCKS"):
            text = env["HKMJ_TABLE_CLOCKS"]
            values["clocks"] = _table_clocks(text, ClockSettings())
            values["practice_clocks"] = _table_clocks(text, PRACTICE_CLOCKS)
        values["heap"] = HeapSettings.from_env(env)
        values.update({k: v for k, v in overrides.items() if v is not None})
        if "data_dir" in overrides and overrides["data_dir"] is not None:
            values["data_dir"] = Path(str(overrides["data_dir"])).expanduser()
        return cls(**values)  # type: ignore[arg-type]
