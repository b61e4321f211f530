"""設定 the parlor server's settings: where its data lives, its database, address, secret and clocks.

Plain data, read from ``hkmj serve`` options and ``HKMJ_*`` environment variables (docs/server.md);
no third-party import, so ``hkmj serve`` can report a missing ``[server]`` extra cleanly.
"""

from __future__ import annotations

import ipaddress
import os
import secrets
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path

from hkmahjong.errors import MahjongError

__all__ = [
    "ClockSettings",
    "Settings",
    "SettingsError",
    "default_data_dir",
    "parse_networks",
]


class SettingsError(MahjongError):
    """A server setting that cannot be used (names the setting and what is allowed)."""


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
class ClockSettings:
    """時鐘 the default clocks of a table, in milliseconds (docs/rules.md §13, seed 002)."""

    turn_ms: int = 10_000
    bank_ms: int = 60_000
    claim_ms: int = 6_000
    grace_ms: int = 15_000
    discard_delay_ms: int = 600


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
        ``HKMJ_SPECTATORS_PER_ADDRESS`` (docs/security.md, *Abuse limits*); ``overrides`` that
        are not None win.

        :raises SettingsError: when a variable does not parse.
        """
        env = os.environ if env is None else env
        values: dict[str, object] = {"data_dir": default_data_dir(env)}
        for key, name, kind in (
            ("db_url", "HKMJ_DB_URL", str),
            ("host", "HKMJ_HOST", str),
            ("port", "HKMJ_PORT", int),
            ("secret", "HKMJ_SECRET", str),
            ("starting_grant", "HKMJ_STARTING_GRANT", int),
            ("max_spectators", "HKMJ_MAX_SPECTATORS", int),
            ("login_attempts", "HKMJ_LOGIN_ATTEMPTS", int),
            ("address_attempts", "HKMJ_ADDRESS_ATTEMPTS", int),
            ("signups_per_hour", "HKMJ_SIGNUPS_PER_HOUR", int),
            ("max_open_tables", "HKMJ_MAX_OPEN_TABLES", int),
            ("max_guest_tables", "HKMJ_MAX_GUEST_TABLES", int),
            ("waiting_table_s", "HKMJ_WAITING_TABLE_SECONDS", float),
            ("spectators_per_address", "HKMJ_SPECTATORS_PER_ADDRESS", int),
        ):
            raw = env.get(name)
            if raw:
                try:
                    values[key] = kind(raw)
                except ValueError:
                    raise SettingsError(f"{name} = {raw!r}: expected {kind.__name__}") from None
        if env.get("HKMJ_TRUSTED_PROXIES"):
            values["trusted_proxies"] = tuple(env["HKMJ_TRUSTED_PROXIES"].split(","))
        if env.get("HKMJ_SECURE_COOKIES"):
            values["secure_cookies"] = env["HKMJ_SECURE_COOKIES"].lower() in ("1", "true", "yes")
        values.update({k: v for k, v in overrides.items() if v is not None})
        if "data_dir" in overrides and overrides["data_dir"] is not None:
            values["data_dir"] = Path(str(overrides["data_dir"])).expanduser()
        return cls(**values)  # type: ignore[arg-type]
