"""Forms of the pit boss's table page: they parse what was typed; services decide."""

from django import forms
from django.utils.translation import gettext_lazy as _


class SignForm(forms.Form):
    slot = forms.ChoiceField(choices=[("pit_boss", "pit_boss"), ("second", "second")])
    identifier = forms.CharField(label=_("Username"), max_length=150)
    secret = forms.CharField(
        label=_("Password"), widget=forms.PasswordInput(render_value=False), max_length=128
    )
