"""Portable game records (RECORD.md): the format, and replaying a record to check it.

- :mod:`rummykit.record.format`: :class:`GameRecord` read (:func:`load_record`)
  and written (:meth:`GameRecord.dumps`);
- :mod:`rummykit.record.replay`: :func:`replay`, the check behind ``rummykit replay``.
"""

from rummykit.record.format import (
    FORMAT,
    DealRecord,
    GameRecord,
    IllegalAction,
    RecordError,
    load_record,
    parse_record,
    read_card,
    read_cards,
)
from rummykit.record.replay import ReplayResult, replay

__all__ = [
    "FORMAT",
    "DealRecord",
    "GameRecord",
    "IllegalAction",
    "RecordError",
    "ReplayResult",
    "load_record",
    "parse_record",
    "read_card",
    "read_cards",
    "replay",
]
