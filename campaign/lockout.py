"""The page a locked-out login gets (django-axes' AXES_LOCKOUT_CALLABLE): plain words, status 429."""

from datetime import timedelta

from django.conf import settings
from django.shortcuts import render


def wait_words(cool_off: timedelta) -> str:
    """"15 minutes", "1 hour", "1 hour 30 minutes": how long a locked-out login waits."""
    minutes = max(1, round(cool_off.total_seconds() / 60))
    hours, minutes = divmod(minutes, 60)
    parts = [f"{hours} hour{'s' if hours != 1 else ''}"] if hours else []
    if minutes:
        parts.append(f"{minutes} minute{'s' if minutes != 1 else ''}")
    return " ".join(parts)


def locked_out(request, credentials=None, *args, **kwargs):
    """Too many failed logins for this username from this address: say so and say how long to wait."""
    context = {
        "failure_limit": settings.AXES_FAILURE_LIMIT,
        "wait": wait_words(settings.AXES_COOLOFF_TIME),
        "email_reset": settings.PASSWORD_RESET_BY_EMAIL,
    }
    return render(request, "registration/locked_out.html", context, status=429)
