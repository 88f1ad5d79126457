"""htmx requests from someone whose session has ended go to the login page, not into an error slot."""

from urllib.parse import urlsplit

from django.conf import settings
from django.contrib.auth.views import redirect_to_login
from django.shortcuts import resolve_url
from django_htmx.http import HttpResponseClientRedirect

from .secure_context import secure_context


class HtmxLoginRedirectMiddleware:
    """Answer an anonymous htmx request that would be sent to the login page (or refused) with
    HX-Redirect to the login page, coming back to the page it was made from (HX-Current-URL)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        htmx = getattr(request, "htmx", None)
        if not htmx or request.user.is_authenticated or not self._to_login(response):
            return response
        current = urlsplit(htmx.current_url or "")
        back = current.path + (f"?{current.query}" if current.query else "") if current.path else "/"
        return HttpResponseClientRedirect(redirect_to_login(back).url)

    @staticmethod
    def _to_login(response) -> bool:
        if response.status_code == 403:
            return True
        if response.status_code not in (301, 302, 303, 307, 308):
            return False
        login = resolve_url(settings.LOGIN_URL)
        return urlsplit(response.get("Location", "")).path == login


class OpenerPolicyWhereHeededMiddleware:
    """Leave the Cross-Origin-Opener-Policy header (SecurityMiddleware's) off a page that is no secure
    context, plain HTTP at a LAN address: a browser ignores it there and says so in the console, on every
    page the README's way to play with phones serves."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if "Cross-Origin-Opener-Policy" in response.headers and not secure_context(request):
            del response.headers["Cross-Origin-Opener-Policy"]
        return response
