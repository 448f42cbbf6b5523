"""Rule sets: an immutable value with a JSON form, presets for the three source games."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from decimal import Decimal

from .errors import RulesError

CHOICES = {
    "dealer_cards": ("one", "hole", "open"),
    "blackjack_pays": ("3:2", "6:5", "1:1"),
    "ties": ("push", "dealer"),
    "double_on": ("any", "9-11", "10-11"),
    "dealer_blackjack_takes": ("all", "original"),
    "split_blackjack": ("twenty-one", "instant-win"),
    "split_deal": ("in-turn", "both-hands"),
    "cut_card": ("quarter-third", "near-end", "in-play-200-220"),
    "insurance_amount": ("up-to-half", "half"),
    "burn_card": ("hole-card", "always", "never"),
    "double_card": ("face-up", "face-down"),
    "player_cards": ("face-up", "face-down"),
}
BOOLS = (
    "dealer_hits_soft_17",
    "insurance",
    "even_money",
    "double_after_split",
    "resplit_aces",
    "hit_split_aces",
    "three_sevens",
    "blackjack_beats_dealer_blackjack",
    "offer_double_9_11",
    "newcomer_consent",
    "shuffle_every_round",
)
PAYS = {"3:2": Decimal("1.5"), "6:5": Decimal("1.2"), "1:1": Decimal(1)}
DOUBLE_TOTALS = {"any": None, "9-11": frozenset((9, 10, 11)), "10-11": frozenset((10, 11))}


@dataclass(frozen=True)
class Rules:
    """A table's rule set. Build it with ``Rules.preset`` or ``Rules.from_json``.

    Keys (all in the JSON form; docs/engine.md has the table with each key's source document,
    docs/sources.md each rule behind them):
      decks (1-8); dealer_cards: ``one`` (one card until the players finish), ``hole`` (second
      card face down, peek on an ace or ten), ``open`` (both face up); dealer_hits_soft_17;
      blackjack_pays ``3:2``/``6:5``/``1:1``; ties ``push``/``dealer``; insurance; even_money;
      double_on ``any``/``9-11``/``10-11``; double_after_split; double_card
      ``face-up``/``face-down`` (the double's card dealt face down and entered when it is turned,
      after the dealer's hand: docs/sources.md#double); player_cards ``face-up``/``face-down``
      (the players' two cards of the deal dealt face down, each entered when it is turned, at
      the box's turn: docs/sources.md#players-cards-face-down); max_hands (1-4); resplit_aces;
      hit_split_aces; three_sevens (3:1, suited 5:1); dealer_blackjack_takes ``all``/``original``
      (one-card game only: what a dealer Blackjack takes from doubled and split hands);
      blackjack_beats_dealer_blackjack (a player Blackjack is paid even against a dealer
      Blackjack: docs/sources.md#open-dealer-blackjack); split_blackjack
      ``twenty-one``/``instant-win`` (an ace and a ten on a split hand: an ordinary 21, or won
      at once 1:1: docs/sources.md#split-twenty-one); split_deal ``in-turn``/``both-hands`` (a
      split hand's second card when its turn comes, or both split hands' second cards at once:
      docs/sources.md#split); cut_card ``quarter-third``/``near-end`` (where the cut card goes:
      1/4 to 1/3 of the pack behind it, or near the end, up to fifty cards:
      docs/sources.md#cut-card-position; ``in-play-200-220``: 200 to 220 of 312 cards played);
      insurance_amount ``up-to-half``/``half`` (any insurance up to half the box's bet, or
      exactly half: docs/sources.md#insurance); burn_card ``hole-card``/``always``/``never``
      (the first card after a shuffle is burnt with a hole card only, always, or never:
      docs/sources.md#burn-card); shuffle_every_round (a new shuffle before every round:
      docs/sources.md#shuffle-when); max_boxes_per_player (0-7, 0 = no limit: the boxes
      one player may bet on, 3 in the open-cards game: docs/sources.md#box-bet-limits);
      offer_double_9_11 (the dealer himself offers the double on a first two cards of 9, 10 or
      11: a prompt, docs/sources.md#double); newcomer_consent (a newcomer takes a free box only
      with the seated players' consent: docs/sources.md#newcomer-free-box). cut_card,
      burn_card, shuffle_every_round and the last three are the live table's
      (``game.table.cuts``, ``game.services``, ``game.table.live``, ``game.screens.presenters``):
      the round never reads them.

    A key that cannot matter under the others (``resplit_aces`` with ``max_hands`` under 3, the
    splitting options with ``max_hands`` 1) is accepted and kept as given; ``moot`` names them.
    """

    decks: int = 6
    dealer_cards: str = "one"
    dealer_hits_soft_17: bool = False
    blackjack_pays: str = "3:2"
    ties: str = "push"
    insurance: bool = True
    # Absent from rule sets stored before it existed: "up-to-half" is how they were played.
    insurance_amount: str = "up-to-half"
    even_money: bool = True
    double_on: str = "any"
    double_after_split: bool = True
    # Absent from rule sets stored before it existed: "face-up" is how they were played.
    double_card: str = "face-up"
    # Absent from rule sets stored before it existed: "face-up" is how they were played.
    player_cards: str = "face-up"
    max_hands: int = 4
    resplit_aces: bool = True
    hit_split_aces: bool = False
    three_sevens: bool = True
    dealer_blackjack_takes: str = "all"
    blackjack_beats_dealer_blackjack: bool = False
    # Absent from rule sets stored before these keys existed: the defaults are the old behaviour.
    split_blackjack: str = "twenty-one"
    split_deal: str = "in-turn"
    # The live table's procedures, kept with the rule set so that each preset plays its
    # document (docs/engine.md, "Table procedures"); the round itself never reads them.
    cut_card: str = "quarter-third"
    max_boxes_per_player: int = 0
    offer_double_9_11: bool = True
    newcomer_consent: bool = True
    # Absent from rule sets stored before these keys existed: the defaults are what every
    # table did before (a burn with a hole card only; a shuffle when the cut card came out).
    burn_card: str = "hole-card"
    shuffle_every_round: bool = False
    # Derived once, for the hot path.
    bj_ratio: Decimal = field(init=False, compare=False, repr=False)
    double_totals: frozenset | None = field(init=False, compare=False, repr=False)

    def __post_init__(self):
        self._validate()
        object.__setattr__(self, "bj_ratio", PAYS[self.blackjack_pays])
        object.__setattr__(self, "double_totals", DOUBLE_TOTALS[self.double_on])

    def _validate(self) -> None:
        d = self.decks
        if not isinstance(d, int) or isinstance(d, bool) or not 1 <= d <= 8:
            raise RulesError(f"decks must be a whole number from 1 to 8, not {d!r}", key="decks")
        m = self.max_hands
        if not isinstance(m, int) or isinstance(m, bool) or not 1 <= m <= 4:
            raise RulesError(
                f"max_hands must be a whole number from 1 to 4, not {m!r}", key="max_hands"
            )
        b = self.max_boxes_per_player
        if not isinstance(b, int) or isinstance(b, bool) or not 0 <= b <= 7:
            raise RulesError(
                f"max_boxes_per_player must be a whole number from 0 (no limit) to 7, not {b!r}",
                key="max_boxes_per_player",
            )
        for key, allowed in CHOICES.items():
            value = getattr(self, key)
            if value not in allowed:
                raise RulesError(
                    f"{key} must be one of {', '.join(allowed)}, not {value!r}", key=key
                )
        for key in BOOLS:
            if not isinstance(getattr(self, key), bool):
                raise RulesError(
                    f"{key} must be true or false, not {getattr(self, key)!r}", key=key
                )
        if self.dealer_cards == "open" and (self.insurance or self.even_money):
            raise RulesError(
                "insurance and even money cannot be offered when both dealer cards are face up",
                key="insurance",
            )
        if self.dealer_cards != "one" and self.dealer_blackjack_takes != "all":
            raise RulesError(
                "dealer_blackjack_takes applies only when the dealer has one card until the "
                "players finish (dealer_cards one); with a peek or open cards the dealer's "
                "Blackjack is known before anyone doubles or splits",
                key="dealer_blackjack_takes",
            )

    # -- presets and JSON -----------------------------------------------------------------

    @classmethod
    def preset(cls, name: str) -> Rules:
        """One of ``PRESETS``: ``standard``, ``hole-card``, ``open-cards``
        (docs/sources.md#presets)."""
        try:
            return PRESETS[name]
        except (KeyError, TypeError):
            raise RulesError(
                f"Unknown rule preset {name!r}; presets are {', '.join(PRESETS)}", key="preset"
            )

    @classmethod
    def from_json(cls, obj) -> Rules:
        """A preset name, or ``{"preset": name, <key>: <override>, ...}`` (preset defaults to
        ``standard``)."""
        if isinstance(obj, Rules):
            return obj
        if isinstance(obj, str):
            return cls.preset(obj)
        if not isinstance(obj, dict):
            raise RulesError(
                "rules must be a preset name or an object with a preset and overrides",
                key="rules",
            )
        base = cls.preset(obj.get("preset", "standard"))
        overrides = {k: v for k, v in obj.items() if k != "preset"}
        unknown = sorted(set(overrides) - set(KEYS))
        if unknown:
            raise RulesError(
                f"Unknown rule key{'s' if len(unknown) > 1 else ''}: {', '.join(unknown)}",
                key=unknown[0],
            )
        values = base.to_json()
        values.update(overrides)
        return cls(**values)

    def to_json(self) -> dict:
        """Every key with its value as given (a complete rule set, no preset reference), so
        ``Rules.from_json(r.to_json()) == r``. Keys listed in ``moot`` are kept as set although
        they change nothing (e.g. ``resplit_aces: true`` with ``max_hands: 2``)."""
        return {k: getattr(self, k) for k in KEYS}

    @property
    def name(self) -> str | None:
        """The preset name when the rules are exactly a preset, else ``None``."""
        for name, preset in PRESETS.items():
            if preset == self:
                return name
        return None

    @property
    def moot(self) -> tuple[str, ...]:
        """Keys set to allow something this rule set never lets happen, so they change nothing:
        ``resplit_aces`` when ``max_hands`` is under 3 (a resplit makes a third hand), and
        ``double_after_split``, ``hit_split_aces``, ``split_blackjack``, ``split_deal`` when
        ``max_hands`` is 1 (no splits). Reported, not refused: a house may narrow
        ``max_hands`` on a preset without restating every splitting option."""
        out = []
        if self.max_hands < 3 and self.resplit_aces:
            out.append("resplit_aces")
        if self.max_hands == 1:
            out += [k for k in ("double_after_split", "hit_split_aces") if getattr(self, k)]
            out += ["split_blackjack", "split_deal"]
        return tuple(out)

    @property
    def burns_first_card(self) -> bool:
        """Whether the live table burns the first card after a shuffle
        (docs/sources.md#burn-card): ``burn_card`` ``always``, or ``hole-card`` (the default,
        what every table did before the key) with the dealer's second card face down."""
        if self.burn_card == "hole-card":
            return self.dealer_cards == "hole"
        return self.burn_card == "always"

    @property
    def family(self) -> str:
        """Strategy family: ``one``, ``hole`` or ``open`` (the dealer_cards value)."""
        return self.dealer_cards


KEYS = tuple(f.name for f in fields(Rules) if f.init)

# One per source document: docs/sources.md#presets.
PRESETS: dict[str, Rules] = {
    # The standard game: one dealer card, S17, 3:2, insurance and even money, double any
    # two cards and after splits, up to 4 hands, resplit aces, three sevens 3:1 / suited 5:1.
    "standard": Rules(),
    # The hole-card game: hole card with a peek on an ace or ten; no three-sevens bonus; a
    # Blackjack on a split pair is an instant win paid 1:1; both split hands get their second
    # card at once; the cut card near the end, up to fifty cards behind it.
    "hole-card": Rules(
        dealer_cards="hole",
        three_sevens=False,
        split_blackjack="instant-win",
        split_deal="both-hands",
        cut_card="near-end",
        offer_double_9_11=False,
    ),
    # Open dealer cards: both open, H17, Blackjack 1:1 even against a dealer Blackjack,
    # the dealer wins ties, no insurance, double on two cards; a player bets on 3 boxes at most.
    "open-cards": Rules(
        dealer_cards="open",
        dealer_hits_soft_17=True,
        blackjack_pays="1:1",
        ties="dealer",
        insurance=False,
        even_money=False,
        three_sevens=False,
        blackjack_beats_dealer_blackjack=True,
        max_boxes_per_player=3,
        offer_double_9_11=False,
    ),
}
