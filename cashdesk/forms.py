"""Every request of the cash desk is read here, once: ids, counts, amounts, gaming days and
report periods become Python values or a refusal in words (the view answers 400 and saves
nothing). Services still decide (who may act, what the figures must satisfy); a form only
parses. Digits become a count, an amount or a player card in the one parser
(``floor.parsing``, through ``floor.forms`` and ``cashdesk.gaming``), so every screen — and
the tablet's socket — says the same."""

import datetime as dt

from django import forms
from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from cashdesk.gaming import gaming_day_of, whole_number
from cashdesk.models import CashIn, Resolution, Slip
from floor.forms import AmountField, player_card_value
from tables.models import Pit, Table

ID_MAX = 2**63 - 1  # the largest key a database id column holds
# No record of this floor can exist outside these days; far dates (0001, 9999) are typing
# errors and would overflow the day arithmetic.
DAY_MIN = dt.date(2000, 1, 1)
DAY_MAX = dt.date(2099, 12, 31)
REPORT_DAYS_MAX = 366
GROUPS = ("table", "pit", "shift", "day")
FORMATS = ("xlsx", "csv")


def today() -> dt.date:
    return gaming_day_of(timezone.now())


def parse_day(value) -> dt.date:
    """A gaming day typed as ``YYYY-MM-DD`` within ``DAY_MIN``..``DAY_MAX``."""
    text = str(value or "").strip()
    try:
        day = dt.date.fromisoformat(text) if len(text) == 10 else None
    except ValueError:
        day = None
    if day is None:
        raise ValidationError(_("“%(value)s” is not a date.") % {"value": text}, code="bad_date")
    if not DAY_MIN <= day <= DAY_MAX:
        raise ValidationError(
            _("Choose a day from %(first)s to %(last)s.")
            % {"first": DAY_MIN.isoformat(), "last": DAY_MAX.isoformat()},
            code="day_out_of_range",
        )
    return day


class IdField(forms.Field):
    """A record's id: ASCII digits from 1 to 2⁶³−1; anything else is "no such record"."""

    def __init__(self, *, message, **kwargs):
        kwargs.setdefault("required", True)
        super().__init__(**kwargs)
        self.error_messages["required"] = message
        self.error_messages["invalid"] = message

    def to_python(self, value):
        text = str(value if value is not None else "").strip()
        if not text:
            return None
        if not (text.isascii() and text.isdigit()) or len(text) > 19 or not 0 < int(text) <= ID_MAX:
            raise ValidationError(self.error_messages["invalid"], code="invalid")
        return int(text)


class GamingDayField(forms.Field):
    def to_python(self, value):
        if value in (None, ""):
            return None
        return parse_day(value)


class MonthField(forms.Field):
    """``YYYY-MM`` → the first day of that month."""

    def to_python(self, value):
        text = str(value or "").strip()
        if not text:
            return None
        try:
            return parse_day(text + "-01")
        except ValidationError as error:
            if error.code == "day_out_of_range":
                raise ValidationError(
                    _("Choose a month from %(first)s to %(last)s.")
                    % {"first": f"{DAY_MIN:%Y-%m}", "last": f"{DAY_MAX:%Y-%m}"},
                    code="month_out_of_range",
                )
            raise ValidationError(
                _("“%(value)s” is not a month (write it as YYYY-MM).") % {"value": text},
                code="bad_month",
            )


class CashDeskForm(forms.Form):
    """A form of the cash desk: its refusal in one line, and what was typed kept for the
    page that shows the refusal."""

    def error_text(self) -> str:
        """Every refusal once, in the order of the fields."""
        said = []
        for errors in self.errors.values():
            for message in errors:
                if str(message) not in said:
                    said.append(str(message))
        return " ".join(said)

    def counts(self, prefix: str, what: str) -> dict[str, int]:
        """Fields named ``<prefix>-<denomination>`` as {denomination: count}, zeros
        dropped. Denominations are checked by the service against the table's set."""
        out = {}
        for key in self.data:
            if key.startswith(prefix + "-"):
                number = whole_number(self.data.get(key), what=what)
                if number:
                    out[key[len(prefix) + 1 :]] = number
        return out

    def counts_into(self, name: str, prefix: str, what: str) -> None:
        try:
            self.cleaned_data[name] = self.counts(prefix, what)
        except ValidationError as error:
            self.add_error(None, error)


