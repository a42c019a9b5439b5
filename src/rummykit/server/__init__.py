"""The game server: tables friends play at, over PROTOCOL.md's ``rummykit-online/1``.

One module a job (``docs/architecture.md`` draws them):

- :mod:`~rummykit.server.protocol`: the messages on the wire, read once and bounded;
- :mod:`~rummykit.server.limits`: every bound a public server keeps;
- :mod:`~rummykit.server.hosted`: a table as data: seats, game, version, its events;
- :mod:`~rummykit.server.room`: one table served here, the one authority over it
  (versions, the engine's check, the commit);
- :mod:`~rummykit.server.fanout`: each connection's states, made from what it has;
- :mod:`~rummykit.server.driver`: bots, turn clocks and stand-ins;
- :mod:`~rummykit.server.rooms`: the tables this process serves: loaded on first use,
  let go when idle, found when due;
- :mod:`~rummykit.server.presence`: what server processes tell each other (a typed codec);
- :mod:`~rummykit.server.store`: SQLite or PostgreSQL;
- :mod:`~rummykit.server.lanes`: the play pool's worker processes, over pipes;
- :mod:`~rummykit.server.workers`: worker processes for bots, help, replays and reviews;
- :mod:`~rummykit.server.assist`: hints, arrangements and draft checks;
- :mod:`~rummykit.server.replay`, :mod:`~rummykit.server.review`: a record's positions
  and its review, in the records worker;
- :mod:`~rummykit.server.live`: one WebSocket connection, hello to close;
- :mod:`~rummykit.server.wsprotocol`: the WebSocket protocol under the app (uvicorn's,
  with a reason on every close it makes, and a bounded send buffer);
- :mod:`~rummykit.server.app`: the HTTP API and the ASGI app (FastAPI);
- :mod:`~rummykit.server.schemas`: the API's bodies (pydantic), the OpenAPI document's;
- :mod:`~rummykit.server.middleware`: the body limit, the headers, the allowed hosts;

``rummykit serve`` starts it (:mod:`rummykit.cli.serve`); ``docs/protocol.md``
describes the wire, ``docs/hosting.md`` a public site.
"""
