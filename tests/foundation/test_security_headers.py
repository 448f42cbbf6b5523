"""Security headers and cookies: a Content-Security-Policy without inline scripts, a
Permissions-Policy, every cookie Secure in production, and a proxy that states the scheme
and the client address itself instead of passing the client's own headers on.
(The browser side of the policy: tests/browser/test_content_security_policy.py.)"""

import json
import re
from pathlib import Path

from django.urls import reverse

from tests.conftest import PIN
from tests.foundation.test_settings import _production, _run

ROOT = Path(__file__).resolve().parents[2]


def test_pages_carry_a_strict_content_security_policy_and_a_permissions_policy(client, db):
    response = client.get(reverse("staff:login"))

    policy = response["Content-Security-Policy"]
    assert "script-src 'self'" in policy
    assert "style-src 'self'" in policy
    assert "'unsafe-inline'" not in policy and "'unsafe-eval'" not in policy
    assert "frame-ancestors 'none'" in policy and "object-src 'none'" in policy
    features = response["Permissions-Policy"]
    for feature in ("camera", "microphone", "geolocation", "usb", "payment"):
        assert f"{feature}=()" in features


def test_no_template_has_an_inline_script_handler_or_style():
    inline = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>|\son[a-z]+=|<style|\sstyle=", re.I)
    offenders = [
        str(path.relative_to(ROOT))
        for path in (ROOT / "templates").rglob("*.html")
        if inline.search(path.read_text())
    ]
    assert offenders == []


def test_production_makes_every_cookie_secure():
    code = (
        "import django, json; django.setup(); from django.conf import settings as s; "
        "print(json.dumps([s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE, "
        "s.LANGUAGE_COOKIE_SECURE]))"
    )
    result = _run(["-c", code], **_production())

    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout.strip().splitlines()[-1]) == [True, True, True]


def test_with_secure_cookies_every_cookie_set_at_sign_in_is_secure(client, crew, table, settings):
    settings.SESSION_COOKIE_SECURE = True
    settings.CSRF_COOKIE_SECURE = True
    settings.LANGUAGE_COOKIE_SECURE = True
    crew["dealer"].preferred_language = "en"
    crew["dealer"].save(update_fields=["preferred_language"])

    client.get(reverse("staff:pin_login"))
    signed_in = client.post(reverse("staff:pin_login"), {"identifier": "dealer", "pin": PIN})
    switched = client.post(reverse("staff:language"), {"language": "ru"})

    cookies = [*signed_in.cookies.values(), *switched.cookies.values()]
    assert {c.key for c in cookies} >= {"sessionid", "django_language"}
    assert all(c["secure"] for c in cookies), [c.output() for c in cookies]


def test_the_proxy_sets_the_scheme_and_client_address_itself():
    conf = (ROOT / "docker" / "nginx.conf").read_text()
    directives = [line.split("#")[0] for line in conf.splitlines()]
    text = "\n".join(directives)

    assert "$http_x_forwarded_proto" not in text, "the client's own header is never passed on"
    assert "$proxy_add_x_forwarded_for" not in text, "nor a forwarded-for the client started"
    assert re.search(r"proxy_set_header X-Forwarded-Proto \$\{?PUBLIC_SCHEME\}?;", text)
    assert re.search(r"proxy_set_header X-Forwarded-For \$remote_addr;", text)
