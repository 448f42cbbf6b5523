"""Forms of the table configuration screen: they parse what was typed; the service decides."""

from django import forms
from django.utils.translation import gettext_lazy as _

from floor import parsing
from floor.forms import AmountField
from game.configuration import rule_fields
from game.configuration.services import CONFIG_FIELDS
from game.engine import PRESETS, Rules, RulesError
from tables.models import Table
from tables.services.chips import MAX_CHIPS_OF_ONE_KIND


class TableConfigForm(forms.ModelForm):
    """A table's configuration: the rule set is a preset and one field per rule key (the
    engine's keys and allowed values, ``game.configuration.rule_fields``), checked by the engine."""

    preset = forms.ChoiceField(
        label=_("Rule preset"),
        choices=[(p, rule_fields.PRESET_LABELS.get(p, p)) for p in PRESETS],
    )
    # The preset whose values the rule fields show: a preset changed on the screen shows
    # its own values before anything is saved.
    preset_shown = forms.CharField(required=False, widget=forms.HiddenInput)
    chips = forms.CharField(
        label=_("Chip set (denominations, comma-separated)"), required=False, max_length=500
    )
    par = forms.CharField(
        label=_("Par float (one line per denomination: value = number of chips)"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 4}),
    )
    # Limits typed as any amount is (floor.parsing: "1 500,50"; no "1e3", no "１００").
    min_bet = AmountField(label=Table._meta.get_field("min_bet").verbose_name)
    max_bet = AmountField(label=Table._meta.get_field("max_bet").verbose_name)

    class Meta:
        model = Table
        # The configuration's fields typed as they are; the rule set, chip set and par float
        # are typed through the extra fields above.
        fields = [f for f in CONFIG_FIELDS if f not in ("rules", "chip_denominations", "par_float")]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        table = self.instance
        rules = rule_fields.rules_dict(table.rules)
        values = rule_fields.effective(rules)
        self.initial.setdefault("preset", rules["preset"])
        self.initial.setdefault("preset_shown", rules["preset"])
        for key in rule_fields.rule_keys():
            self.fields[f"rule_{key}"] = rule_fields.rule_field(key, values.get(key))
            self.initial.setdefault(f"rule_{key}", values.get(key))
        self.initial.setdefault("chips", ", ".join(table.chip_denominations or []))
        self.initial.setdefault(
            "par", "\n".join(f"{d} = {n}" for d, n in (table.par_float or {}).items())
        )

    @property
    def general_fields(self):
        """The table's settings other than the rule set (limits, boxes, chips...)."""
        return [
            f
            for f in self.visible_fields()
            if f.name != "preset" and not f.name.startswith("rule_")
        ]

    @property
    def rule_bound_fields(self):
        return [self[f"rule_{key}"] for key in rule_fields.rule_keys()]

    @classmethod
    def with_preset_values(cls, data, **kwargs):
        """The form as posted, but with every rule field showing the chosen preset's value
        when the preset was just changed (nothing is saved from it)."""
        data = data.copy()
        preset = data.get("preset")
        if preset in PRESETS and preset != data.get("preset_shown"):
            for key, value in PRESETS[preset].to_json().items():
                name = f"rule_{key}"
                if isinstance(value, bool):
                    data.pop(name, None)
                    if value:
                        data[name] = "on"
                else:
                    data[name] = str(value)
            data["preset_shown"] = preset
        return cls(data, **kwargs)

    def chosen_rules(self) -> dict | None:
        """The rule set as chosen (preset and overrides), or None when it cannot be read."""
        data = getattr(self, "cleaned_data", None) or {}
        preset = data.get("preset")
        if preset not in PRESETS:
            return None
        chosen = {}
        for key in rule_fields.rule_keys():
            name = f"rule_{key}"
            if name in data and not self.fields[name].disabled:
                chosen[key] = data[name]
        return rule_fields.overrides_of(preset, chosen)

    def clean_chips(self):
        """The chip set, each value read by the one parser and kept in its normalised
        spelling (``"1 000"`` → ``"1000"``, ``"2,5"`` → ``"2.5"``): the par float's
        denominations and the cash desk's counts match it as written."""
        out = []
        for part in self.cleaned_data.get("chips", "").replace(";", ",").split(","):
            part = part.strip()
            if not part:
                continue
            try:
                value = parsing.amount(part, positive=True)
            except parsing.Unreadable:
                raise forms.ValidationError(
                    _("%(value)s is not a chip value.") % {"value": parsing.shown(part)}
                ) from None
            out.append(parsing.denomination_text(value))
        return out

    def clean_par(self):
        out = {}
        for line in self.cleaned_data.get("par", "").splitlines():
            if not line.strip():
                continue
            key, sep, count = line.partition("=")
            try:
                value = parsing.amount(key, positive=True)
                number = parsing.count(count, high=MAX_CHIPS_OF_ONE_KIND) if sep else None
            except parsing.Unreadable:
                number = None
            if number is None or not count.strip():
                raise forms.ValidationError(
                    _("Write each line as value = number of chips: %(line)s")
                    % {"line": parsing.shown(line, 40)}
                )
            out[parsing.denomination_text(value)] = number
        return out

    def clean(self):
        cleaned = super().clean()
        preset = cleaned.get("preset")
        if preset and cleaned.get("preset_shown") and preset != cleaned.get("preset_shown"):
            self.add_error(
                None,
                _(
                    "The preset changed: the rules below now show its values. "
                    "Check them, then save."
                ),
            )
        rules = self.chosen_rules()
        if rules is not None:
            try:
                Rules.from_json(rules)
            except RulesError as error:
                key = error.params.get("key")
                field = f"rule_{key}" if f"rule_{key}" in self.fields else None
                self.add_error(field, rule_fields.refusal_text(error))
            cleaned["rules"] = rules
        low, high = cleaned.get("min_bet"), cleaned.get("max_bet")
        if low is not None and high is not None and low > high:
            # Said here in words: the model's check constraint would name itself instead.
            self.add_error("max_bet", _("The maximum bet cannot be below the minimum bet."))
        return cleaned

    def settings(self) -> dict:
        """What ``game.configuration.services.table_configure`` takes."""
        data = {name: self.cleaned_data[name] for name in self.Meta.fields}
        data["rules"] = self.cleaned_data["rules"]
        data["chip_denominations"] = self.cleaned_data["chips"]
        data["par_float"] = self.cleaned_data["par"]
        return data