def count_inputs(prefix: str, denominations, data=None) -> list[dict]:
    """The inputs of a count by denomination, with what was typed in a refused form."""
    out = []
    for d in denominations:
        name = f"{prefix}-{d}"
        out.append({"denomination": d, "name": name, "value": (data or {}).get(name, "")})
    return out


# -- a table's cash screen ---------------------------------------------------------------

TOKEN_MESSAGE = _("This form is out of date: reload the page and enter it again.")


class SentOnce(CashDeskForm):
    """A money form: it carries its idempotency token (``{% submission_field %}``, new with
    every rendered form), so sending it twice records it once."""

    submission = forms.RegexField(
        regex=r"^[0-9a-f]{32}\Z",
        required=False,
        error_messages={"invalid": TOKEN_MESSAGE},
    )

    def _post_clean(self):
        """The token is missing or broken: said only when the rest of the form reads (the
        person first learns what to correct in what he typed)."""
        super()._post_clean()
        if "submission" in self.errors and len(self.errors) > 1:
            del self.errors["submission"]
        elif not self.errors and not self.cleaned_data.get("submission"):
            self.add_error("submission", TOKEN_MESSAGE)


class CashInForm(SentOnce):
    player_card = forms.CharField(required=False, strip=False)
    destination = forms.ChoiceField(
        choices=CashIn.Destination.choices,
        required=False,
        error_messages={"invalid_choice": _("Choose where the cash goes.")},
    )

    def clean_destination(self):
        return self.cleaned_data.get("destination") or CashIn.Destination.CASH_BOX

    def clean_player_card(self):
        return player_card_value(self.cleaned_data.get("player_card"))

    def clean(self):
        cleaned = super().clean()
        self.counts_into("notes", "note", str(_("notes")))
        self.counts_into("chips", "chip", str(_("chips")))
        return cleaned


class TipForm(SentOnce):
    box = IdField(message=_("Choose a box."))
    amount = AmountField()
    note = forms.CharField(required=False, max_length=500)

    def __init__(self, *args, table: Table, **kwargs):
        super().__init__(*args, **kwargs)
        self.table = table

    def clean_box(self):
        box = self.cleaned_data["box"]
        if box not in self.table.box_numbers:
            raise ValidationError(_("There is no box %(box)s at this table.") % {"box": box})
        return box


class CashInConfirmForm(CashDeskForm):
    cash_in = IdField(message=_("No such record at this table."))


class RecountForm(SentOnce):
    cash_in = IdField(message=_("No such record at this table."))

    def clean(self):
        cleaned = super().clean()
        self.counts_into("notes", "note", str(_("notes")))
        return cleaned


class CashInCorrectForm(SentOnce):
    """A correction of a cash-in's amount: the notes counted by denomination and why."""

    cash_in = IdField(message=_("No such record at this table."))
    note = forms.CharField(required=False, max_length=2000)

    def clean(self):
        cleaned = super().clean()
        self.counts_into("notes", "note", str(_("notes")))
        return cleaned


class ChipCountCorrectForm(SentOnce):
    """A correction of a chip count: the chips counted by denomination and why."""

    count = IdField(message=_("No such record at this table."))
    note = forms.CharField(required=False, max_length=2000)

    def clean(self):
        cleaned = super().clean()
        self.counts_into("chips", "chip", str(_("chips")))
        return cleaned


