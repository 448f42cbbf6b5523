"""What a live screen shows, computed once per change from the round's state.

Plain data for the templates (language-neutral: labels are chosen in the templates).
Nothing here decides a total or a payout: every figure comes from the engine's state.
"""

from __future__ import annotations

from decimal import Decimal

from django.db import models
from django.utils import timezone

from game import live
from game.engine import Card, hand_total
from game.models import ErrorFlag, LiveTable, Round
from game.services import cut_limits, table_rules
from staff.selectors import table_staff
from tables.models import Alert
from tables.selectors import active_reservations

SUIT_SYMBOLS = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}
RANK_LABELS = {"T": "10"}
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"]


def card_view(code: str, hidden: bool = False) -> dict:
    if hidden:
        return {"code": "", "hidden": True}
    rank, suit = code[0], code[1:] or None
    return {
        "code": code,
        "rank": RANK_LABELS.get(rank, rank),
        "suit": SUIT_SYMBOLS.get(suit, "") if suit else "",
        "red": suit in ("h", "d"),
        "hidden": False,
    }


def total_view(codes: list[str], *, blackjack: bool = False) -> dict:
    """How the croupier announces a total: "Blackjack", "bust 24", "soft 17", "17"."""
    if not codes:
        return {"kind": "none", "value": 0}
    total, soft = hand_total([Card.parse(c) for c in codes])
    if blackjack:
        kind = "blackjack"
    elif total > 21:
        kind = "bust"
    elif soft:
        kind = "soft"
    else:
        kind = "hard"
    return {"kind": kind, "value": total}


def table_view(table, live_row: LiveTable | None = None) -> dict:
    """The complete state of one table's live screens."""
    live_row = (
        live_row
        or LiveTable.objects.select_related(
            "current_round", "current_shoe__shuffled_by"
        ).get_or_create(table=table)[0]
    )
    rules = table_rules(table)
    round_row: Round | None = live_row.current_round
    shoe = live_row.current_shoe
    state = live.TableRound.from_dict(round_row.snapshot) if round_row else None
    view = {
        "table": table,
        "table_id": table.pk,
        "version": live_row.version,
        "simulated": table.card_entry == table.CardEntry.SIMULATED,
        "rules": rules,
        "suits": rules.three_sevens,  # a suited bonus needs suits on every card
        "ranks": RANKS,
        "suit_choices": list(SUIT_SYMBOLS.items()),
        "burn_needed": rules.dealer_cards == "hole" and table.card_entry == "manual",
        "cut_low": cut_limits(rules.decks)[0],
        "cut_high": cut_limits(rules.decks)[1],
        "staff": table_staff(table=table),
        "shoe": _shoe_view(shoe),
        "round": None,
        "phase": "idle",
        "legal": frozenset(),
        "flags": list(
            ErrorFlag.objects.filter(table=table, seen_at__isnull=True).select_related("raised_by")[
                :5
            ]
        ),
        "last_settlement": _last_settlement(table),
        "alerts": list(
            Alert.objects.filter(table=table, acknowledged_at__isnull=True).order_by("-created_at")[
                :5
            ]
        ),
    }
    view["reservations"] = [
        {
            "box": r.box,
            "seat": r.seat,
            "expires_at": r.expires_at,
            "expires_iso": r.expires_at.isoformat(),
            "placed_by": r.placed_by,
        }
        for r in active_reservations(table=table)
    ]
    view["reserved"] = {r["box"] for r in view["reservations"]}
    view["now_iso"] = timezone.now().isoformat()
    view["table_open"] = table.status == table.Status.OPEN
    open_round = state is not None and state.is_open
    view["can_open_round"] = (
        not open_round
        and view["shoe"] is not None
        and not view["shoe"]["needs_shuffle"]
        and table.status == table.Status.OPEN
    )
    view["can_shuffle"] = not open_round
    idle = [
        name
        for name, allowed in (
            ("open-round", view["can_open_round"]),
            ("shuffle", view["can_shuffle"]),
        )
        if allowed
    ]
    view["legal_list"] = " ".join(idle)
    view["dashboard"] = _dashboard_view(table, view)
    if state is None:
        return view
    view["round"] = {"number": round_row.number, "status": state.status, "id": round_row.pk}
    view["phase"] = state.status
    view["legal"] = state.legal_commands()
    view["legal_list"] = " ".join(sorted(view["legal"] | set(idle)))
    view["cut_card_out"] = state.cut_card_out
    view["corrections"] = state.corrections
    view["void_reason"] = state.void_reason
    engine = state.engine
    view["dealer"] = _dealer_view(state)
    view["boxes"] = _boxes_view(table, state)
    view["at_stake"] = _at_stake(state)
    view["turn"] = engine.turn if state.status in live.OPEN_STATUSES else None
    view["awaiting"] = engine.awaiting() if state.status in live.OPEN_STATUSES else None
    view["decision"] = state.status == "players" and "stand" in view["legal"]
    view["needs_card"] = "card" in view["legal"]
    view["players_net"] = engine.net
    view["lone_player"] = _lone_player(table, state, view["reserved"])
    view["house_net"] = -engine.net
    return view


def _lone_player(table, state: live.TableRound, reserved: set[int]) -> dict | None:
    """One player at the table with free, unreserved boxes (see game.services)."""
    if state.status != "betting":
        return None
    seats = {share.seat for shares in state.shares.values() for share in shares}
    if len(seats) != 1:
        return None
    free = [n for n in table.box_numbers if n not in state.shares and n not in reserved]
    if not free:
        return None
    return {"seat": next(iter(seats)), "boxes": ", ".join(str(n) for n in free)}


