"""Vatikanen in the terminal: the adapter between the engine and the common UI.

The session (:class:`rummykit.games.vatikanen.Session`) is the authority: this
module turns typed text into its actions, asks it for hints, and draws its
view. A play is staged until confirmed; draw and pass are taken at once.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence

from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.text import Text

from rummykit.bots import Bot
from rummykit.cards import Card, vatikanen_value
from rummykit.game import AnyAction, AnyEvent
from rummykit.games import vatikanen as v
from rummykit.games.vatikanen.view import vatikanen_view
from rummykit.i18n import N_, Plural
from rummykit.narration import narrate
from rummykit.notation import command_word
from rummykit.record import GameRecord
from rummykit.tui.commands import UiCommand, format_vatikanen, parse_vatikanen
from rummykit.tui.controller import GameAdapter, Reply, Staging, confirmed, seat_cells
from rummykit.tui.render import (
    append_turn,
    cards_text,
    fit,
    meld_text,
    players_table,
    status_line,
)

__all__ = ["HELP", "HELP_PARTS", "VatikanenAdapter"]

HELP_PARTS = (
    N_("# Vatikanen: how to play"),
    N_(
        "Every message that refuses a move names the rule it applies (V1-V16): the\n"
        "rules, by id, are in `docs/rules.md` of rummykit (what the engine decides\n"
        "where they are silent: `docs/rules-decisions.md`)."
    ),
    N_(
        "**Goal:** be the first to get rid of all your cards. The others then pay you\n"
        "what is left in their hands (joker 25, ace 15, K Q J 10 ten each, 2-9 face\n"
        "value) (V13)."
    ),
    N_(
        "**Your turn:** either *play* cards from your hand onto the table, or *draw*\n"
        "one card from the stock (your turn then ends) (V4)."
    ),
    N_(
        "- Your **first play** (opening) must be exactly **one run** of 3 or more cards\n"
        "  of one suit from your hand, like `7♥ 8♥ 9♥`. The table is not touched then (V7).\n"
        "- After you have opened you may lay as many cards as you like: new melds,\n"
        "  cards added to any meld, and you may **rearrange the whole table** as long\n"
        "  as you add at least one card and every meld is valid afterwards (V8, V9).\n"
        "  No card ever goes from the table back to a hand.\n"
        "- A **run** is 3+ cards of one suit in a row (ace low A-2-3 or high Q-K-A, not\n"
        "  K-A-2) (V5); a **group** is 3+ cards of one rank (suits may repeat) (V6)."
    ),
    N_("## Jokers on the table (V11, V12): what the engine does"),
    N_(
        "- A **joker** ★ stands for any card when it is laid. On the table it keeps\n"
        "  standing for the card it was laid as: ★=8♥ in a run (that rank and suit),\n"
        "  ★=8 in a group (that rank).\n"
        "- It may move to a place where it means something else (into another meld,\n"
        "  or to another card) only when the table you leave holds a **real card in\n"
        "  its stead**: a real 8♥ for ★=8♥, any real 8 for ★=8. That card may come\n"
        "  from your hand or from anywhere on the table, **even from the joker's own\n"
        "  group**: from 5♣ 5♦ 5♠ ★ the ★ may go into a run (★ 6♥ 7♥, as 5♥), since\n"
        "  the fives stay on the table as a group of three.\n"
        "- **One real card frees one joker**; a freed joker must be used in a meld in\n"
        "  the same play (it never goes to a hand). A run joker may also stay as that\n"
        "  very card in a group of its rank (★=8♥ beside 8♣ 8♦ 8♠).\n"
        "- The engine checks only what the table holds afterwards (V12): any\n"
        "  arrangement of valid melds in which every table joker still stands for its\n"
        "  card, or has been freed by its own real card.\n"
        "- A table playing the `free_jokers` option lets table jokers move freely as\n"
        "  wild cards (not this game's default)."
    ),
    N_("## The end of the stock (V14, V15)"),
    N_(
        "- When the stock is empty you *pass* instead of drawing (or play).\n"
        "- **Blocked game:** when every player passes in turn with an empty stock,\n"
        "  the game ends. The lowest hand value wins, and **each other player pays the\n"
        "  winner the difference** between their own hand value and the winner's.\n"
        "  Players tied for lowest share the win: they pay each other nothing, and\n"
        "  each other player pays each of them the difference divided by the number\n"
        "  of tied winners. (A table playing without the `blocked_game` option ends\n"
        "  such a game with no winner and no payments.)\n"
        "- The balances of a session carry on from game to game (zero-sum, V16)."
    ),
    N_("## Commands"),
    N_(
        "| type | does |\n"
        "|---|---|\n"
        "| `play 7h 8h 9h` | lay these cards; the table is arranged for you |\n"
        "| `play 7h \\| 7h 8h 9h \\| Tc Th Ts` | lay 7h; after the first `\\|`: the **whole "
        "new table** |\n"
        "| Enter or `ok` | confirm the staged play (nothing is played until you confirm) |\n"
        "| `undo` | take the staged play back |\n"
        "| `draw` | draw a card; your turn ends |\n"
        "| `pass` | pass (only when the stock is empty) |\n"
        "| `hint` | the best play (most cards), put in the input line selected: Enter stages it |\n"
        "| `sort` | sort your hand by suit or by rank |\n"
        "| `next` | after a game: deal the next game of the session |\n"
        "| `help` | this help |\n"
        "| `quit` | leave: the record is saved, `rummykit play --resume FILE` carries on |"
    ),
    N_(
        "**Cards** are written rank then suit: `7h`, `Th` or `10h`, `Qs`, `Ad`; suits\n"
        "`c d h s` (clubs, diamonds, hearts, spades); `*` is a joker (`*:8h` on a\n"
        "table meld says what it stands for). Upper or lower case, as you like. In a\n"
        "whole new table, write each run from low to high (`Qh Kh Ah`): a `*` stands\n"
        "for the card of its place.\n"
        "Start typing a card and press **Tab** (or →) to complete it from your hand."
    ),
    N_(
        "**Keys:** F1 help · F2 sort · F3 hint · Ctrl+Q or Ctrl+C quit (asks first; the game\n"
        "is saved and can be resumed) · Escape closes this panel."
    ),
)
"""The help panel, paragraph by paragraph (each a catalog message)."""

HELP = "\n\n".join(HELP_PARTS) + "\n"
"""The help panel in English."""


class VatikanenAdapter(GameAdapter[v.Session]):
    """A Vatikanen session for seat 0 against bots."""

    game = "vatikanen"
    title = "Vatikanen"
    stages_more = False

    def __init__(
        self,
        names: Sequence[str],
        bots: Sequence[Bot | None],
        *,
        seed: int | None = None,
        options: dict[str, bool] | None = None,
    ) -> None:
        super().__init__(names, bots)
        self.seed = seed
        # without --seed a seed is drawn, so that the record can be resumed exactly
        self.session_seed = seed if seed is not None else random.SystemRandom().randrange(2**63)
        chosen = {"free_jokers": False, "blocked_game": True, **(options or {})}
        self.session = v.Session(
            list(names),
            seed=self.session_seed,
            free_jokers=chosen["free_jokers"],
            blocked_game=chosen["blocked_game"],
        )
        self._hint: tuple[object, v.Play] | None = None

    def saved_state(self) -> dict[str, object]:
        """The person's seat, the bots' levels, and the seeds (``seed`` as given, or None;
        ``session_seed`` the session's own)."""
        return {**super().saved_state(), "seed": self.seed, "session_seed": self.session_seed}

    @classmethod
    def from_saved(
        cls, record: GameRecord, bots: Sequence[Bot | None], state: Mapping[str, object]
    ) -> VatikanenAdapter:
        """The session rebuilt where ``record`` ends, its later games shuffled as they
        would have been (the session seed)."""
        seed = state.get("seed")
        session_seed = state.get("session_seed")
        adapter = cls(
            record.players,
            bots,
            seed=seed if isinstance(seed, int) else None,
            options={k: bool(v) for k, v in record.options.items()},
        )
        if isinstance(session_seed, int):
            adapter.session_seed = session_seed
        adapter.session = v.from_record(record, seed=adapter.session_seed)
        return adapter

    @property
    def engine(self) -> v.Session:
        """The session being played (V16): the hosted unit."""
        return self.session

    @property
    def current(self) -> v.VatikanenGame:
        """The game of the session now being played."""
        return self.session.game

    def parse(self, text: str) -> AnyAction | UiCommand:
        """See :func:`rummykit.tui.commands.parse_vatikanen`."""
        return parse_vatikanen(text, self.seat, self.lang)

    def format(self, action: AnyAction, *, shown: bool = False) -> str:
        """See :func:`rummykit.tui.commands.format_vatikanen`."""
        assert isinstance(action, v.Play | v.Draw | v.Pass)
        return format_vatikanen(action, self.lang, shown=shown)

    def staging(self, action: AnyAction) -> Staging:
        """A play waits for confirmation; draw and pass are taken at once."""
        return "stage" if isinstance(action, v.Play) else "now"

    def prepared(self, action: AnyAction) -> AnyAction:
        """The hint's play with its table, when the person plays the cards the hint gave.

        The solver already arranged that table for this very position; the
        engine still checks it (V9), which is much cheaper than arranging again.
        """
        if not isinstance(action, v.Play) or action.table is not None or self._hint is None:
            return action
        where, play = self._hint
        if where != self._position() or play.table is None or not self.current.opened(self.seat):
            return action
        if Counter(c.plain() for c in play.add) != Counter(c.plain() for c in action.add):
            return action
        return v.Play(action.seat, action.add, play.table)

    def _position(self) -> object:
        game = self.current
        return (game.number, len(game.log))

    def settled(self, action: AnyAction, event: AnyEvent) -> AnyAction:
        """A play without a table is confirmed with the table the engine arranged for it."""
        if isinstance(action, v.Play) and action.table is None and not self.engine_opening():
            assert isinstance(event, v.Event) and event.table is not None
            table = tuple(tuple(m.cards) for m in event.table)
            return v.Play(action.seat, action.add, table)
        return action

    def engine_opening(self) -> bool:
        """True while the person has not opened (V7: the opening play carries no table)."""
        return not self.current.opened(self.seat)

    def added_cards(self, staged: Sequence[AnyAction]) -> Counter[str]:
        """The cards the staged play adds."""
        return Counter(str(c.plain()) for a in staged if isinstance(a, v.Play) for c in a.add)

    # ------------------------------------------------------------ games

    def paused(self) -> bool:
        """After each game (the session over, V16) the person starts the next one."""
        return self.session.over

    def resume(self) -> str:
        """The next game of the session, the deal passing to the left (V16)."""
        self.session.next_part()
        game = self.session.game
        first = game.players[game.to_act] if game.to_act is not None else "?"
        dealer = game.players[game.dealer]
        return self._(
            "Game {number} is dealt. The dealer is {dealer}; the first to play is {first}.",
            number=game.number,
            dealer=dealer,
            first=first,
        )

    def record(self) -> GameRecord:
        """The whole session so far as one record (one deal per game)."""
        return self.session.to_record()

    def record_stem(self) -> str:
        """One record file per session."""
        return "vatikanen" + (f"-seed{self.seed}" if self.seed is not None else "")

    # ------------------------------------------------------------ help

    def hint(self, engine: v.Session) -> Reply:
        """The solver's best play (most cards), put in the input line."""
        game = engine.game
        if game.over:
            return Reply(
                self._(
                    "the game is over: type {next} for the next game",
                    next=command_word("next", "vatikanen", self.lang),
                ),
                "info",
            )
        play = game.best_play(self.seat)
        if play is not None and game is self.current:
            self._hint = (self._position(), play)
        if play is None:
            what = self.format(v.Draw(self.seat) if game.stock_size else v.Pass(self.seat))
            if game.opened(self.seat):
                text = self._("hint: no play is possible: {command} (Enter does it)", command=what)
            else:
                text = self._(
                    "hint: no run of 3+ cards to open with: {command} (Enter does it)",
                    command=what,
                )
            return Reply(text, "info", prefill=what)
        shown = cards_text([str(c.plain()) for c in play.add]).plain
        n = len(play.add)
        if not game.opened(self.seat):
            text = self._(
                "hint: open with these {n} cards: {cards} (Enter stages it)", n=n, cards=shown
            )
        else:
            text = Plural(
                "hint: play this card: {cards} (Enter stages it)",
                "hint: play these {n} cards: {cards} (Enter stages it)",
                n,
                cards=shown,
            ).translated(self.lang)
        return Reply(text, "info", prefill=self.format(v.Play(self.seat, play.add)))

    def help_text(self) -> str:
        """The help panel, in the adapter's language."""
        return "\n\n".join(self._(part) for part in HELP_PARTS) + "\n"

    # ------------------------------------------------------------ pictures

    def prompt(self, view: Mapping[str, object], staged: Sequence[AnyAction]) -> str:
        """What to do now."""
        v = vatikanen_view(view)
        if v["over"]:
            return self._(
                "{end} Press Enter (next) for the next game, or quit.", end=self._end_text(v)
            )
        turn = v["turn"]
        if turn is None:
            return ""
        if turn != self.seat:
            return self._("{name} is playing…", name=v["players"][turn])
        if staged:
            return self._(
                "Your play is staged (highlighted): Enter confirms it, undo takes it back."
            )
        if not v["opened"][self.seat]:
            if v["stock_size"]:
                return self._(
                    "Your turn: open with one run of 3+ cards (play 7h 8h 9h), or draw."
                    " hint shows one."
                )
            return self._(
                "Your turn: open with one run of 3+ cards (play 7h 8h 9h), or pass"
                " (the stock is empty). hint shows one."
            )
        if v["stock_size"]:
            return self._(
                "Your turn: play cards (play 7h 8h 9h), or draw. hint shows the best play."
            )
        return self._(
            "Your turn: play cards (play 7h 8h 9h), or pass (the stock is empty)."
            " hint shows the best play."
        )

    def _end_text(self, view: Mapping[str, object]) -> str:
        v = vatikanen_view(view)
        end = v["end"]
        names = v["players"]
        if end is None:
            return ""
        if end["reason"] == "out":
            w = end["winners"][0]
            who = self.you() if w == self.seat else names[w]
            return self._(
                "Game over: {name} went out and won {amount}.", name=who, amount=end["payments"][w]
            )
        if end["reason"] == "blocked":
            who = ", ".join(names[w] for w in end["winners"])
            return self._("Game over: the game is blocked; lowest hand: {names}.", names=who)
        return self._("Game over: blocked, no winner.")

    def status(self, view: Mapping[str, object], width: int | None = None) -> Text:
        """Game number, stock and whose turn, in ``width`` cells (the title goes first)."""
        v = vatikanen_view(view)
        game = Text(self._("game {number}", number=v["game_number"]))
        stock = Text(self._("stock {stock}", stock=v["stock_size"]))
        turn = append_turn(Text(), v, self.seat, lang=self.lang)
        return fit(
            [status_line(Text(self.title), game, stock, turn), status_line(game, stock, turn)],
            width,
        )

    def players_panel(self, view: Mapping[str, object]) -> RenderableType:
        """Cards in hand, opened or not, and the session balance of each player."""
        v = vatikanen_view(view)
        table = players_table(
            self._("▶ to act · D dealer"),
            (self._("cards"), "right"),
            (self._("opened"), "center"),
            (self._("balance"), "right"),
            lang=self.lang,
        )
        real = vatikanen_view(confirmed(v))  # staged cards are not played yet
        for seat in range(len(v["players"])):
            mark, who = seat_cells(v, seat, self.seat, self.bots[seat], self.lang, self.game)
            opened = self._("yes") if real["opened"][seat] else self._("no")
            cards = str(real["hand_sizes"][seat])
            if real["hand_sizes"][seat] != v["hand_sizes"][seat]:
                cards = f"{cards}→{v['hand_sizes'][seat]}"
                if not real["opened"][seat]:
                    opened = self._("[yellow]staged[/yellow]")
            table.add_row(mark, who, cards, opened, _money(real["balances"][seat]))
        return table

    def table_panel(self, view: Mapping[str, object], new: Counter[str]) -> RenderableType:
        """The table's melds, side by side when there are many."""
        v = vatikanen_view(view)
        melds = v["table"]
        if not melds:
            return Text(
                self._("The table is empty: the first play must be one run (V7)."), style="dim"
            )
        pending = Counter(new)
        texts = [meld_text(m, pending) for m in melds]
        count = sum(len(m) for m in melds)
        what = Plural("{n} meld", "{n} melds", len(melds)).translated(self.lang)
        cards = Plural("{n} card", "{n} cards", count).translated(self.lang)
        head = Text(self._("{melds}, {cards}", melds=what, cards=cards), style="dim")
        return Group(head, Columns(texts, padding=(0, 3)))

    def describe(
        self, entry: Mapping[str, object], index: int, view: Mapping[str, object]
    ) -> Text | None:
        """One logged action in words (:mod:`rummykit.narration`); the game's end below it."""
        lines = narrate("vatikanen", entry, self.lang)
        out = self.told(lines[:1], view)
        if len(lines) > 1:
            out.append("\n")
            out.append_text(self.told(lines[1:], view, style="bold yellow"))
        return out

    def same_round(self, real: Mapping[str, object], preview: Mapping[str, object]) -> bool:
        """The preview is shown unless the staged play ends the game (V13)."""
        return not vatikanen_view(preview)["over"]

    def log_key(self, view: Mapping[str, object]) -> object:
        """Each game of the session has its own log."""
        v = vatikanen_view(view)
        return self._("game {number}", number=v["game_number"])

    def _name(self, seat: int, view: Mapping[str, object]) -> str:
        v = vatikanen_view(view)
        return self.you() if seat == self.seat else str(v["players"][seat])


def _money(value: float) -> str:
    if isinstance(value, float) and not value.is_integer():
        return f"{value:+.2f}"
    return f"{int(value):+d}"


def hand_value(hand: Sequence[str]) -> int:
    """V13: the value of a hand given as card text."""
    return sum(vatikanen_value(Card.parse(c)) for c in hand)
