"""The duty administrator's live floor (``/ws/duty/``): listen-only, one topic (``duty``).
The full state on connect (and when a screen is too far behind for the feed's memory); after
every committed change it shows, a delta: the changed tables' rows and the floor-wide parts
(``cashdesk.publish``). A delta applies only on top of the one before it; the kernel hands
them over in sequence order (``feed.consumers``)."""

from __future__ import annotations

from cashdesk.publish import duty_context, duty_sequence, render_duty
from feed.consumers import ScreenConsumer
from floor.changes import DUTY_TOPIC
from staff.permissions import may


class DutyConsumer(ScreenConsumer):
    screen = "duty"

    def admit(self) -> bool:
        return may("cashdesk.duty_desk", self.user)

    def topics(self) -> dict[str, str]:
        return {DUTY_TOPIC: "duty"}

    def full_state(self, topic: str) -> tuple[str, int]:
        seq = duty_sequence()
        return render_duty(duty_context(seq=seq), self.language), seq
