"""``hkmj admin``: 管理 the parlor administrator's commands (users, jade grants, tables, leagues).

Works on the parlor's database directly (the server may be running); imports only the standard
library until it runs, so ``hkmj`` works without the ``[server]`` extra.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from hkmahjong.argtypes import non_negative_float, non_negative_int, positive_int
from hkmahjong.server.cmd_serve import INSTALL_HINT
from hkmahjong.server.settings import Settings

NAME = "admin"
HELP = (
    "管理 admin: users, jade grants, tables (cancel), administrators, leagues, history "
    "(parlor server)"
)
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
    cancel = sub.add_parser(
        "cancel", help="cancel a table that is not over: refund its stakes and fees, log why"
    )
    cancel.add_argument("table", help="the table's id as `tables` lists it (or its number)")
    cancel.add_argument("--reason", required=True, help="why (kept in the table's audit)")
    cancel.add_argument(
        "--wait",
        type=non_negative_float,
        default=None,
        metavar="SECONDS",
        help="how long a running server has to cancel the table itself before it is rebuilt "
        "here and cancelled (default 8; 0: the server is known to be down)",
    )
    promote = sub.add_parser("promote", help="make a user an administrator")
    promote.add_argument("name")
    demote = sub.add_parser("demote", help="take a user's administrator rights")
    demote.add_argument("name")
    _register_league(
        sub.add_parser("league", help="聯賽 leagues: create, start, cancel, show, list")
    )
    save = sub.add_parser(
        "backup",
        help="back the database up to a new file, consistent while the server runs (SQLite: "
        "the online backup API; PostgreSQL: pg_dump)",
    )
    save.add_argument("dest", type=Path, help="the backup file to write (must not exist)")
    load = sub.add_parser(
        "restore",
        help="restore a backup into an empty database (a new data directory or database), "
        "then replay every table's log and check the ledger",
    )
    load.add_argument("src", type=Path, help="a file made by `hkmj admin backup`")
    load.add_argument(
        "--verify",
        choices=("all", "open"),
        default="all",
        help="replay the logs of every table (default) or of the open ones only (faster on a "
        "large parlor; the ledger is checked whole either way)",
    )
    history = sub.add_parser("history", help="戰績 history: backfill it from the tables' logs")
    hsub = history.add_subparsers(dest="history_command", metavar="ACTION", required=True)
    hsub.add_parser(
        "backfill",
        help="keep the hands, matches and ratings of tables that ended before the history was "
        "kept (from their logs; running it again changes nothing)",
    )


def _register_league(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="league_command", metavar="ACTION", required=True)
    make = sub.add_parser(
        "create", help="a new league, open for sign-up (docs/leagues.md)", description=(
            "Times are ISO 8601 (2026-05-01T20:00+08:00; no zone: UTC)."
        )
    )  # fmt: skip
    make.add_argument("name")
    rules = make.add_mutually_exclusive_group()
    rules.add_argument("--preset", default="parlor", help="a ruleset preset (default parlor)")
    rules.add_argument("--rules", type=Path, metavar="TOML", help="a house-rules TOML file")
    make.add_argument("--length", default="online", help="match length (default online, 四局)")
    make.add_argument("--fee", type=non_negative_int, default=0, help="entry fee 手續費 (jade)")
    make.add_argument("--stake", type=non_negative_int, default=0, help="stake 賭注 into the pool")
    make.add_argument(
        "--guarantee", type=non_negative_int, default=0, help="jade the house adds to the pool"
    )
    make.add_argument(
        "--fee-to-pool",
        type=non_negative_int,
        default=0,
        metavar="PERCENT",
        help="手續費撥入獎池: percent of the entry fees that joins the prize pool when the league "
        "finishes (0..100; a cancelled league refunds every fee)",
    )
    make.add_argument("--prizes", default="50,30,20", help="percent of the pool by rank")
    make.add_argument("--rounds", type=positive_int, default=3)
    make.add_argument("--fill", choices=("bots", "byes"), default="bots",
                      help="when the players are not a multiple of 4")  # fmt: skip
    make.add_argument("--bot-level", default="normal")
    make.add_argument("--min-players", type=positive_int, default=4)
    make.add_argument("--max-players", type=positive_int, default=64)
    make.add_argument("--opens", default=None, help="sign-up opens (default now)")
    make.add_argument("--closes", default=None, help="sign-up closes (default opens + hours)")
    make.add_argument("--signup-hours", type=positive_int, default=24)
    make.add_argument("--round-minutes", type=positive_int, default=60)
    make.add_argument("--seed", default=None, help="the seating draw's seed (default random)")
    begin = sub.add_parser("start", help="close sign-up and seat round 1")
    begin.add_argument("league", help="id or name")
    begin.add_argument("--early", action="store_true", help="start before sign-up closes")
    stop = sub.add_parser(
        "cancel", help="取消: 滾回 before the start (refund all), 滾出 after (seed 002)"
    )
    stop.add_argument("league", help="id or name")
    stop.add_argument("--reason", required=True, help="why (logged with the decision)")
    show = sub.add_parser("show", help="terms, entrants, standings, rounds, decisions")
    show.add_argument("league", help="id or name")
    listing = sub.add_parser("list", help="every league, newest first")
    listing.add_argument(
        "--status", choices=("open", "running", "finished", "rolled_back", "rolled_out")
    )
    result = sub.add_parser("result", help="record a match's table points by hand")
    result.add_argument("league", help="id or name")
    result.add_argument("round", type=positive_int)
    result.add_argument("table", type=positive_int)
    result.add_argument("points", help="four table points in seat order, e.g. 30,10,-15,-25")


def run(args: argparse.Namespace) -> int:
    """Run one admin action; returns 0, or 2 with a message on stderr."""
    try:
        from hkmahjong.errors import MahjongError
        from hkmahjong.server import admin
        from hkmahjong.server.store import Store
    except ImportError as exc:
        print(
            f"{INSTALL_HINT.replace('serve', 'admin', 1)}; missing module: {exc.name}",
            file=sys.stderr,
        )
        return 2
    settings = Settings.from_env(data_dir=args.data_dir, db_url=args.db)
    if args.admin_command in ("backup", "restore"):
        return _backup(settings, args)
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
                price = f"stake {t.stake}" if t.stake else "no stake"
                if t.fee:
                    price += f" + fee {t.fee}"
                print(
                    f"{t.id:>6}  {t.public_id:<14} {t.kind:<8} {t.status:<10} seats {t.seats}/4"
                    f"  {price}{'  private' if t.private else ''}  {t.created_at:%Y-%m-%d %H:%M}"
                )
        elif args.admin_command == "league":
            print(_league(store, args))
        elif args.admin_command == "history":
            filled = admin.backfill_history(store)
            print(
                f"history backfilled: {filled.hands} hand(s) and {filled.matches} match(es) kept "
                f"from {filled.rebuilt} table(s) rebuilt of {filled.tables} over"
            )
            for public_id, why in filled.skipped:
                print(f"  skipped {public_id}: {why}")
        elif args.admin_command == "cancel":
            wait = admin.CANCEL_WAIT_S if args.wait is None else args.wait
            done = admin.cancel_table(store, args.table, args.reason, wait_s=wait)
            paid = done.refunded or "nothing had been paid in"
            print(f"table {done.public_id} cancelled ({done.reason}); refunded: {paid}")
        else:
            user = admin.set_admin(store, args.name, args.admin_command == "promote")
            print(f"{user.name}: {'administrator' if user.is_admin else 'player'}")
    except MahjongError as exc:
        print(f"hkmj admin: {exc}", file=sys.stderr)
        return 2
    finally:
        store.close()
    return 0


def _backup(settings: Settings, args: argparse.Namespace) -> int:
    """``hkmj admin backup DEST`` / ``restore SRC`` (docs/operations.md, *Backups*)."""
    from hkmahjong.server.backup import BackupError, backup, restore

    data_dir = settings.data_dir if settings.db_url is None else None
    try:
        if args.admin_command == "backup":
            print(backup(settings.database_url, args.dest, data_dir))
            return 0
        done = restore(settings.database_url, args.src, data_dir, open_only=args.verify == "open")
    except BackupError as exc:
        print(f"hkmj admin {args.admin_command}: {exc}", file=sys.stderr)
        return 2
    print(f"restored {args.src} (schema {done.revision}); {done.verified.text}")
    return 0


def _league(store: object, args: argparse.Namespace) -> str:
    """Run one ``hkmj admin league`` action; the text to print."""
    from hkmahjong.server import admin
    from hkmahjong.server.store import Store

    assert isinstance(store, Store)
    desk = admin.league_desk(store)
    action = args.league_command
    if action == "create":
        league = admin.create_league(
            store,
            args.name,
            preset=args.preset,
            rules_file=args.rules,
            opens=args.opens,
            closes=args.closes,
            signup_hours=args.signup_hours,
            prizes=args.prizes,
            seed=args.seed,
            length=args.length,
            entry_fee=args.fee,
            stake=args.stake,
            guarantee=args.guarantee,
            fee_to_pool=args.fee_to_pool,
            rounds=args.rounds,
            fill=args.fill,
            bot_level=args.bot_level,
            min_players=args.min_players,
            max_players=args.max_players,
            round_minutes=args.round_minutes,
        )
        return f"created league {league.id} {league.config.name!r}: {league.log[-1].reason}"
    if action == "list":
        rows = [lg for lg in desk.store.leagues() if args.status in (None, lg.status)]
        lines = [
            f"{'id':>5}  {'name':<24} {'status':<11} {'players':>7}  {'pool':>8}  sign-up closes"
        ]
        for lg in rows:
            pool = lg.prize_pool
            lines.append(
                f"{lg.id:>5}  {lg.config.name:<24} {lg.status:<11} {len(lg.active):>7}  "
                f"{pool:>8}  {lg.config.signup_closes:%Y-%m-%d %H:%M} UTC"
            )
        return "\n".join(lines)
    league = desk.lookup(args.league)
    if action == "start":
        league = desk.start(league.id, early=args.early)
        return f"started {league.config.name!r}: {league.log[-2].reason}; {league.log[-1].reason}"
    if action == "cancel":
        league = desk.cancel(league.id, args.reason)
        return f"{league.config.name!r} {league.status}: {league.log[-1].reason}"
    if action == "result":
        try:
            points = [int(p) for p in args.points.replace(" ", "").split(",")]
        except ValueError:
            raise admin.AdminError(
                f"points {args.points!r}: expected four whole numbers, e.g. 30,10,-15,-25"
            ) from None
        league = desk.record(league.id, args.round, args.table, points)
        return f"{league.config.name!r}: {league.log[-1].kind}: {league.log[-1].reason}"
    return admin.league_report(store, league)
