"""Kontraktsrummy in the terminal: the adapter between the engine and the common UI.

The game (:class:`rummykit.games.kontrakt.KontraktGame`) is the authority: this
module turns typed text into its actions, asks it for hints
(:func:`rummykit.games.kontrakt.hint_for`, :func:`~rummykit.games.kontrakt.candidate_actions_for`
checked by the engine) and draws its view. Lay-downs, lay-offs and joker swaps
are staged until confirmed; a discard confirms them and ends the turn.
Between deals the game waits for the person, with the deal's summary shown.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from rummykit.bots import Bot, make_bot
from rummykit.cards import Card, Meaning
from rummykit.game import AnyAction, AnyEvent
from rummykit.games import kontrakt as k
from rummykit.games.kontrakt.contracts import CONTRACTS, describe_melds
from rummykit.games.kontrakt.view import (
    DealEndEntry,
    KontraktView,
    LaidJSON,
    TableMeldJSON,
    is_deal_end,
    kontrakt_view,
)
from rummykit.i18n import N_, Message, Plural
from rummykit.narration import narrate
from rummykit.record import GameRecord
from rummykit.review.advice import advise
from rummykit.tui.commands import UiCommand, format_kontrakt, parse_kontrakt
from rummykit.tui.controller import GameAdapter, Reply, Staging, confirmed, seat_cells
from rummykit.tui.render import (
    append_turn,
    card_label,
    card_text,
    cards_text,
    fit,
    join_names,
    meld_text,
    players_table,
    status_line,
)

__all__ = ["HELP", "HELP_PARTS", "KontraktAdapter"]

HELP_PARTS = (
    N_("# Kontraktsrummy: how to play"),
    N_(
        "Every message that refuses a move names the rule it applies (K1-K15): the\n"
        "rules, by id, are in `docs/rules.md` of rummykit (what the engine decides\n"
        "where they are silent: `docs/rules-decisions.md`)."
    ),
    N_(
        "A game is **seven deals**. Each deal has a **contract** you must lay down\n"
        "before anything else: deal 1 two groups, 2 a group and a run, 3 two runs,\n"
        "4 three groups, 5 two groups and a run, 6 a group and two runs, 7 three\n"
        "groups or three runs **all at once**. Your score is the value of the cards\n"
        "left in your hand when someone goes out (ace and joker 15, K Q J 10 ten,\n"
        "2-9 face value). After seven deals the **lowest total wins**."
    ),
    N_(
        "- A **group** is 3+ cards of one rank; a **run** is 3+ cards of one suit in a\n"
        "  row, ace low (A-2-3, never Q-K-A). A **joker** ★ stands for any card.\n"
        "- **Start of a deal:** the upcard is offered to förhand (the player after the\n"
        "  dealer): `take` or `decline`. If förhand declines, the others are asked in\n"
        "  turn: `buy` (you get the upcard *and* the stock's top card) or `pass`.\n"
        "- **Your turn:** `draw` from the stock, or `draw discard` to take the top of the\n"
        "  discard pile. Then lay down melds of your contract (in parts, over several\n"
        "  turns if you like, except in deal 7), and end with `discard`.\n"
        "- **Once your whole contract is down** you may lay down more melds, `layoff`\n"
        "  cards onto any meld on the table (anyone's), and `swap` a real card for a\n"
        "  joker on the table (the joker comes to your hand).\n"
        "- Empty your hand (by laying down or by your last discard) to go out."
    ),
    N_("## Commands"),
    N_(
        "| type | does |\n"
        "|---|---|\n"
        "| `take` / `decline` | förhand: take the first upcard, or not |\n"
        "| `buy` / `pass` | the others: buy the upcard (with the stock's top card), or not |\n"
        "| `draw` / `draw discard` | take the stock's top card / the discard pile's top card |\n"
        "| `meld 7h 7d 7s \\| 4c 5c 6c` | lay down melds, separated by `\\|` (staged) |\n"
        "| `layoff Th on 3` | lay Th off onto table meld number 3 (staged) |\n"
        "| `layoff * on 3 as 9h` | lay a joker off onto meld 3, standing for 9h |\n"
        "| `swap 7h on 2` | put 7h in place of the joker in meld 2 (staged; also `swap * "
        "on 2 with 7h`) |\n"
        "| Enter or `ok` | confirm what is staged (nothing is played until you confirm) |\n"
        "| `undo` | take back the last staged meld, lay-off or swap |\n"
        "| `discard Qs` | discard a card: confirms what is staged and ends your turn |\n"
        "| `hint` | every useful action now (contract melds, lay-offs, swaps), then the discard |\n"
        "| `scores` | the score sheet over the seven deals (F4) |\n"
        "| `sort`, `next`, `help` | sort the hand; the next deal or game; this help |\n"
        "| `quit` | leave: the record is saved, `rummykit play --resume FILE` carries on |"
    ),
    N_(
        "Melds on the table are numbered #0, #1, … in the order they were laid, and\n"
        "shown in front of the player who laid them."
    ),
    N_(
        "**Cards** are written rank then suit: `7h`, `Th` or `10h`, `Qs`, `Ad`; suits\n"
        "`c d h s`; `*` is a joker. Start typing a card and press **Tab** (or →) to\n"
        "complete it from your hand."
    ),
    N_(
        "**Keys:** F1 help · F2 sort · F3 hint · F4 scores · Ctrl+Q or Ctrl+C quit (asks\n"
        "first; the game is saved and can be resumed) · Escape closes this panel."
    ),
)
"""The help panel, paragraph by paragraph (each a catalog message)."""

HELP = "\n\n".join(HELP_PARTS) + "\n"
"""The help panel in English."""

_STAGED = (k.LayDown, k.LayOff, k.SwapJoker)
_ACTIONS = (
    k.TakeUpcard,
    k.DeclineUpcard,
    k.BuyUpcard,
    k.PassUpcard,
    k.Draw,
    k.LayDown,
    k.LayOff,
    k.SwapJoker,
    k.Discard,
)


class KontraktAdapter(GameAdapter[k.KontraktGame]):
    """A Kontraktsrummy game (seven deals) for seat 0 against bots; new games on request."""

    game = "kontrakt"
    title = "Kontraktsrummy"

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
        self.options = k.KontraktOptions(**(options or {}))
        self._rng = random.Random(seed)
        self.number = 0
        self.between_deals = False
        self.game_seed = 0
        self.game_obj = self._new_game(len(names) - 1)

    def _game_seed(self) -> int:
        """The next game's seed: ``seed`` for the first, then drawn from it."""
        self.number += 1
        if self.number == 1 and self.seed is not None:
            return self.seed
        return self._rng.randrange(2**63)

    def _new_game(self, dealer: int) -> k.KontraktGame:
        self.game_seed = self._game_seed()
        self.between_deals = False
        return k.KontraktGame(self.names, seed=self.game_seed, dealer=dealer, options=self.options)

    def saved_state(self) -> dict[str, object]:
        """The person's seat, the bots' levels, ``seed`` as given, which game of the
        sitting this is (``game``, from 1) and its seed (``game_seed``)."""
        return {
            **super().saved_state(),
            "seed": self.seed,
            "game": self.number,
            "game_seed": self.game_seed,
        }

    @classmethod
    def from_saved(
        cls, record: GameRecord, bots: Sequence[Bot | None], state: Mapping[str, object]
    ) -> KontraktAdapter:
        """The game rebuilt where ``record`` ends, its later deals (and new stocks, K15)
        shuffled as they would have been (the game's seed)."""
        seed, number, game_seed = state.get("seed"), state.get("game"), state.get("game_seed")
        adapter = cls(
            record.players,
            bots,
            seed=seed if isinstance(seed, int) else None,
            options={k: bool(v) for k, v in record.options.items()},
        )
        if isinstance(number, int) and number > 1:  # draw the seeds as the sitting did
            adapter._rng = random.Random(adapter.seed)
            adapter.number = 0
            for _ in range(number):
                adapter.game_seed = adapter._game_seed()
        if isinstance(game_seed, int):
            adapter.game_seed = game_seed
        game = k.from_record(record, seed=adapter.game_seed)
        adapter.game_obj = game
        # a deal that ended last: show its summary until the person goes on
        adapter.between_deals = (
            not game.over and game.deal > 0 and bool(record.deals) and not record.deals[-1].actions
        )
        return adapter

    @property
    def engine(self) -> k.KontraktGame:
        """The game now being played."""
        return self.game_obj

    def parse(self, text: str) -> AnyAction | UiCommand:
        """See :func:`rummykit.tui.commands.parse_kontrakt`."""
        return parse_kontrakt(text, self.seat, self.lang)

    def format(self, action: AnyAction, *, shown: bool = False) -> str:
        """See :func:`rummykit.tui.commands.format_kontrakt`."""
        assert isinstance(action, _ACTIONS)
        return format_kontrakt(action, self.lang, shown=shown)

    def staging(self, action: AnyAction) -> Staging:
        """Laying is staged; a discard confirms it; the rest is taken at once."""
        if isinstance(action, _STAGED):
            return "stage"
        return "commit" if isinstance(action, k.Discard) else "now"

    def apply(self, action: AnyAction) -> AnyEvent:
        """Apply to the game; a deal that ends (not the last) pauses play for its summary."""
        event = self.game_obj.apply(action)
        if isinstance(event, k.DealEnded) and not self.game_obj.over:
            self.between_deals = True
        return event

    def added_cards(self, staged: Sequence[AnyAction]) -> Counter[str]:
        """The hand cards the staged actions lay on the table."""
        out: Counter[str] = Counter()
        for a in staged:
            if isinstance(a, k.LayDown):
                out.update(str(c.plain()) for m in a.melds for c in m)
            elif isinstance(a, k.LayOff | k.SwapJoker):
                out[str(a.card.plain())] += 1
        return out

    # ------------------------------------------------------------ deals and games

    def paused(self) -> bool:
        """Play waits between deals and after the seventh."""
        return self.between_deals or self.game_obj.over

    def resume(self) -> str:
        """The next deal, or a new game after the seventh."""
        if self.game_obj.over:
            self.game_obj = self._new_game((self.game_obj.dealer + 1) % len(self.names))
            g = self.game_obj
            return self._(
                "Game {number} begins: deal 1 of 7, contract {contract}.",
                number=self.number,
                contract=g.contract.describe(),
            )
        self.between_deals = False
        g = self.game_obj
        return self._(
            "Deal {deal} of 7 is dealt: contract {contract}. The dealer is {dealer}.",
            deal=g.deal + 1,
            contract=g.contract.describe(),
            dealer=g.players[g.dealer],
        )

    def record(self) -> GameRecord:
        """The game's record (one entry per deal)."""
        return self.game_obj.to_record()

    def record_stem(self) -> str:
        """One record file per game."""
        seed = f"-seed{self.seed}" if self.seed is not None else ""
        return f"kontrakt{seed}-game{self.number}"

    # ------------------------------------------------------------ help

    def hint(self, engine: k.KontraktGame) -> Reply:
        """Every useful action now: the contract melds the hand can make (jokers placed so
        that the hand's cards build on them), or once down the lay-offs and swaps; then the
        card to discard. The first is put in the input line."""
        game = engine
        if game.over or self.between_deals:
            return Reply(self._("play is paused: press Enter to go on"), "info")
        view = game.view(self.seat, log=False)
        help_ = k.hint_for(view)
        my_turn = view["turn"] == self.seat
        phase = view["phase"]
        hand = [Card.parse(c) for c in view["hand"] or []]
        if my_turn and phase in ("upcard_offer", "draw"):
            return self._pickup_hint(view)
        steps: list[k.Action] = []
        if help_["complete"]:
            acts = [
                a
                for a in k.candidate_actions_for(view)
                if isinstance(a, (k.LayOff, k.SwapJoker, k.LayDown)) and game.can(a)
            ]
            text = (
                self._(
                    "your contract is down; you can: {commands}",
                    commands="; ".join(self.format(a, shown=True) for a in acts),
                )
                if acts
                else self._("your contract is down; nothing more to lay now")
            )
            steps = list[k.Action](acts[:1])
        elif help_["whole"] or help_["parts"]:
            melds = help_["whole"] or help_["parts"]
            built = _building(tuple(tuple(Card.parse(c) for c in m) for m in melds), hand)
            action: k.Action = k.LayDown(self.seat, built)
            if my_turn and phase == "play" and not game.can(action):
                action = k.LayDown(self.seat, tuple(tuple(Card.parse(c) for c in m) for m in melds))
            cmd = self.format(action, shown=True)
            if help_["whole"]:
                text = self._(
                    "your hand makes the whole contract ({contract}): {command}",
                    contract=CONTRACTS[view["deal"]].describe(),
                    command=cmd,
                )
            else:
                text = self._("your hand makes part of the contract: {command}", command=cmd)
            steps = [action]
        else:
            needs = _needs(help_["need"][0])
            for more in help_["need"][1:]:
                needs = Message(N_("{first} or {second}"), first=needs, second=_needs(more))
            text = self._("no contract meld in your hand yet (still needed: {needs})", needs=needs)
        prefill = self.format(steps[0]) if steps else None
        if not my_turn:
            prefill = None
        elif phase == "play":
            discard = self._discard_after(game, steps)
            if discard is not None:
                shown = self.format(discard, shown=True)
                text = self._("{hint}; then {command}", hint=text, command=shown)
                prefill = prefill or self.format(discard)
        return Reply(self._("hint: {hint}", hint=text), "info", prefill=prefill)

    def _pickup_hint(self, view: KontraktView) -> Reply:
        """Before drawing (or at the upcard offer): whether the discard pile's top card (the
        upcard) is worth taking, and why: before a draw as the review judges it (the pile's
        top lets this turn lay more: :mod:`rummykit.review.advice`), at the upcard offer as
        the basic bot does (K7, K8). Its command is put in the input line."""
        choice: k.Action
        if view["phase"] == "draw":  # the review's own search: the hint and the review agree
            advice = advise(view)
            choice = k.Draw(self.seat, "discard" if advice.draw == "discard" else "stock")
        else:
            chosen = make_bot("kontrakt", "basic", 0).choose(view)
            assert isinstance(chosen, _ACTIONS)
            choice = chosen
        pile = view["discard_pile"]
        top = Card.parse(pile[-1]) if pile else None
        card = "" if top is None else card_label(top)
        taken = isinstance(choice, k.TakeUpcard | k.BuyUpcard) or (
            isinstance(choice, k.Draw) and choice.from_ == "discard"
        )
        reason = ""
        if top is not None:
            reason = self._gain(view, top) if taken else self._no_gain(view, card)
        match choice:
            case k.Draw(from_="discard"):
                said = N_("take {card} from the discard pile: {reason} (Enter does it)")
            case k.Draw() if top is None or view["stock_only"]:
                said = N_("draw from the stock (Enter does it)")
            case k.Draw():
                said = N_("draw from the stock: {reason} (Enter does it)")
            case k.TakeUpcard():
                said = N_("take the upcard {card}: {reason} (Enter does it)")
            case k.DeclineUpcard():
                said = N_("decline the upcard: {reason} (Enter does it)")
            case k.BuyUpcard():
                said = N_(
                    "buy the upcard {card} (the stock's top card comes with it): {reason}"
                    " (Enter does it)"
                )
            case _:
                said = N_(
                    "pass on the upcard {card}: it lets you lay no more of your contract,"
                    " and buying brings an extra card (Enter does it)"
                )
        text = self._(said, card=card, reason=reason)
        return Reply(self._("hint: {hint}", hint=text), "info", prefill=self.format(choice))

    def _gain(self, view: KontraktView, card: Card) -> str:
        """Why ``card`` is worth taking: a joker, it fits the table (contract down), it
        completes the contract, lays more of it, or builds on the hand's cards."""
        if card.is_joker:
            return self._("a joker fits anywhere")
        if view["laid"][self.seat]["complete"]:
            return self._("it fits a meld on the table")
        before = k.hint_for(view)
        after = k.hint_for({**view, "hand": [*(view["hand"] or []), str(card)]})
        if after["whole"] and not before["whole"]:
            return self._("with it your hand makes the whole contract")
        if len(after["parts"]) > len(before["parts"]):
            return self._("with it your hand makes more of the contract")
        return self._("it builds on your cards")

    def _no_gain(self, view: KontraktView, card: str) -> str:
        """Why the discard pile's top card ``card`` is not worth taking."""
        if view["laid"][self.seat]["complete"]:
            return self._("{card} fits no meld on the table", card=card)
        return self._("{card} does not help your contract", card=card)

    def _discard_after(self, game: k.KontraktGame, steps: Sequence[k.Action]) -> k.Action | None:
        """The card the basic bot would discard after ``steps`` (on a copy of the game)."""
        trial = game.copy()
        try:
            for step in steps:
                trial.apply(step)
        except ValueError:
            return None
        bot = make_bot("kontrakt", "basic", 0)
        for _ in range(12):  # the bot may lay off more first; the hint names its discard
            if trial.to_act != self.seat or trial.phase is not k.Phase.PLAY:
                return None
            choice = bot.choose(trial.view(self.seat, log=False))
            if isinstance(choice, k.Discard):
                return choice
            try:
                trial.apply(choice)
            except ValueError:
                return None
        return None

    def help_text(self) -> str:
        """The help panel, in the adapter's language."""
        return "\n\n".join(self._(part) for part in HELP_PARTS) + "\n"

    # ------------------------------------------------------------ pictures

    def prompt(self, view: Mapping[str, object], staged: Sequence[AnyAction]) -> str:
        """What to do now."""
        v = kontrakt_view(view)
        names = v["players"]
        if v["over"]:
            best = v["winners"]
            who = join_names(
                [self._("you") if w == self.seat else names[w] for w in best], self.lang
            )
            return self._(
                "Game over after seven deals: {names} won with {total}."
                " Press Enter (next) for a new game, or quit.",
                names=who,
                total=v["totals"][best[0]],
            )
        if self.between_deals:
            last = v["scores"][-1]
            return self._(
                "Deal {deal} is over: you score {score} (total {total})."
                " Press Enter for deal {next} ({contract}).",
                deal=len(v["scores"]),
                score=last[self.seat],
                total=v["totals"][self.seat],
                next=v["deal"] + 1,
                contract=CONTRACTS[v["deal"]].describe(),
            )
        turn = v["turn"]
        if turn is None:
            return ""
        phase = v["phase"]
        top = v["discard_pile"][-1] if v["discard_pile"] else None
        top_text = card_label(Card.parse(top)) if top else ""
        if turn != self.seat:
            if phase == "upcard_offer":
                return self._(
                    "{name} is asked about the upcard {card}…", name=names[turn], card=top_text
                )
            return self._("{name} is playing…", name=names[turn])
        if phase == "upcard_offer":
            if v["forhand"] == self.seat:
                return self._("The first upcard is {card}: take it, or decline.", card=top_text)
            return self._(
                "The upcard {card} is offered to you: buy it (plus the stock's top) or pass.",
                card=top_text,
            )
        if phase == "draw":
            if v["stock_only"] or not top:
                return self._("Your turn: draw from the stock.")
            return self._(
                "Your turn: draw (from the stock) or draw discard (take {card}).", card=top_text
            )
        staged_note = (
            self._("Staged cards are highlighted: Enter confirms, undo takes back. ")
            if staged
            else ""
        )
        if v["laid"][self.seat]["complete"]:
            return staged_note + self._(
                "Lay off (layoff Th on 3), swap jokers, meld more, then discard."
            )
        contract = CONTRACTS[v["deal"]].describe()
        help_ = k.hint_for(v)
        if not staged and not help_["whole"] and not help_["parts"]:
            return self._(
                "Nothing of your contract ({contract}) to lay down yet: discard (discard Qs).",
                contract=contract,
            )
        return staged_note + self._(
            "Lay down your contract ({contract}): meld … (hint), then discard.", contract=contract
        )

    def status(self, view: Mapping[str, object], width: int | None = None) -> Text:
        """Deal, contract, stock and whose turn; between deals, the deal that ended.

        In ``width`` cells: the game's title goes first, then the words around the
        deal and the contract, then the stock (the table panel shows it too).
        """
        v = kontrakt_view(view)
        end = self._ended(v)
        deal = end["deal"] if end is not None else v["deal"]
        title = Text(self.title)
        long_deal = Text(self._("deal {deal} of 7", deal=deal + 1))
        short_deal = Text(self._("deal {deal}/7", deal=deal + 1))
        said = CONTRACTS[deal].describe()
        labelled = Text(self._("contract: {contract}", contract=said), style="bold cyan")
        contract = Text(said.translated(self.lang), style="bold cyan")
        if end is not None:
            over = Text(self._("the deal is over: press Enter for the next"), style="bold")
            short_over = Text(self._("deal over: press Enter"), style="bold")
            return fit(
                [
                    status_line(title, long_deal, labelled, over),
                    status_line(long_deal, labelled, over),
                    status_line(short_deal, contract, over),
                    status_line(short_deal, contract, short_over),
                ],
                width,
            )
        stock = Text(self._("stock {stock}", stock=v["stock_size"]))
        paused = self._("deal over") if self.between_deals else None
        turn = append_turn(Text(), v, self.seat, paused, self.lang)
        return fit(
            [
                status_line(title, long_deal, labelled, stock, turn),
                status_line(long_deal, labelled, stock, turn),
                status_line(short_deal, contract, stock, turn),
                status_line(short_deal, contract, turn),
            ],
            width,
        )

    def players_panel(self, view: Mapping[str, object]) -> RenderableType:
        """Cards in hand, what of the contract is laid, and the running total of each player."""
        v = kontrakt_view(view)
        table = players_table(
            self._("▶ to act · D dealer · g groups, r runs"),
            (self._("cards"), "right"),
            (self._("laid"), "left"),
            (self._("total"), "right"),
            lang=self.lang,
        )
        end = self._ended(v)
        real = kontrakt_view(confirmed(v))  # staged melds are not laid yet
        for seat in range(len(v["players"])):
            mark, who = seat_cells(v, seat, self.seat, self.bots[seat], self.lang, self.game)
            if end is not None:  # the deal that ended, until the person goes on
                cards = str(len(end["hands"][seat]))
                progress = (
                    self._("went out") if end["out"] == seat else f"+{end['penalties'][seat]}"
                )
                table.add_row("", who, cards, progress, str(end["totals"][seat]))
                continue
            laid = real["laid"][seat]
            progress = (
                self._("[green]✓ down[/green]") if laid["complete"] else self._progress(laid, v)
            )
            cards = str(real["hand_sizes"][seat])
            if real["hand_sizes"][seat] != v["hand_sizes"][seat]:
                cards = f"{cards}→{v['hand_sizes'][seat]}"
                if v["laid"][seat] != laid:
                    progress = self._("[yellow]staged[/yellow]")
            table.add_row(mark, who, cards, progress, str(v["totals"][seat]))
        return table

    def _ended(self, view: Mapping[str, object]) -> DealEndEntry | None:
        """The log's entry of the deal that ended, while play waits before the next."""
        v = kontrakt_view(view)
        if not self.between_deals:
            return None
        ended = [e for e in v.get("log") or [] if is_deal_end(e)]
        return ended[-1] if ended else None

    def ended_hand(self, view: Mapping[str, object]) -> list[str] | None:
        """Between deals: the person's hand as the deal ended it."""
        v = kontrakt_view(view)
        end = self._ended(v)
        return None if end is None else list(end["hands"][self.seat])

    def table_panel(self, view: Mapping[str, object], new: Counter[str]) -> RenderableType:
        """The upcard offer, discard pile, and each player's melds, numbered.

        Between deals and after the last: the deal's end instead (each hand
        left and its penalty), from the log's ``deal_end`` entry.
        """
        v = kontrakt_view(view)
        if (self.between_deals or v["over"]) and v.get("log"):
            ended = [e for e in v["log"] if is_deal_end(e)]
            if ended:
                return self._deal_summary(ended[-1], v)
        lines: list[RenderableType] = []
        pile = v["discard_pile"]
        head = Text(self._("Discard pile: "))
        if pile:
            head.append_text(card_text(pile[-1]))
            count = Plural("{n} card", "{n} cards", len(pile)).translated(self.lang)
            head.append(f"  ({count})", style="dim")
        else:
            head.append(self._("empty"), style="dim")
        head.append(self._("   Stock: {stock}", stock=v["stock_size"]))
        if v["phase"] == "upcard_offer" and v["offer_to"] is not None:
            if v["offer_to"] == self.seat:
                offered = self._("   The upcard is offered to you")
            else:
                asked = v["players"][v["offer_to"]]
                offered = self._("   The upcard is offered to {name}", name=asked)
            head.append(offered, style="bold yellow")
        if v["picked_up"]:
            head.append(self._("   (just taken: "), style="dim")
            head.append_text(card_text(v["picked_up"]))
            head.append(")", style="dim")
        lines.append(head)
        melds = v["table"]
        if not melds:
            lines.append(Text(self._("No melds on the table yet."), style="dim"))
        lines += self._meld_rows(melds, v["players"], Counter(new))
        return Group(*lines)

    def _meld_rows(
        self, melds: Sequence[TableMeldJSON], players: list[str], pending: Counter[str]
    ) -> list[RenderableType]:
        """Each player's melds on one line, numbered (``pending``: cards staged to lay)."""
        rows: list[RenderableType] = []
        for seat, name in enumerate(players):
            mine = [m for m in melds if m["owner"] == seat]
            if not mine:
                continue
            row = Text()
            row.append((self.you() if seat == self.seat else name) + ": ", style="bold")
            for i, m in enumerate(mine):
                if i:
                    row.append("   ")
                row.append(f"#{m['number']} ", style="cyan")
                row.append_text(meld_text(m["cards"], pending))
            rows.append(row)
        return rows

    def _deal_summary(self, end: DealEndEntry, view: Mapping[str, object]) -> RenderableType:
        v = kontrakt_view(view)
        names = [self.you() if i == self.seat else n for i, n in enumerate(v["players"])]
        if end["out"] is not None:
            said = self._(
                "Deal {deal} of 7 is over: {name} went out.",
                deal=end["deal"] + 1,
                name=names[end["out"]],
            )
        else:
            said = self._(
                "Deal {deal} of 7 is over: nobody (the stock ran out) went out.",
                deal=end["deal"] + 1,
            )
        title = Text(said, style="bold yellow")
        table = Table(box=None, padding=(0, 1))
        table.add_column(self._("player"))
        table.add_column(self._("cards left"))
        table.add_column(self._("penalty"), justify="right")
        table.add_column(self._("total"), justify="right")
        for seat, name in enumerate(names):
            table.add_row(
                Text(name),
                cards_text(end["hands"][seat]),
                str(end["penalties"][seat]),
                str(end["totals"][seat]),
            )
        foot = Text(self._("F4 shows the whole score sheet."), style="dim")
        melds = end.get("table") or []
        final: list[RenderableType] = []
        if melds:
            final = [
                Text(self._("The table at the end:"), style="bold"),
                *self._meld_rows(melds, v["players"], Counter()),
                Text(""),
            ]
        return Group(title, Text(""), table, Text(""), *final, foot)

    def scores_panel(self, view: Mapping[str, object]) -> RenderableType:
        """The score sheet: each deal's penalties and the totals (K13, K14)."""
        v = kontrakt_view(view)
        table = Table(title=self._("Score sheet"), expand=False)
        table.add_column(self._("deal"))
        table.add_column(self._("contract"))
        names = [self.you() if i == self.seat else n for i, n in enumerate(v["players"])]
        for name in names:
            table.add_column(Text(name), justify="right")
        scores = v["scores"]
        for d in range(7):
            row = [str(d + 1), CONTRACTS[d].describe().translated(self.lang)]
            row += [str(p) for p in scores[d]] if d < len(scores) else ["" for _ in names]
            table.add_row(*row)
        table.add_row("", self._("total"), *[str(t) for t in v["totals"]], style="bold")
        return table

    def describe(
        self, entry: Mapping[str, object], index: int, view: Mapping[str, object]
    ) -> Text | None:
        """One logged action or deal event in words (:mod:`rummykit.narration`)."""
        kind = entry["type"]
        style = {"deal_start": "bold cyan", "deal_end": "bold yellow"}.get(str(kind), "")
        return self.told(narrate("kontrakt", entry, self.lang), view, style=style)

    def same_round(self, real: Mapping[str, object], preview: Mapping[str, object]) -> bool:
        """The preview is shown unless the staged actions end the deal (K13)."""
        return bool(preview["deal"] == real["deal"] and not preview["over"])

    def log_key(self, view: Mapping[str, object]) -> object:
        """Each game has its own log."""
        return self._("game {number}", number=self.number)

    def _progress(self, laid: LaidJSON, view: Mapping[str, object]) -> str:
        v = kontrakt_view(view)
        if v["contract"]["all_at_once"]:
            return self._("not yet")
        contract = v["contract"]["choices"][0]
        parts = []
        if contract["groups"]:
            parts.append(self._("{laid}/{of}g", laid=laid["groups"], of=contract["groups"]))
        if contract["runs"]:
            parts.append(self._("{laid}/{of}r", laid=laid["runs"], of=contract["runs"]))
        return " ".join(parts)


