"""What a live screen shows, as plain data for the templates — pure functions, no query.

``round_view(state)`` turns one round's state (a ``TableRound``) into what the table's
screens show of it; the live screens and the round replay both use it. ``screen_view``
adds the table, its shoe and its board (staff, notes, alerts, reservations, the shift's
money), all read beforehand by ``game.selectors.table_snapshot``. Nothing here decides a
total or a payout: every figure comes from the engine's state; labels are chosen in the
templates, in the screen's language.
"""

from __future__ import annotations

from decimal import Decimal

from game.engine import Card, hand_total
from game.table import live
from game.table.cards import RANK_LABELS, SUIT_SYMBOLS
from game.table.cuts import cut_card_early, cut_limits
from game.table.shoes import shoe_before_opening, shoe_used
from game.table.snapshot import TableSnapshot


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


def shoe_view(shoe, table=None, *, every_round: bool = False, face_down: int = 0) -> dict | None:
    """The shoe as the screens show it; ``face_down``: the round's cards lying face down,
    out of the shoe though not yet entered (docs/sources.md#players-cards-face-down)."""
    if shoe is None:
        return None
    stale = table is not None and shoe_before_opening(shoe, table)
    round_done = every_round and shoe_used(shoe)
    dealt = shoe.dealt + face_down
    early = cut_card_early(dealt=dealt, size=shoe.size, behind=shoe.cards_behind_cut)
    return {
        "number": shoe.number,
        "dealt": dealt,
        "size": shoe.size,
        "left": shoe.size - dealt,
        "penetration_pct": round(100 * dealt / shoe.size) if shoe.size else 0,
        "cut_card_out": shoe.cut_card_out,
        "needs_shuffle": shoe.cut_card_out is not None or stale or round_done,
        "every_round": round_done and shoe.cut_card_out is None,
        "before_opening": stale,
        "cut_card_early": early,
        "burn_card": shoe.burn_card,
    }


def round_view(
    state: live.TableRound, *, reserved: frozenset[int] = frozenset(), chip_set=()
) -> dict:
    """What the table's screens show of one round in ``state`` (pure)."""
    engine = state.engine
    open_ = state.status in live.OPEN_STATUSES
    legal = state.legal_commands()
    view = {
        "phase": state.status,
        "legal": legal,
        "cut_card_out": state.cut_card_out,
        "corrections": state.corrections,
        "void_reason": state.void_reason,
        "dealer": _dealer_view(state),
        "boxes": _boxes_view(state, chip_set),
        "at_stake": state.at_stake(),
        "turn": engine.turn if open_ else None,
        "awaiting": engine.awaiting() if open_ else None,
        "decision": state.status == "players" and "stand" in legal,
        "decider": _decider(state, legal),
        "needs_card": "card" in legal,
        "players_net": engine.net,
        "house_net": -engine.net,
        "lone_player": state.lone_player(reserved) if state.status == "betting" else None,
        "newcomers": state.newcomers() if state.status == "betting" else [],
        "uninformed": ", ".join(state.uninformed()) if state.status == "betting" else "",
        "double_offer": _double_offer(state, legal),
        "turn_face_down": _turn_face_down(state),
        "face_down_boxes": _face_down_boxes(state) if open_ else [],
        "last_card": _last_card_view(state, legal),
    }
    return view


def _decider(state: live.TableRound, legal) -> str:
    """docs/sources.md#box-shared-by-up-to-three: on a shared box, the owner whose decision
    the croupier takes (the tablet names him); "" otherwise."""
    turn = state.engine.turn if state.status == "players" and "stand" in legal else None
    shares = state.shares.get(turn[0]) if isinstance(turn, tuple) else None
    return shares[0].seat if shares and len(shares) > 1 else ""


def _last_card_view(state: live.TableRound, legal) -> dict | None:
    """The card "correct the last card" would replace, and where it went (its hand only when
    the box has several), or None when no correction is possible now."""
    if "correct-card" not in legal or not state.last_card:
        return None
    last = dict(state.last_card)
    if last["to"] == "box":
        box = next((b for b in state.engine.seats if b.number == last["box"]), None)
        if box is None or len(box.hands) < 2:
            last.pop("hand", None)
    return last


def screen_view(snap: TableSnapshot, *, now_iso: str) -> dict:
    """The complete state of one table's live screens and its inspector tile (pure)."""
    table, rules, board = snap.table, snap.rules, snap.board
    state = snap.round.table_round() if snap.round is not None else None
    face_down = state.engine.cards_face_down if state is not None and state.is_open else 0
    shoe = shoe_view(snap.shoe, table, every_round=rules.shuffle_every_round, face_down=face_down)
    reserved = frozenset(r["box"] for r in board.get("reservations", ()))
    open_round = state is not None and state.is_open
    table_open = table.status == table.Status.OPEN
    cut_low, cut_high = cut_limits(rules.decks, rules.cut_card)
    view = {
        "table": table,
        "table_id": table.pk,
        "version": snap.version,
        "seq": snap.seq,
        "simulated": table.card_entry == table.CardEntry.SIMULATED,
        "rules": rules,
        "suits": rules.three_sevens,  # a suited bonus needs suits on every card
        "burn_needed": rules.burns_first_card and table.card_entry == "manual",
        "cut_low": cut_low,
        "cut_high": cut_high,
        "cut_default": (cut_low + cut_high) // 2,
        "shoe": shoe,
        "now_iso": now_iso,
        "table_open": table_open,
        "reserved": reserved,
        "round": None,
        "phase": "idle",
        "legal": frozenset(),
        **board,
    }
    view["can_open_round"] = (
        not open_round and shoe is not None and not shoe["needs_shuffle"] and table_open
    )
    view["can_shuffle"] = not open_round and table_open  # a closing or closed table: no shoe
    idle = {"open-round"} if view["can_open_round"] else set()
    if view["can_shuffle"]:
        idle.add("shuffle")
    if state is not None:
        view["round"] = {"number": snap.round.number, "status": state.status, "id": snap.round.pk}
        view.update(round_view(state, reserved=reserved, chip_set=table.chip_denominations))
    view["legal_list"] = " ".join(sorted(view["legal"] | idle))
    return view


