"""The game server: tables friends play at, over PROTOCOL.md's ``rummykit-online/1``.

- :mod:`~rummykit.server.tables`: a table as data, changed only by its events;
- :mod:`~rummykit.server.store`: settings and events in SQLite or PostgreSQL;
- :mod:`~rummykit.server.hub`: the live tables: connections, states, bots, clocks;
- :mod:`~rummykit.server.bots`: bots thinking in worker processes;
- :mod:`~rummykit.server.app`: the ASGI app (FastAPI), HTTP and WebSocket.

``rummykit serve`` starts it (:mod:`rummykit.cli.serve`); ``docs/protocol.md``
describes the wire.
"""
