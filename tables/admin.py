from django import forms
from django.contrib import admin
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from tables import services
from tables.models import (
    Alert,
    Checklist,
    ChecklistStep,
    ChipCount,
    Pit,
    Reservation,
    Table,
    TableChange,
)


@admin.register(Pit)
class PitAdmin(admin.ModelAdmin):
    list_display = ("name",)


class TableAdminForm(forms.ModelForm):
    class Meta:
        model = Table
        # No status: the lifecycle moves only through the checklists.
        fields = [
            "pit",
            "number",
            "name",
            "boxes",
            "min_bet",
            "max_bet",
            "rules",
            "card_entry",
            "reservation_minutes",
            "reservation_seconds",
            "chip_denominations",
            "par_float",
        ]

    def clean(self):
        cleaned = super().clean()
        if self.instance.pk and self.instance.status != Table.Status.CLOSED and self.changed_data:
            raise ValidationError(
                _("The table's settings and rules change only while the table is closed.")
            )
        from game.engine import Rules, RulesError

        try:
            Rules.from_json(cleaned.get("rules") or "standard")
        except RulesError as error:
            self.add_error("rules", error.message)
        return cleaned


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    form = TableAdminForm
    list_display = ("number", "name", "pit", "boxes", "min_bet", "max_bet", "status", "card_entry")
    list_filter = ("pit", "status")
    readonly_fields = ("status",)

    def save_model(self, request, obj, form, change):
        if not change:
            super().save_model(request, obj, form, change)
            return
        fields = {name: form.cleaned_data[name] for name in form.changed_data}
        services.table_configure(table=obj, changed_by=request.user, **fields)


class ReadOnlyAdmin(admin.ModelAdmin):
    """History: kept, never edited here."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


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
    list_display = ("table", "kind", "total", "counted_by", "counted_at")
    list_filter = ("kind", "table")


@admin.register(Reservation)
class ReservationAdmin(ReadOnlyAdmin):
    list_display = ("table", "box", "seat", "placed_by", "placed_at", "expires_at", "end_reason")
    list_filter = ("table", "end_reason")


@admin.register(Alert)
class AlertAdmin(ReadOnlyAdmin):
    list_display = ("table", "kind", "severity", "created_at", "acknowledged_at")
    list_filter = ("kind", "severity")
