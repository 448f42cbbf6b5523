"""Forms of the pit boss's table page: they parse what was typed; services decide."""

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from floor.parsing import record_id


class SignForm(forms.Form):
    slot = forms.ChoiceField(choices=[("pit_boss", "pit_boss"), ("second", "second")])
    identifier = forms.CharField(label=_("Username"), max_length=150)
    secret = forms.CharField(
        label=_("Password"), widget=forms.PasswordInput(render_value=False), max_length=128
    )


class AlertFilterForm(forms.Form):
    """``?table=&kind=&open=1`` of the alert history. A table that is not one of the
    person's (an id that is no id, or beyond any id) or a kind that is not one is refused
    with a message (status 400), never guessed."""

    table = forms.CharField(required=False, max_length=40)
    kind = forms.CharField(required=False, max_length=40)
    open = forms.CharField(required=False, max_length=5)

    def __init__(self, *args, tables, kinds, **kwargs):
        super().__init__(*args, **kwargs)
        self.tables = tables
        self.kinds = kinds

    def clean_table(self):
        text = self.cleaned_data["table"].strip()
        if not text:
            return None
        table = self.tables.filter(pk=record_id(text)).first() if record_id(text) else None
        if table is None:
            raise ValidationError(_("No such table."), code="no_table")
        return table

    def clean_kind(self):
        kind = self.cleaned_data["kind"].strip()
        if kind and kind not in self.kinds:
            raise ValidationError(_("No such kind of alert."), code="no_kind")
        return kind

    def clean_open(self):
        return self.cleaned_data["open"] == "1"

    def error_text(self) -> str:
        return " ".join(str(m) for errors in self.errors.values() for m in errors)
