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
