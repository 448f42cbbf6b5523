"""Forms of the table configuration screen: they parse what was typed; the service decides."""

import json
from decimal import Decimal, InvalidOperation

from django import forms
from django.utils.translation import gettext_lazy as _

from game.configuration import CONFIG_FIELDS
from game.engine import PRESETS, Rules, RulesError
from tables.models import Table


class TableConfigForm(forms.ModelForm):
    """A table's configuration: the rule set is a preset plus overrides, checked by the engine."""

    preset = forms.ChoiceField(label=_("Rule preset"), choices=[(p, p) for p in PRESETS])
    overrides = forms.CharField(
        label=_("Rule overrides (JSON)"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_('For example {"decks": 4, "dealer_hits_soft_17": true}.'),
    )
    chips = forms.CharField(
        label=_("Chip set (denominations, comma-separated)"), required=False, max_length=500
    )
    par = forms.CharField(
        label=_("Par float (one line per denomination: value = number of chips)"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 4}),
    )

    class Meta:
        model = Table
        # The configuration's fields typed as they are; the rule set, chip set and par float
        # are typed through the extra fields above.
        fields = [f for f in CONFIG_FIELDS if f not in ("rules", "chip_denominations", "par_float")]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        table = self.instance
        rules = dict(table.rules or {}) if isinstance(table.rules, dict) else {}
        if isinstance(table.rules, str):
            rules = {"preset": table.rules}
        self.initial.setdefault("preset", rules.pop("preset", "standard"))
        self.initial.setdefault("overrides", json.dumps(rules) if rules else "")
        self.initial.setdefault("chips", ", ".join(table.chip_denominations or []))
        self.initial.setdefault(
            "par", "\n".join(f"{d} = {n}" for d, n in (table.par_float or {}).items())
        )

    def clean_overrides(self):
        text = self.cleaned_data.get("overrides", "").strip()
        if not text:
            return {}
        try:
            value = json.loads(text)
        except ValueError:
            raise forms.ValidationError(_("Write the overrides as a JSON object."))
        if not isinstance(value, dict):
            raise forms.ValidationError(_("Write the overrides as a JSON object."))
        return value

    def clean_chips(self):
        out = []
        for part in self.cleaned_data.get("chips", "").replace(";", ",").split(","):
            part = part.strip()
            if not part:
                continue
            try:
                value = Decimal(part)
            except InvalidOperation:
                raise forms.ValidationError(_("%(value)s is not a chip value.") % {"value": part})
            if value <= 0:
                raise forms.ValidationError(_("%(value)s is not a chip value.") % {"value": part})
            out.append(part)
        return out

    def clean_par(self):
        out = {}
        for line in self.cleaned_data.get("par", "").splitlines():
            if not line.strip():
                continue
            key, sep, count = line.partition("=")
            try:
                number = int(count.strip())
            except ValueError:
                number = -1
            if not sep or number < 0:
                raise forms.ValidationError(
                    _("Write each line as value = number of chips: %(line)s") % {"line": line}
                )
            out[key.strip()] = number
        return out

    def clean(self):
        cleaned = super().clean()
        rules = {"preset": cleaned.get("preset", "standard"), **(cleaned.get("overrides") or {})}
        try:
            Rules.from_json(rules)
        except RulesError as error:
            self.add_error("overrides", error.message)
        cleaned["rules"] = rules
        low, high = cleaned.get("min_bet"), cleaned.get("max_bet")
        if low is not None and high is not None and low > high:
            # Said here in words: the model's check constraint would name itself instead.
            self.add_error("max_bet", _("The maximum bet cannot be below the minimum bet."))
        return cleaned

    def settings(self) -> dict:
        """What ``game.configuration.table_configure`` takes."""
        data = {name: self.cleaned_data[name] for name in self.Meta.fields}
        data["rules"] = self.cleaned_data["rules"]
        data["chip_denominations"] = self.cleaned_data["chips"]
        data["par_float"] = self.cleaned_data["par"]
        return data