def _turn_face_down(state: live.TableRound) -> int:
    """docs/sources.md#players-cards-face-down: in the players' turn, how many of the cards
    of the hand whose turn it is lie face down — the croupier turns them and enters each
    before its decision (the tablet's prompt); 0 otherwise."""
    turn = state.engine.turn if state.status == "players" else None
    return state.engine.face_down(*turn) if isinstance(turn, tuple) else 0


def _face_down_boxes(state: live.TableRound) -> list[int]:
    """The boxes with a card lying face down, not yet entered (the inspector's tile)."""
    engine = state.engine
    return [
        box.number
        for box in engine.seats
        if any(engine.face_down(box.number, i) for i in range(len(box.hands)))
    ]


def _double_offer(state: live.TableRound, legal) -> bool:
    """docs/sources.md#double: on a first two cards of 9, 10 or 11 the dealer
    himself offers the double — a prompt for that hand (rule key ``offer_double_9_11``)."""
    if state.status != "players" or "double" not in legal:
        return False
    if not getattr(state.engine.rules, "offer_double_9_11", False):
        return False
    hand = state.engine.current_hand()
    return hand is not None and len(hand.cards) == 2 and hand.total in (9, 10, 11)


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
    return {
        "cards": cards,
        "total": total_view(shown, blackjack=engine.dealer_blackjack and not hide_hole),
        "must_draw": engine.dealer_must_draw() if state.status == "dealer" else None,
    }


def _hand_view(state: live.TableRound, number: int, index: int, hand) -> dict:
    turn = state.engine.turn if state.status in ("dealing", "players", "turning") else None
    codes = [c.code for c in hand.cards]
    # A card dealt face down shows face down on every screen until it is turned and
    # entered: a double's card (docs/sources.md#double, ``double_card: face-down``) and the
    # players' cards of the deal (docs/sources.md#players-cards-face-down).
    face_down = state.engine.face_down(number, index) if state.is_open else 0
    return {
        "index": index + 1,
        "cards": [card_view(c) for c in codes] + [card_view("", hidden=True)] * face_down,
        "face_down": face_down,
        "total": total_view(codes, blackjack=hand.blackjack),
        "bet": hand.bet,
        "doubled": hand.doubled,
        "result": hand.result,
        "settled": hand.settled,
        "net": hand.net,
        "is_turn": turn == (number, index) or (state.status == "dealing" and turn == (number, 0)),
    }


def _box_moves(state: live.TableRound) -> dict[int, dict]:
    """What the engine accepts now on each box (its legal moves: ``RoundState.legal_moves``),
    so the screen offers exactly that and nothing the engine would refuse."""
    out: dict[int, dict] = {}
    if not state.is_open or state.status == "settled":
        return out
    for move in state.engine.legal_moves():
        if move.box is None:
            continue
        box = out.setdefault(move.box, {})
        if move.action == "insure":
            box["insure"] = {"low": move.low, "high": move.high}
        elif move.action == "even-money":
            box["even_money"] = True
    return out


def _boxes_view(state: live.TableRound, chip_set=()) -> list[dict]:
    engine = state.engine
    seats = {b.number: b for b in engine.seats}
    moves = _box_moves(state)
    payouts = state.share_payouts() if state.status in ("settled", "closed") else {}
    paid_now = {}
    for event in state.paid_at_once:
        paid_now.setdefault(event["box"], []).append(event)
    out = []
    for number in state.opening["boxes"]:
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
            "moves": moves.get(number, {}),
        }
        view["staked"] = view["bet"]  # what the players put down before the deal
        if box is not None:
            figures = state.box_settlement(number, chip_set)
            view.update(
                insurance=box.insurance,
                insurance_net=box.insurance_net,
                even_money=box.even_money,
                bonuses=box.bonuses,
                net=box.net,
                hands=[_hand_view(state, number, i, h) for i, h in enumerate(box.hands)],
                bet=figures.in_play,
                paid_now=figures.paid_now,
                # At the end, one instruction: what is still to pay (+) or collect (-) once
                # what was paid at once is taken off, and the chips that pay it.
                to_settle=figures.to_settle,
                payout_chips=[{"value": value, "count": n} for value, n in figures.chips],
                payout_rest=figures.rest,
            )
        out.append(view)
    return out