def _needs(need: Mapping[str, int]) -> Message:
    return describe_melds(need["groups"], need["runs"])


def _by_name(names: Sequence[str], numbers: Sequence[int]) -> str:
    return ", ".join(f"{n} {p}" for n, p in zip(names, numbers, strict=True))


def _building(
    melds: tuple[tuple[Card, ...], ...], hand: Sequence[Card]
) -> tuple[tuple[Card, ...], ...]:
    """The melds with each run's jokers placed where the hand's spare cards of its suit
    build on it, those cards laid too (``4h 5h *:6h`` with 2h spare: ``2h *:3h 4h 5h``).

    >>> from rummykit.cards import parse_cards
    >>> melds = ((*parse_cards("4h 5h *:6h"),),)
    >>> [" ".join(map(str, m)) for m in _building(melds, parse_cards("4h 5h * 2h 9c"))]
    ['2h *:3h 4h 5h']
    """
    used = Counter(c.plain() for m in melds for c in m)
    spare = Counter(c.plain() for c in hand) - used
    out = []
    for meld in melds:
        naturals = [c for c in meld if not c.is_joker]
        jokers = len(meld) - len(naturals)
        suits = {c.suit for c in naturals}
        ranks = {c.rank for c in naturals}
        if not jokers or len(suits) != 1 or len(ranks) != len(naturals) or len(ranks) < 2:
            out.append(meld)  # a group, or a run without jokers: as found
            continue
        suit = naturals[0].suit
        assert suit is not None
        best: tuple[int, int, list[Card]] | None = None
        for lo in range(1, min(ranks) + 1):
            for hi in range(max(ranks), 14):
                cards: list[Card] = []
                need = 0
                took = 0
                left = Counter(spare)
                for r in range(lo, hi + 1):
                    card = Card(r, suit)
                    if r in ranks:
                        cards.append(card)
                    elif left[card] > 0:
                        left[card] -= 1
                        took += 1
                        cards.append(card)
                    else:
                        need += 1
                        cards.append(Card(0, None, Meaning(r, suit)))
                if need != jokers:
                    continue
                score = (took, -abs(lo - min(ranks)))
                if best is None or score > best[:2]:
                    best = (*score, cards)
        if best is None or best[0] == 0:
            out.append(meld)
            continue
        chosen = best[2]
        spare -= Counter(c for c in chosen if not c.is_joker and c.rank not in ranks)
        out.append(tuple(chosen))
    return tuple(out)
