"""The schema of the server's database, shared by both backends: its migrations, one
numbered tuple of statements each, applied in order at start, and the statements both run."""

from __future__ import annotations

__all__ = ["DELETES", "MIGRATIONS"]

MIGRATIONS: tuple[tuple[str, ...], ...] = (
    (
        "CREATE TABLE game_tables (id TEXT PRIMARY KEY, game TEXT NOT NULL,"
        " settings TEXT NOT NULL, created DOUBLE PRECISION NOT NULL)",
        "CREATE TABLE table_events (table_id TEXT NOT NULL REFERENCES game_tables (id),"
        " version INTEGER NOT NULL, kind TEXT NOT NULL, data TEXT NOT NULL,"
        " created DOUBLE PRECISION NOT NULL, PRIMARY KEY (table_id, version))",
    ),
    (
        "ALTER TABLE game_tables ADD COLUMN status TEXT NOT NULL DEFAULT 'waiting'",
        "ALTER TABLE game_tables ADD COLUMN version INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE game_tables ADD COLUMN summary TEXT",
        "ALTER TABLE game_tables ADD COLUMN updated DOUBLE PRECISION NOT NULL DEFAULT 0",
        "ALTER TABLE game_tables ADD COLUMN wake_at DOUBLE PRECISION",
        "ALTER TABLE game_tables ADD COLUMN base INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE game_tables ADD COLUMN presence TEXT",
        "ALTER TABLE game_tables ADD COLUMN broken TEXT",
        "ALTER TABLE game_tables ADD COLUMN creator TEXT",
        "ALTER TABLE game_tables ADD COLUMN served_by TEXT",
        "ALTER TABLE game_tables ADD COLUMN lock_hi BIGINT NOT NULL DEFAULT 0",
        "ALTER TABLE game_tables ADD COLUMN lock_lo BIGINT NOT NULL DEFAULT 0",
        "CREATE INDEX game_tables_listed ON game_tables (status, created)",
        "CREATE INDEX game_tables_created ON game_tables (created)",
        "CREATE INDEX game_tables_wake ON game_tables (wake_at)",
        "CREATE TABLE table_chat (table_id TEXT NOT NULL, n INTEGER NOT NULL,"
        " seat INTEGER, name TEXT, text TEXT NOT NULL, at DOUBLE PRECISION NOT NULL,"
        " PRIMARY KEY (table_id, n))",
        "CREATE TABLE table_units (table_id TEXT NOT NULL, unit INTEGER NOT NULL,"
        " record TEXT NOT NULL, PRIMARY KEY (table_id, unit))",
    ),
    (
        "CREATE TABLE table_games (table_id TEXT NOT NULL, game INTEGER NOT NULL,"
        " ended DOUBLE PRECISION NOT NULL, result TEXT, record TEXT NOT NULL,"
        " PRIMARY KEY (table_id, game))",
    ),
    (
        "CREATE TABLE accounts (id TEXT PRIMARY KEY, name TEXT, skeleton TEXT UNIQUE,"
        " password TEXT, created DOUBLE PRECISION NOT NULL, deleted DOUBLE PRECISION)",
        "CREATE TABLE account_names (key TEXT PRIMARY KEY,"
        " account TEXT NOT NULL REFERENCES accounts (id))",
        "CREATE INDEX account_names_account ON account_names (account)",
        "CREATE TABLE account_sessions (id TEXT PRIMARY KEY,"
        " account TEXT NOT NULL REFERENCES accounts (id), created DOUBLE PRECISION NOT NULL,"
        " seen DOUBLE PRECISION NOT NULL, revoked DOUBLE PRECISION)",
        "CREATE INDEX account_sessions_account ON account_sessions (account)",
        "CREATE TABLE account_passkeys (id TEXT PRIMARY KEY,"
        " account TEXT NOT NULL REFERENCES accounts (id), public_key TEXT NOT NULL,"
        " sign_count BIGINT NOT NULL, created DOUBLE PRECISION NOT NULL,"
        " used DOUBLE PRECISION)",
        "CREATE INDEX account_passkeys_account ON account_passkeys (account)",
        "CREATE TABLE account_seats (account TEXT NOT NULL REFERENCES accounts (id),"
        " table_id TEXT NOT NULL, seat INTEGER NOT NULL, token TEXT NOT NULL,"
        " added DOUBLE PRECISION NOT NULL, PRIMARY KEY (account, table_id, seat))",
        "CREATE INDEX account_seats_table ON account_seats (table_id)",
        "CREATE TABLE account_challenges (id TEXT PRIMARY KEY, purpose TEXT NOT NULL,"
        " account TEXT, challenge TEXT NOT NULL, expires DOUBLE PRECISION NOT NULL)",
        "CREATE INDEX account_challenges_expires ON account_challenges (expires)",
    ),
    (
        "CREATE TABLE account_ratings (account TEXT NOT NULL REFERENCES accounts (id),"
        " game TEXT NOT NULL, mu DOUBLE PRECISION NOT NULL, sigma DOUBLE PRECISION NOT NULL,"
        " games INTEGER NOT NULL, wins INTEGER NOT NULL, shown INTEGER NOT NULL,"
        " updated DOUBLE PRECISION NOT NULL, PRIMARY KEY (account, game))",
        "CREATE INDEX account_ratings_board ON account_ratings (game, shown)",
        "CREATE TABLE rating_history (account TEXT NOT NULL REFERENCES accounts (id),"
        " game TEXT NOT NULL, n INTEGER NOT NULL, at DOUBLE PRECISION NOT NULL,"
        " table_id TEXT NOT NULL, place INTEGER NOT NULL, players INTEGER NOT NULL,"
        " mu DOUBLE PRECISION NOT NULL, sigma DOUBLE PRECISION NOT NULL,"
        " shown INTEGER NOT NULL, PRIMARY KEY (account, game, n))",
        "CREATE TABLE rated_games (table_id TEXT PRIMARY KEY, at DOUBLE PRECISION NOT NULL)",
    ),
    (
        "CREATE TABLE seeks (id TEXT PRIMARY KEY, secret TEXT NOT NULL, game TEXT NOT NULL,"
        " players INTEGER, pace TEXT NOT NULL, bots_after DOUBLE PRECISION,"
        " name TEXT NOT NULL, account TEXT, rating DOUBLE PRECISION NOT NULL,"
        " address TEXT NOT NULL, created DOUBLE PRECISION NOT NULL,"
        " seen DOUBLE PRECISION NOT NULL, state TEXT NOT NULL, claimed DOUBLE PRECISION,"
        " table_id TEXT, seat INTEGER, token TEXT)",
        "CREATE INDEX seeks_state ON seeks (state, created)",
    ),
    (
        "CREATE TABLE reports (id TEXT PRIMARY KEY, reporter TEXT, address TEXT NOT NULL,"
        " name TEXT, account TEXT, table_id TEXT, chat_n INTEGER, reason TEXT NOT NULL,"
        " created DOUBLE PRECISION NOT NULL, handled DOUBLE PRECISION)",
        "CREATE INDEX reports_created ON reports (created)",
        "CREATE TABLE blocks (account TEXT NOT NULL, blocked TEXT NOT NULL,"
        " created DOUBLE PRECISION NOT NULL, PRIMARY KEY (account, blocked))",
        "CREATE INDEX blocks_blocked ON blocks (blocked)",
        "CREATE TABLE sanctions (id TEXT PRIMARY KEY, kind TEXT NOT NULL, account TEXT,"
        " address TEXT, until DOUBLE PRECISION NOT NULL, reason TEXT NOT NULL,"
        " created DOUBLE PRECISION NOT NULL, lifted DOUBLE PRECISION)",
        "CREATE INDEX sanctions_until ON sanctions (until)",
        "CREATE TABLE admin_log (id TEXT PRIMARY KEY, at DOUBLE PRECISION NOT NULL,"
        " action TEXT NOT NULL, target TEXT NOT NULL, detail TEXT NOT NULL)",
        "CREATE INDEX admin_log_at ON admin_log (at)",
        "CREATE TABLE chat_removed (table_id TEXT NOT NULL, n INTEGER NOT NULL,"
        " at DOUBLE PRECISION NOT NULL, PRIMARY KEY (table_id, n))",
    ),
    (
        "CREATE TABLE account_puzzle_ratings (account TEXT NOT NULL REFERENCES accounts (id),"
        " game TEXT NOT NULL, rating DOUBLE PRECISION NOT NULL, rd DOUBLE PRECISION NOT NULL,"
        " volatility DOUBLE PRECISION NOT NULL, tries INTEGER NOT NULL, solved INTEGER NOT NULL,"
        " updated DOUBLE PRECISION NOT NULL, PRIMARY KEY (account, game))",
        "CREATE TABLE puzzle_tries (account TEXT NOT NULL REFERENCES accounts (id),"
        " puzzle TEXT NOT NULL, at DOUBLE PRECISION NOT NULL, solved INTEGER NOT NULL,"
        " PRIMARY KEY (account, puzzle))",
        "CREATE TABLE puzzle_ratings (puzzle TEXT PRIMARY KEY, rating DOUBLE PRECISION NOT NULL,"
        " rd DOUBLE PRECISION NOT NULL, volatility DOUBLE PRECISION NOT NULL,"
        " tries INTEGER NOT NULL)",
        "CREATE TABLE game_puzzles (puzzle TEXT PRIMARY KEY, table_id TEXT NOT NULL,"
        " game INTEGER NOT NULL, line TEXT NOT NULL, made DOUBLE PRECISION NOT NULL)",
        "CREATE INDEX game_puzzles_game ON game_puzzles (table_id, game)",
        "CREATE TABLE puzzle_mined (table_id TEXT NOT NULL, game INTEGER NOT NULL,"
        " at DOUBLE PRECISION NOT NULL, found INTEGER NOT NULL, PRIMARY KEY (table_id, game))",
        "CREATE INDEX puzzle_mined_at ON puzzle_mined (at)",
    ),
)
"""The schema, one tuple of statements per version (1, 2, ...); never edit a released one,
add the next. Version 2: what lists read (status, version, summary), when a table is due
(``wake_at``), where its current unit starts (``base``), tables set aside (``broken``), who
made it (a hash of the address), its lock key, chat, and finished units' records. Version 3:
every finished game's record, kept as it ended (``table_games``: PROTOCOL.md, "Finished
games of a table"). Version 4: optional accounts (docs/accounts.md): an account's name
and the key it is unique by (its look-alike ``skeleton``; both NULL once deleted), its
argon2id password hash; every look-alike key of its name (``account_names``: a name has
one or two, :mod:`rummykit.server.lookalike`); its sessions (``id``: the SHA-256 of the
cookie's secret), passkeys, the seats it holds (the seat's token, so that another device
gets the seat), and the passkey challenges handed out (single use, expiring; shared by
every process). Version 5: ratings (docs/ratings.md): each account's rating per game
(OpenSkill's ``mu`` and ``sigma``, rated games and wins, the shown figure for the
leaderboard's order), the rating after each rated game (``rating_history``: its table,
the place and the number of players), and the rated tables whose game has been rated
(``rated_games``: once each). Version 6: "Play now" (docs/protocol.md, "Play now"):
each seek, its secret's hash, what it asks for (game, players or any, pace, bots after
how long), who (a name, an account, the rating it is paired by, a hash of the address),
when it was made and last asked after, its ``state`` (``waiting``, ``claimed`` by the
matcher, and when, ``matched``, ``delivered``, ``cancelled``) and, once matched, its table, seat
and the seat's token (until the page has it). Version 7: moderation (docs/hosting.md,
"Moderation"): reports of a player or a chat message (by an account or a hashed
address), blocks between accounts, mutes and bans of an account or a hashed address
until a time, the host's every action (``admin_log``), and chat messages the host
removed (``chat_removed``). Version 8: puzzle ratings (docs/puzzles.md,
"Ratings"): each account's Glicko-2 puzzle rating per game (rating, RD, volatility, tries,
puzzles solved), each account's first try of each puzzle (``puzzle_tries``: the key makes a
first try count once), and each puzzle's own rating as first tries move it
(``puzzle_ratings``; read over the shipped rating when present); the puzzles made from
the server's finished games (``game_puzzles``: the puzzle file's line, the table and game
it came from) and the finished games the maker has run on (``puzzle_mined``: once each,
and a cap a day)."""


DELETES = (
    "DELETE FROM table_events WHERE table_id = %s",
    "DELETE FROM table_chat WHERE table_id = %s",
    "DELETE FROM table_units WHERE table_id = %s",
    "DELETE FROM table_games WHERE table_id = %s",
    "DELETE FROM account_seats WHERE table_id = %s",
    "DELETE FROM rated_games WHERE table_id = %s",
    "DELETE FROM chat_removed WHERE table_id = %s",
    "DELETE FROM game_puzzles WHERE table_id = %s",
    "DELETE FROM puzzle_mined WHERE table_id = %s",
    "DELETE FROM game_tables WHERE id = %s",
)