class SlipRequestForm(SentOnce):
    kind = forms.ChoiceField(
        choices=Slip.Kind.choices,
        error_messages={
            "required": _("Choose fill or credit."),
            "invalid_choice": _("Choose fill or credit."),
        },
    )

    def clean(self):
        cleaned = super().clean()
        self.counts_into("chips", "chip", str(_("chips")))
        return cleaned


class SlipForm(SentOnce):
    slip = IdField(message=_("No such record at this table."))


class SlipVoidForm(SlipForm):
    reason = forms.CharField(required=False, max_length=500)


# -- the duty administrator -----------------------------------------------------------------


class SlipIssueForm(CashDeskForm):
    # No token: the form is in the duty home's live part, rendered once for every duty
    # screen; issuing is a state change that happens once anyway (a second is refused).
    slip = IdField(message=_("No such slip."))


class ResolveForm(CashDeskForm):
    kind = forms.ChoiceField(
        choices=Resolution.Kind.choices,
        error_messages={
            "required": _("No such exception."),
            "invalid_choice": _("No such exception."),
        },
    )
    object_id = IdField(message=_("No such exception."))
    note = forms.CharField(required=False, max_length=2000)
    # The state the page showed (its hash): a record changed since is not resolved blind.
    state = forms.RegexField(
        regex=r"^[0-9a-f]{64}\Z",
        required=False,
        error_messages={"invalid": _("This form is out of date: reload the page.")},
    )

    def clean_state(self):
        return self.cleaned_data.get("state") or None

    second = forms.CharField(required=False, max_length=150)
    second_password = forms.CharField(required=False, max_length=128, strip=False)


CORRECTED_FIGURES = ("drop", "cash_in_correction", "chip_count")


class CorrectionConfirmForm(CashDeskForm):
    """The second signature of a correction of a counted figure: which record (its kind and
    id) and the second person's name and password."""

    kind = forms.ChoiceField(
        choices=[(k, k) for k in CORRECTED_FIGURES],
        error_messages={
            "required": _("No such correction."),
            "invalid_choice": _("No such correction."),
        },
    )
    object_id = IdField(message=_("No such correction."))
    second = forms.CharField(required=False, max_length=150)
    second_password = forms.CharField(required=False, max_length=128, strip=False)


class DayCloseForm(CashDeskForm):
    """The close; with a waiver, its reason and two signatures (the duty administrator's
    own password, a pit boss's or another duty administrator's name and password)."""

    gaming_day = GamingDayField(error_messages={"required": _("Choose a gaming day.")})
    waiver_reason = forms.CharField(required=False, max_length=2000)
    password = forms.CharField(required=False, max_length=128, strip=False)
    second = forms.CharField(required=False, max_length=150)
    second_password = forms.CharField(required=False, max_length=128, strip=False)

    def clean(self):
        cleaned = super().clean()
        if cleaned.get("waiver_reason", "").strip() and not (
            cleaned.get("password") and cleaned.get("second") and cleaned.get("second_password")
        ):
            raise ValidationError(
                _(
                    "A waiver is signed by two people: your password, and the second "
                    "person's name and password."
                ),
                code="waiver_unsigned",
            )
        return cleaned


class DayReopenForm(CashDeskForm):
    """The two signatures of a reopen: the duty administrator's own password, the second
    person's name and password, and the reason."""

    gaming_day = GamingDayField(error_messages={"required": _("Choose a gaming day.")})
    password = forms.CharField(
        max_length=128, strip=False, error_messages={"required": _("Sign with your password.")}
    )
    second = forms.CharField(
        max_length=150,
        error_messages={"required": _("Name the second person who signs the reopen.")},
    )
    second_password = forms.CharField(
        max_length=128,
        strip=False,
        error_messages={"required": _("The second person signs with his password.")},
    )
    reason = forms.CharField(
        max_length=2000, error_messages={"required": _("Give the reason for the reopen.")}
    )


