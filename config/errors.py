"""The page a refused form gets when its CSRF token or cookie is missing or stale (CSRF_FAILURE_VIEW)."""

from django.shortcuts import render


def csrf_failure(request, reason=""):
    """Covenant's own 403 for a form sent without a valid token, in the site's frame with the person's
    header (Django's own is a bare page, drawn with no request); the reason stays in the server's log."""
    return render(request, "403_csrf.html", status=403)
