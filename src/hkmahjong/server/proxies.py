"""代理 who is at the other end: the client's address, through the proxies the operator trusts.

``X-Forwarded-For`` is anyone's to write, so it is believed only from the proxies the operator
names (``hkmj serve --forwarded-allow-ips`` / ``HKMJ_TRUSTED_PROXIES``: addresses or networks,
comma-separated; none by default — uvicorn's own default, trusting 127.0.0.1, is turned off, so a
client on the same machine cannot pick its address either). Behind trusted proxies the client is
the last address of the header that is not itself a trusted proxy (each proxy appends the address
it saw). Every per-address limit (logins, sign-ups, guests, spectators) counts that address.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Sequence

from starlette.types import ASGIApp, Receive, Scope, Send

from hkmahjong.server.settings import parse_networks

__all__ = ["ClientAddress", "TrustedProxies", "parse_networks"]

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


class TrustedProxies:
    """The proxies whose ``X-Forwarded-For`` is believed."""

    def __init__(self, networks: Sequence[str] = ()) -> None:
        self.networks: tuple[Network, ...] = tuple(ipaddress.ip_network(n) for n in networks)

    def trusts(self, host: str) -> bool:
        """Whether ``host`` (an address) is one of the trusted proxies."""
        if not self.networks:
            return False
        try:
            address = ipaddress.ip_address(host.strip().strip("[]"))
        except ValueError:
            return False
        return any(address in network for network in self.networks)

    def client(self, peer: str, forwarded_for: str | None) -> str:
        """The client's address: the peer, unless it is a trusted proxy that says whom for."""
        if not forwarded_for or not self.trusts(peer):
            return peer
        hops = [hop.strip() for hop in forwarded_for.split(",") if hop.strip()]
        for hop in reversed(hops):
            if not self.trusts(hop):
                return hop[:64]
        return hops[0][:64] if hops else peer


class ClientAddress:
    """Sets ``scope["client"]`` of every request and websocket to the client's address
    (:meth:`TrustedProxies.client`); without trusted proxies it leaves the scope as it is."""

    def __init__(self, app: ASGIApp, proxies: TrustedProxies) -> None:
        self.app = app
        self.proxies = proxies

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket") and self.proxies.networks:
            peer = scope.get("client")
            if peer is not None:
                forwarded = None
                for name, value in scope.get("headers", ()):
                    if name == b"x-forwarded-for":
                        text = value.decode("latin-1")
                        forwarded = text if forwarded is None else f"{forwarded},{text}"
                host = self.proxies.client(peer[0], forwarded)
                if host != peer[0]:
                    scope = {**scope, "client": (host, 0)}
        await self.app(scope, receive, send)