class DropForm(SentOnce):
    table = IdField(message=_("Choose a table."))
    gaming_day = GamingDayField(error_messages={"required": _("Choose a gaming day.")})
    amount = AmountField()
    note = forms.CharField(required=False, max_length=2000)

    def clean_table(self):
        table = Table.objects.filter(pk=self.cleaned_data["table"]).first()
        if table is None:
            raise ValidationError(_("Choose a table."))
        return table


class DropDayForm(CashDeskForm):
    """``?day=`` of the drop screen (today when absent)."""

    day = GamingDayField(required=False)

    def clean_day(self):
        return self.cleaned_data.get("day") or today()


# -- reports --------------------------------------------------------------------------------


class ReportForm(CashDeskForm):
    """The report's period and grouping: ``?day=``, ``?month=YYYY-MM`` or
    ``?first=&last=`` (at most ``REPORT_DAYS_MAX`` days), ``&group=``, ``&format=``."""

    day = GamingDayField(required=False)
    month = MonthField(required=False)
    first = GamingDayField(required=False)
    last = GamingDayField(required=False)
    group = forms.ChoiceField(
        choices=[(g, g) for g in GROUPS],
        required=False,
        error_messages={"invalid_choice": _("Group the report by table, pit, shift or day.")},
    )
    format = forms.ChoiceField(
        choices=[(f, f) for f in FORMATS],
        required=False,
        error_messages={"invalid_choice": _("Download as XLSX or CSV.")},
    )

    def clean(self):
        cleaned = super().clean()
        if self.errors:
            return cleaned
        group = cleaned.get("group") or "table"
        month = cleaned.get("month")
        if month:
            first = month
            last = min((month + dt.timedelta(days=32)).replace(day=1), DAY_MAX + dt.timedelta(1))
            last -= dt.timedelta(days=1)
        else:
            first = cleaned.get("first") or cleaned.get("day") or today()
            last = cleaned.get("last") or first
            first, last = min(first, last), max(first, last)
        if (last - first).days + 1 > REPORT_DAYS_MAX:
            raise ValidationError(
                _("A report covers at most %(days)s days: choose a shorter period.")
                % {"days": REPORT_DAYS_MAX},
                code="period_too_long",
            )
        if group == "shift" and first != last:
            group = "day"  # shifts are per gaming day: a longer period is grouped by day
        cleaned.update(first=first, last=last, group=group, format=cleaned.get("format") or "xlsx")
        return cleaned


class RecordsForm(ReportForm):
    """A report line's records: the period, a table or a pit, and each list's page."""

    table = IdField(message=_("No such table."), required=False)
    pit = IdField(message=_("No such pit."), required=False)

    def clean_table(self):
        pk = self.cleaned_data.get("table")
        if pk is None:
            return None
        table = Table.objects.filter(pk=pk).first()
        if table is None:
            raise ValidationError(_("No such table."))
        return table

    def clean_pit(self):
        pk = self.cleaned_data.get("pit")
        if pk is None:
            return None
        pit = Pit.objects.filter(pk=pk).first()
        if pit is None:
            raise ValidationError(_("No such pit."))
        return pit


class PageForm(CashDeskForm):
    """``?<list>_page=N`` of a paginated list (a page past the end shows the last one)."""

    def __init__(self, *args, lists: tuple[str, ...], **kwargs):
        super().__init__(*args, **kwargs)
        for name in lists:
            self.fields[f"{name}_page"] = IdField(message=_("No such page."), required=False)

    def page(self, name: str) -> int:
        return self.cleaned_data.get(f"{name}_page") or 1


class RecordsExportForm(RecordsForm):
    list = forms.ChoiceField(
        choices=[(n, n) for n in ("cash_ins", "tips", "slips", "drops")],
        required=False,
        error_messages={
            "invalid_choice": _("Choose the list to download: cash-ins, tips, slips or drops.")
        },
    )

    def clean_list(self):
        return self.cleaned_data.get("list") or "cash_ins"
