"""``rummykit admin``: a host's moderation of a server's database (docs/hosting.md,
"Moderation"), run beside the server (or with it stopped).

- ``reports [--all]``: the reports players made, newest first (``--all``: handled too);
  ``handled ID`` marks one handled;
- ``mute`` / ``ban`` (``--account NAME`` or ``--address IP``, ``--for 7d``,
  ``--reason``): a muted player's chat is refused, a banned one cannot sign in, take a
  seat, make a table or seek a game; ``unmute`` / ``unban`` lift them;
- ``remove-chat TABLE N``: the chat message is never sent again (a table made before
  ids were kept from starting with ``-`` is typed after ``--``: ``remove-chat -- -Ab1 3``);
- ``close-table TABLE``: the table is set aside (no one can play at it);
- ``log``: every action above, newest first.

Every action is written to the host's log. A server notices a mute or ban within 5
seconds; a closed table is let go by the process serving it on PostgreSQL at once, on
SQLite when it is next loaded (a restart, or the table's idle time).

Exit 0 when done, 2 on bad input (no such account, table or message).
"""

from __future__ import annotations

import argparse
import asyncio
import re
import sys
import time

from rummykit.cli.serve import default_db
from rummykit.cli.words import Commands, speaker
from rummykit.i18n import DEFAULT
from rummykit.server.moderation import address_key, until_text
from rummykit.server.presence import LetGo, encode
from rummykit.server.store import open_store
from rummykit.server.store.accounts import AccountStore
from rummykit.server.store.base import Store
from rummykit.server.store.moderation import LogEntry, ModerationStore, Sanction, new_id

__all__ = ["add_parser", "run"]

_SPANS = {"s": 1, "m": 60, "h": 3600, "d": 86_400, "w": 604_800}


def span(text: str) -> float:
    """Seconds in ``30m``, ``12h``, ``7d``, ``2w`` (ValueError otherwise)."""
    found = re.fullmatch(r"(\d{1,6})([smhdw])", text.strip())
    if found is None:
        raise ValueError(f"{text!r} is no time: write 30m, 12h, 7d or 2w")
    return int(found.group(1)) * _SPANS[found.group(2)]


def add_parser(sub: Commands, lang: str = DEFAULT) -> None:
    """Register the sub-command, its help in ``lang``."""
    _ = speaker(lang)
    p = sub.add_parser(
        "admin",
        help=_("moderate a server: reports, mutes, bans, chat, tables"),
        description=_("Moderate a server's database (docs/hosting.md, Moderation)."),
    )
    p.add_argument("--db", metavar="URL", help=_("the server's database (as serve's --db)"))
    actions = p.add_subparsers(dest="admin_action", metavar="ACTION")
    reports = actions.add_parser("reports", help=_("the reports players made"))
    reports.add_argument("--all", action="store_true", help=_("handled ones too"))
    handled = actions.add_parser("handled", help=_("mark a report handled"))
    handled.add_argument("report")
    for verb, what in (
        ("mute", _("refuse a player's chat for a time")),
        ("ban", _("keep a player out for a time")),
        ("unmute", _("lift a mute")),
        ("unban", _("lift a ban")),
    ):
        a = actions.add_parser(verb, help=what)
        who = a.add_mutually_exclusive_group(required=True)
        who.add_argument("--account", metavar="NAME", help=_("an account, by its name"))
        who.add_argument("--address", metavar="IP", help=_("a client address"))
        if verb in ("mute", "ban"):
            a.add_argument("--for", dest="span", default="7d", help=_("how long: 30m, 12h, 7d"))
            a.add_argument("--reason", default="", help=_("why (kept in the log)"))
    chat = actions.add_parser("remove-chat", help=_("remove a chat message"))
    chat.add_argument("table")
    chat.add_argument("n", type=int)
    close = actions.add_parser("close-table", help=_("set a table aside"))
    close.add_argument("table")
    actions.add_parser("log", help=_("the host's actions, newest first"))
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Carry out the action; 0 when done, 2 on bad input."""
    if not args.admin_action:
        print("rummykit admin: say what to do (reports, mute, ban, ... ; --help)", file=sys.stderr)
        return 2
    store = open_store(args.db or default_db())
    try:
        return asyncio.run(_run(store, args))
    except ValueError as exc:
        print(f"rummykit admin: {exc}", file=sys.stderr)
        return 2


async def _account(store: Store, name: str) -> str:
    found = await AccountStore(store).named(name)
    if found is None:
        raise ValueError(f"no account is called {name!r}")
    return found.id


async def _run(store: Store, args: argparse.Namespace) -> int:
    await store.open()
    try:
        return await _act(store, ModerationStore(store), args)
    finally:
        await store.close()


async def _act(store: Store, db: ModerationStore, args: argparse.Namespace) -> int:
    now = time.time()
    action = args.admin_action

    async def logged(target: str, detail: str) -> None:
        await db.log(LogEntry(now, action, target, detail))
        print(f"{action} {target}: {detail}")

    if action == "reports":
        for r in await db.reports(200, open_only=not args.all):
            where = (
                f"table {r.table}" + (f" chat #{r.chat_n}" if r.chat_n else "") if r.table else ""
            )
            print(f"{r.id}  {until_text(r.created)}  {r.name or '-'}  {where}  {r.reason}")
        return 0
    if action == "log":
        for e in await db.log_entries(200):
            print(f"{until_text(e.at)}  {e.action}  {e.target}  {e.detail}")
        return 0
    if action == "handled":
        await db.handle(args.report, now)
        await logged(args.report, "handled")
        return 0
    if action in ("mute", "ban", "unmute", "unban"):
        account = None if args.account is None else await _account(store, args.account)
        address = None if args.address is None else address_key(args.address)
        target = f"account {args.account}" if args.account else f"address {args.address}"
        if action in ("mute", "ban"):
            until = now + span(args.span)
            reason = args.reason or "-"
            await db.sanction(Sanction(new_id(), action, account, address, until, reason), now)
            await logged(target, f"until {until_text(until)}: {reason}")
        else:
            lifted = await db.lift(action.removeprefix("un"), account, address, now)
            await logged(target, f"{lifted} lifted")
        return 0
    if action == "remove-chat":
        if not await db.remove_chat(args.table, args.n, now):
            raise ValueError(f"table {args.table} has no chat message {args.n}")
        await logged(f"table {args.table}", f"chat message {args.n} removed")
        return 0
    if action == "close-table":
        if not await db.close_table(args.table, "closed by the host"):
            raise ValueError(f"no table {args.table}")
        await store.announce(encode(LetGo(args.table, "admin")))
        await logged(f"table {args.table}", "closed")
        return 0
    raise ValueError(f"no action {action!r}")