def _shoe_view(shoe) -> dict | None:
    if shoe is None:
        return None
    return {
        "number": shoe.number,
        "dealt": shoe.dealt,
        "size": shoe.size,
        "left": shoe.size - shoe.dealt,
        "penetration_pct": round(100 * shoe.penetration),
        "cut_card_out": shoe.cut_card_out,
        "needs_shuffle": shoe.cut_card_out is not None,
        "shuffled_by": shoe.shuffled_by,
        "shuffled_at": shoe.shuffled_at,
        "reason": shoe.get_reason_display(),
        "burn_card": shoe.burn_card,
    }


def _dealer_view(state: live.TableRound) -> dict:
    engine = state.engine
    codes = [c.code for c in engine.dealer]
    hide_hole = (
        engine.rules.dealer_cards == "hole"
        and len(codes) >= 2
        and state.status in ("dealing", "insurance", "players")
    )
    shown = codes[:1] if hide_hole else codes
    cards = [card_view(c) for c in shown] + ([card_view("", hidden=True)] if hide_hole else [])
    must_draw = None
    if state.status == "dealer":
        must_draw = engine.dealer_must_draw()
    return {
        "cards": cards,
        "total": total_view(shown, blackjack=engine.dealer_blackjack and not hide_hole),
        "must_draw": must_draw,
    }


def _boxes_view(table, state: live.TableRound) -> list[dict]:
    engine = state.engine
    seats = {b.number: b for b in engine.seats}
    payouts = state.share_payouts() if state.status in ("settled", "closed") else {}
    paid_now = {}
    for event in state.paid_at_once:
        paid_now.setdefault(event["box"], []).append(event)
    turn = engine.turn if state.status in ("dealing", "players") else None
    out = []
    for number in table.box_numbers:
        shares = state.shares.get(number, [])
        box = seats.get(number)
        view = {
            "number": number,
            "shares": [
                {"seat": s.seat, "stake": s.stake, "owner": i == 0, "card": s.player_card}
                for i, s in enumerate(shares)
            ],
            "bet": engine.bets.get(number, Decimal(0)),
            "in_play": box is not None,
            "hands": [],
            "payouts": payouts.get(number, []),
            "paid_at_once": paid_now.get(number, []),
        }
        if box is not None:
            view["insurance"] = box.insurance
            view["insurance_max"] = box.bet / 2
            view["insurance_net"] = box.insurance_net
            view["even_money"] = box.even_money
            view["bonuses"] = box.bonuses
            view["net"] = box.net
            for index, hand in enumerate(box.hands):
                codes = [c.code for c in hand.cards]
                view["hands"].append(
                    {
                        "index": index + 1,
                        "cards": [card_view(c) for c in codes],
                        "total": total_view(codes, blackjack=hand.blackjack),
                        "bet": hand.bet,
                        "doubled": hand.doubled,
                        "result": hand.result,
                        "settled": hand.settled,
                        "net": hand.net,
                        "is_turn": turn == (number, index)
                        or (state.status == "dealing" and turn == (number, 0)),
                    }
                )
        out.append(view)
    return out


def _at_stake(state: live.TableRound) -> Decimal:
    engine = state.engine
    if not engine.seats:
        return sum(engine.bets.values(), Decimal(0))
    total = Decimal(0)
    for box in engine.seats:
        total += sum((h.bet for h in box.hands), Decimal(0))
        total += box.insurance or 0
    return total


def _last_settlement(table) -> dict | None:
    last = (
        Round.objects.filter(table=table, status=Round.Status.CLOSED)
        .order_by("-number")
        .values("number", "players_net", "closed_at")
        .first()
    )
    if last is None:
        return None
    return {
        "number": last["number"],
        "house_net": -(last["players_net"] or 0),
        "closed_at": last["closed_at"],
    }


ATTENTION_SEVERITIES = (Alert.Severity.WARNING, Alert.Severity.CRITICAL)


def _dashboard_view(table, view: dict) -> dict:
    """The inspector's tile: the shift's money and result, who works the table since when
    (timestamps: the screen counts the minutes), open alerts, and whether the table needs
    attention (an open warning or critical alert, e.g. idle or rotation, or an observer's
    note)."""
    from cashdesk.selectors import table_shift_totals
    from game.watch import shift_window
    from staff.models import TableAssignment

    now = timezone.now()
    day, shift, start = shift_window(now)
    closed = Round.objects.filter(table=table, status=Round.Status.CLOSED, closed_at__gte=start)
    rounds = closed.aggregate(n=models.Count("pk"), net=models.Sum("players_net"))
    open_alerts = Alert.objects.filter(table=table, acknowledged_at__isnull=True)
    severities = set(open_alerts.values_list("severity", flat=True))
    return {
        "shift": shift,
        **table_shift_totals(table=table, gaming_day=day, shift=shift),
        "shift_rounds": rounds["n"],
        "shift_result": -(rounds["net"] or Decimal(0)),
        "staff": [
            {"role": a.role, "name": a.user.display_name, "since_iso": a.starts_at.isoformat()}
            for a in TableAssignment.objects.filter(table=table, ends_at__isnull=True)
            .select_related("user")
            .order_by("role")
        ],
        "open_alerts": len(severities) and open_alerts.count(),
        "critical": Alert.Severity.CRITICAL in severities,
        "attention": bool(severities & set(ATTENTION_SEVERITIES)) or bool(view["flags"]),
    }
