"""Gaming days and shifts: both are settings (casino/settings.py), read here only.

A gaming day starts at ``GAMING_DAY_START_HOUR`` local time and lasts 24 hours; it is named
after the calendar date it starts on. Shifts start at ``SHIFT_START_HOURS``; shift 1 is the
one the gaming day starts in.
"""

import datetime as dt

from django.conf import settings
from django.utils import timezone


def gaming_day_of(moment: dt.datetime) -> dt.date:
    """The gaming day a moment belongs to."""
    local = timezone.localtime(moment)
    return (local - dt.timedelta(hours=settings.GAMING_DAY_START_HOUR)).date()


def day_window(day: dt.date) -> tuple[dt.datetime, dt.datetime]:
    """The gaming day's start (inclusive) and end (exclusive), aware."""
    start = timezone.make_aware(
        dt.datetime.combine(day, dt.time(hour=settings.GAMING_DAY_START_HOUR))
    )
    return start, start + dt.timedelta(days=1)


def shift_hours() -> list[int]:
    """Shift start hours in the order of the gaming day (the day's first hour first)."""
    start = settings.GAMING_DAY_START_HOUR
    return sorted(settings.SHIFT_START_HOURS, key=lambda h: (h - start) % 24)


def shift_of(moment: dt.datetime) -> int:
    """The shift number (1, 2, ...) a moment falls in."""
    local = timezone.localtime(moment)
    start = settings.GAMING_DAY_START_HOUR
    offset = (local.hour - start) % 24
    number = 1
    for i, hour in enumerate(shift_hours()):
        if (hour - start) % 24 <= offset:
            number = i + 1
    return number


def shift_window(moment: dt.datetime) -> tuple[dt.date, int, dt.datetime]:
    """The gaming day, the shift number and the shift's start for a moment."""
    day = gaming_day_of(moment)
    shift = shift_of(moment)
    hour = shift_hours()[shift - 1]
    start = day_window(day)[0] + dt.timedelta(hours=(hour - settings.GAMING_DAY_START_HOUR) % 24)
    return day, shift, start
