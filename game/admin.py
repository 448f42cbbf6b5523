"""The table's configuration in the admin goes through the same service as the pit boss's
screen (``game.configuration.services.table_configure``): the engine checks the rule set."""

from django import forms
from django.contrib import admin
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from floor.admin import ReadOnlyAdmin
from floor.forms import AmountField
from game.configuration.services import CONFIG_FIELDS, table_configure
from game.engine import Rules, RulesError
from game.models import Player, RatingSession
from tables.models import Table


class TableAdminForm(forms.ModelForm):
    min_bet = AmountField(label=_("minimum bet"))
    max_bet = AmountField(label=_("maximum bet"))

    class Meta:
        model = Table
        # No status: the lifecycle moves only through the checklists.
        fields = list(CONFIG_FIELDS)

    def clean(self):
        cleaned = super().clean()
        if self.instance.pk and self.instance.status != Table.Status.CLOSED and self.changed_data:
            raise ValidationError(
                _("The table's settings and rules change only while the table is closed.")
            )
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
        table_configure(table=obj, changed_by=request.user, **fields)


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["card", "name", "created_at"]
    search_fields = ["card", "name"]


@admin.register(RatingSession)
class RatingSessionAdmin(ReadOnlyAdmin):
    """Rated play is written by the tablet's two taps only: a session deleted or edited here
    would leave the table's count of seated players (``LiveTable.seated``) wrong."""

    list_display = ["table", "seat", "card", "started_at", "ended_at", "rounds", "total_bet"]
    list_filter = ["gaming_day"]
    readonly_fields = [f.name for f in RatingSession._meta.fields]
