from django.urls import path

import floor.converters  # noqa: F401  (registers <id:...>, the bounded record id)
from cashdesk import views

app_name = "cashdesk"
urlpatterns = [
    path("duty/", views.duty_home, name="duty_home"),
    path("duty/slips/issue/", views.slip_issue, name="slip_issue"),
    path("duty/exceptions/resolve/", views.resolve, name="resolve"),
    path("duty/corrections/confirm/", views.correction_confirm, name="correction_confirm"),
    path("duty/day/close/", views.day_close, name="day_close"),
    path("duty/day/reopen/", views.day_reopen, name="day_reopen"),
    path("duty/drop/", views.drop, name="drop"),
    path("reports/", views.report, name="report"),
    path("reports/print/", views.report_print, name="report_print"),
    path("reports/export/", views.export, name="export"),
    path("reports/records/", views.records, name="records"),
    path("reports/records/export/", views.records_export, name="records_export"),
    path("tables/<id:table_id>/", views.table_cash, name="table"),
    path("tables/<id:table_id>/cash-in/", views.cash_in, name="cash_in"),
    path("tables/<id:table_id>/tip/", views.tip, name="tip"),
    path("tables/<id:table_id>/recount/", views.recount, name="recount"),
    path("tables/<id:table_id>/cash-in/confirm/", views.cash_in_confirm, name="cash_in_confirm"),
    path("tables/<id:table_id>/cash-in/chips/", views.cash_in_chips, name="cash_in_chips"),
    path("tables/<id:table_id>/cash-in/correct/", views.cash_in_correct, name="cash_in_correct"),
    path(
        "tables/<id:table_id>/chip-count/correct/",
        views.chip_count_correct,
        name="chip_count_correct",
    ),
    path("tables/<id:table_id>/slips/request/", views.slip_request, name="slip_request"),
    path("tables/<id:table_id>/slips/receive/", views.slip_receive, name="slip_receive"),
    path("tables/<id:table_id>/slips/void/", views.slip_void, name="slip_void"),
]
