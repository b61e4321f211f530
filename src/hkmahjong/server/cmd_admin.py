"""``hkmj admin``: 管理 the parlor administrator's commands (users, jade grants, tables).

Works on the parlor's database directly (the server may be running); imports only the standard
library until it runs, so ``hkmj`` works without the ``[server]`` extra.
"""

from __future__ import annotations

import argparse
import sys

from hkmahjong.server.cmd_serve import INSTALL_HINT
from hkmahjong.server.settings import Settings

NAME = "admin"
HELP = "管理 admin: list users and tables, grant jade, make an administrator (parlor server)"
ORDER = 6


def register(parser: argparse.ArgumentParser) -> None:
    """Add the ``admin`` subcommands."""
    parser.add_argument("--data-dir", default=None, help="the server's data directory")
    parser.add_argument("--db", default=None, metavar="URL", help="the server's database URL")
    sub = parser.add_subparsers(dest="admin_command", metavar="ACTION", required=True)
    users = sub.add_parser("users", help="list users with their jade (newest first)")
    users.add_argument("--guests", action="store_true", help="include guests")
    users.add_argument("--limit", type=int, default=100)
    give = sub.add_parser("grant", help="give a user jade from the grants account")
    give.add_argument("name")
    give.add_argument("amount", type=int)
    give.add_argument("--memo", default="", help="why (kept with the transaction)")
    tables = sub.add_parser("tables", help="list tables (newest first)")
    tables.add_argument("--status", default=None, help="only tables with this status")
    tables.add_argument("--limit", type=int, default=100)
    promote = sub.add_parser("promote", help="make a user an administrator")
    promote.add_argument("name")
    demote = sub.add_parser("demote", help="take a user's administrator rights")
    demote.add_argument("name")


def run(args: argparse.Namespace) -> int:
    """Run one admin action; returns 0, or 2 with a message on stderr."""
    try:
        from hkmahjong.server import admin
        from hkmahjong.server.store import Store
    except ImportError as exc:
        print(
            f"{INSTALL_HINT.replace('serve', 'admin', 1)}; missing module: {exc.name}",
            file=sys.stderr,
        )
        return 2
    settings = Settings.from_env(data_dir=args.data_dir, db_url=args.db)
    store = Store.open(settings.database_url)
    try:
        if args.admin_command == "users":
            rows = admin.list_users(store, guests=args.guests, limit=args.limit)
            print(f"{'id':>6}  {'name':<24} {'jade':>10}  flags  created")
            for u in rows:
                flags = ("admin " if u.is_admin else "") + ("guest" if u.is_guest else "")
                print(
                    f"{u.id:>6}  {u.name:<24} {u.jade:>10}  {flags:<5}  {u.created_at:%Y-%m-%d %H:%M}"
                )
        elif args.admin_command == "grant":
            balance = admin.grant_jade(store, args.name, args.amount, args.memo)
            print(f"granted {args.amount} jade (玉) to {args.name}: balance {balance}")
        elif args.admin_command == "tables":
            for t in admin.list_tables(store, status=args.status, limit=args.limit):
                print(
                    f"{t.id:>6}  {t.public_id:<14} {t.kind:<8} {t.status:<10} seats {t.seats}/4"
                    f"{'  private' if t.private else ''}  {t.created_at:%Y-%m-%d %H:%M}"
                )
        else:
            user = admin.set_admin(store, args.name, args.admin_command == "promote")
            print(f"{user.name}: {'administrator' if user.is_admin else 'player'}")
    except admin.AdminError as exc:
        print(f"hkmj admin: {exc}", file=sys.stderr)
        return 2
    finally:
        store.close()
    return 0
