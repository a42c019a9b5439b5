"""The review in words, for ``rummykit review``: in Swedish or English (the catalogs).

:func:`describe` gives the lines a person reads: a heading, one line per seat,
then each turn where more was possible (or where the discard fed the next
player), with the play that would have done it. Deals, games and actions are
counted from 1 here, as ``rummykit replay`` counts them for people; the JSON
(:meth:`~rummykit.review.model.Review.to_json`) keeps RECORD.md's indexes from 0.
"""

from __future__ import annotations

from collections.abc import Sequence

from rummykit.cards import Card, sort_by_suit
from rummykit.games.spec import GameSpec
from rummykit.i18n import N_, Message, Plural
from rummykit.review.model import (
    CONTRACT,
    GO_OUT,
    LAY_OFF,
    BestPlayJSON,
    LayingStepJSON,
    PlayerReview,
    Review,
    TurnReview,
)

__all__ = ["describe"]


def _cards(n: int) -> Plural:
    return Plural("{n} card", "{n} cards", n)


def _player(p: PlayerReview) -> Message:
    return Message(
        N_("{name}: at the best in {best} of {turns}; {cards}; {outs}."),
        name=p.name,
        best=p.best_turns,
        turns=Plural("{n} turn", "{n} turns", p.turns),
        cards=Plural(
            "{n} card more could have been laid",
            "{n} cards more could have been laid",
            p.cards_missed,
        ),
        outs=Plural("{n} chance to go out missed", "{n} chances to go out missed", p.go_out_missed),
    )


def _where(sessions: bool, turn: TurnReview) -> Message:
    """Where the turn is: a session's game, or a game's deal, and the action, each counted
    from 1 as ``replay`` and the terminal count them (one numbering everywhere)."""
    if sessions:
        return Message(
            N_("game {game}, action {action}"), game=turn.deal + 1, action=turn.action + 1
        )
    return Message(N_("deal {deal}, action {action}"), deal=turn.deal + 1, action=turn.action + 1)


def _kontrakt_step(action: LayingStepJSON) -> Message:
    kind = action["type"]
    if kind == "meld":
        melds = " + ".join(" ".join(m) for m in action["melds"])
        return Message(N_("lay down {melds}"), melds=melds)
    if kind == "layoff":
        return Message(
            N_("lay {card} off on meld {meld}"), card=action["card"], meld=action["meld"]
        )
    return Message(
        N_("take the joker of meld {meld} for {card}"), card=action["card"], meld=action["meld"]
    )


def _how(play: BestPlayJSON) -> str | Message:
    """The best play in short: the cards it adds (one play, Vatikanen), or its actions (a
    turn of several, Kontrakt)."""
    if "actions" not in play:
        return " ".join(str(c) for c in sort_by_suit(Card.parse(t) for t in play["add"]))
    return _Joined([_kontrakt_step(a) for a in play["actions"]])


class _Joined(Message):
    """Messages read one after another, separated by commas."""

    def __init__(self, parts: Sequence[Message]) -> None:
        super().__init__("")
        self.parts = list(parts)

    def translated(self, language: str) -> str:
        return ", ".join(p.translated(language) for p in self.parts)


def _did(turn: TurnReview) -> Message:
    if turn.kind == "draw" and turn.played == 0:
        return Message(N_("drew"))
    if turn.kind == "pass":
        return Message(N_("passed"))
    if turn.played == 0:
        return Message(N_("laid nothing"))
    return Plural("laid {n} card", "laid {n} cards", turn.played)


def _turn(sessions: bool, turn: TurnReview, names: Sequence[str]) -> list[Message]:
    out: list[Message] = []
    if turn.best > turn.played and turn.best_play is not None:
        out.append(
            Message(
                N_("{where}: {name} {did}, but could have laid {best}: {how}."),
                where=_where(sessions, turn),
                name=names[turn.seat],
                did=_did(turn),
                best=_cards(turn.best),
                how=_how(turn.best_play),
            )
        )
        play = turn.best_play
        moved = 0 if "actions" in play else play["moved"]  # Kontrakt never moves table cards
        if moved:
            out.append(
                Plural(
                    "  It moves {n} card already on the table.",
                    "  It moves {n} cards already on the table.",
                    moved,
                )
            )
        pile = turn.extra.get("take_discard")
        if pile:
            out.append(
                Message(
                    N_("  It takes the discard pile's top, {card}, instead of the stock's card."),
                    card=pile,
                )
            )
        for miss in turn.missed:
            out.append(Message(_MISSED[miss]))
    return out


def _fed(sessions: bool, turn: TurnReview, names: Sequence[str]) -> list[Message]:
    """The discard of ``turn``, when the next player took it and laid it at once."""
    fed = turn.extra.get("discard")
    if not fed or not fed.get("laid"):
        return []
    return [
        Message(
            N_("{where}: {name} discarded {card}; {next} took it and laid it."),
            where=_where(sessions, turn),
            next=names[(turn.seat + 1) % len(names)],
            name=names[turn.seat],
            card=fed["card"],
        )
    ]


_MISSED = {
    GO_OUT: N_("  That would have gone out."),
    CONTRACT: N_("  That lays the rest of the contract."),
    LAY_OFF: N_("  A card could still have been laid off before the discard."),
}


def describe(review: Review, spec: GameSpec, names: Sequence[str], language: str) -> list[str]:
    """The review in lines of text, in ``language``; ``spec`` is the game's (its title, and
    whether a record holds a session of games or the deals of one game)."""
    title = spec.title
    lines = [
        Message(
            N_(
                "Review of {game} ({players}): each turn is judged only from what its"
                " player could see then."
            ),
            game=title,
            players=", ".join(names),
        ),
        *(_player(p) for p in review.players),
    ]
    notes = [m for t in review.turns for m in _turn(spec.parts_are_games, t, names)]
    lines.append(
        Message(N_("Turns where more was possible:"))
        if notes
        else Message(N_("No turn where more was possible."))
    )
    lines += notes
    fed = [m for t in review.turns for m in _fed(spec.parts_are_games, t, names)]
    if fed:
        lines.append(Message(N_("Discards the next player took and laid that same turn:")))
        lines += fed
    return [m.translated(language) for m in lines]
