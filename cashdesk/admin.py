"""Read-only admin: cash-desk records are written through the services only and never
edited (a correction is a new record)."""

from django.contrib import admin

from cashdesk.models import (
    CashIn,
    CashInCorrection,
    DropCount,
    GamingDayClose,
    Resolution,
    Slip,
    Tip,
)
from floor.admin import ReadOnlyAdmin


@admin.register(CashIn)
class CashInAdmin(ReadOnlyAdmin):
    list_display = ["entered_at", "table", "amount", "destination", "status", "player_card"]
    list_filter = ["gaming_day", "status", "destination"]


@admin.register(CashInCorrection)
class CashInCorrectionAdmin(ReadOnlyAdmin):
    list_display = ["corrected_at", "cash_in", "amount", "corrected_by", "confirmed_by"]


@admin.register(Tip)
class TipAdmin(ReadOnlyAdmin):
    list_display = ["recorded_at", "table", "box", "amount"]
    list_filter = ["gaming_day"]


@admin.register(Slip)
class SlipAdmin(ReadOnlyAdmin):
    list_display = ["label", "kind", "table", "total", "requested_at", "issued_at", "received_at"]
    list_filter = ["gaming_day", "kind"]


@admin.register(DropCount)
class DropCountAdmin(ReadOnlyAdmin):
    list_display = ["gaming_day", "table", "amount", "entered_at", "replaces", "confirmed_by"]


@admin.register(Resolution)
class ResolutionAdmin(ReadOnlyAdmin):
    list_display = ["kind", "object_id", "resolved_by", "resolved_at"]


@admin.register(GamingDayClose)
class GamingDayCloseAdmin(ReadOnlyAdmin):
    list_display = ["gaming_day", "closed_by", "closed_at"]
