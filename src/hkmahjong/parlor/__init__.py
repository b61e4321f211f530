"""麻雀館 the parlor's domain in plain Python: tables, seats, clocks, the jade (玉) ledger and the ports
(storage and notification interfaces) that the server's adapters implement.

No web framework, no SQL, no templates here (import-linter enforces it); tests use the in-memory
ports. See docs/server.md and docs/protocol.md.
"""

from __future__ import annotations

__all__: list[str] = []
