"""The table PIN as a Django authentication backend, so a PIN sign-in goes through
``django.contrib.auth.authenticate`` and django-axes throttles it like a password."""

from django.contrib.auth.backends import BaseBackend

from staff import services


class PinBackend(BaseBackend):
    """``authenticate(request, pin_identifier=..., pin=...)``: a croupier's name or employee
    number and PIN. A refusal is left on the request (``request.pin_refusal``) for the screen
    to explain; Django then records the failed try for the throttle."""

    def authenticate(self, request, pin_identifier=None, pin=None):
        if pin_identifier is None or pin is None:
            return None
        try:
            return services.pin_check(identifier=pin_identifier, pin=pin)
        except services.PinError as refusal:
            if request is not None:
                request.pin_refusal = refusal
            return None
