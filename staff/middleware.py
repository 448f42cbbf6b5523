from asgiref.sync import sync_to_async
from axes.helpers import get_lockout_response
from axes.middleware import AxesMiddleware
from django.conf import settings
from django.utils import translation


class UserLanguageMiddleware:
    """Activate a signed-in person's preferred language (after LocaleMiddleware's guess).

    Placed after the authentication middleware so ``request.user`` exists.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        user = getattr(request, "user", None)
        language = getattr(user, "preferred_language", "") if user is not None else ""
        if user is not None and user.is_authenticated and language:
            translation.activate(language)
            request.LANGUAGE_CODE = language
        return self.get_response(request)


class SignInThrottleMiddleware(AxesMiddleware):
    """django-axes' middleware, with its async path calling the lockout callable as the sync
    path does: ``(request, response, credentials)``.

    django-axes 8.3's ``__acall__`` calls ``get_lockout_response(request, credentials)``, so
    under daphne (an ASGI server: Django runs the middleware chain async) the credentials
    dict arrives where the response belongs, ``staff.throttle.lockout_response`` handed it
    back, and every throttled sign-in answered 500. No setting reaches that call, hence this
    override (docs/operations.md, "Security"; tests/browser/test_sign_in_throttle_daphne.py).
    """

    async def __acall__(self, request):
        response = await self.get_response(request)
        if settings.AXES_ENABLED and getattr(request, "axes_locked_out", None):
            credentials = getattr(request, "axes_credentials", None)
            response = await sync_to_async(get_lockout_response, thread_sensitive=True)(
                request, response, credentials
            )
        return response
