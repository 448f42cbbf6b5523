from django.contrib import admin

from floor.admin import ReadOnlyAdmin
from tables.models import (
    Checklist,
    ChecklistStep,
    ChipCount,
    Pit,
    Reservation,
    TableChange,
)


@admin.register(Pit)
class PitAdmin(admin.ModelAdmin):
    list_display = ("name",)


@admin.register(TableChange)
class TableChangeAdmin(ReadOnlyAdmin):
    list_display = ("table", "kind", "from_status", "to_status", "changed_by", "changed_at")
    list_filter = ("kind", "table")


class ChecklistStepInline(admin.TabularInline):
    model = ChecklistStep
    extra = 0
    can_delete = False
    readonly_fields = ("step", "details", "done_by", "done_at")


@admin.register(Checklist)
class ChecklistAdmin(ReadOnlyAdmin):
    list_display = ("table", "kind", "started_by", "started_at", "completed_at")
    list_filter = ("kind", "table")
    inlines = [ChecklistStepInline]


@admin.register(ChipCount)
class ChipCountAdmin(ReadOnlyAdmin):
    list_display = (
        "table",
        "kind",
        "total",
        "counted_by",
        "counted_at",
        "replaces",
        "confirmed_by",
    )
    list_filter = ("kind", "table")


@admin.register(Reservation)
class ReservationAdmin(ReadOnlyAdmin):
    list_display = ("table", "box", "seat", "placed_by", "placed_at", "expires_at", "end_reason")
    list_filter = ("table", "end_reason")
