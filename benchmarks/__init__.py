"""Benchmarks and simulators, run by hand and never by a request: the live floor over
WebSockets and the cash reports (``manage.py bench_live``, ``bench_cashdesk``), the detector
measured on simulated bettors (``python -m benchmarks.detection``). An app of its own, above
``game``; nothing in the apps imports it (tests/foundation/test_layers.py)."""
