"""The signed-in user, read at each request with SQL compiled once a process (config.prepared), where
Django's ModelBackend builds and compiles the same read each time: about half a request's own work around
a command's view (docs/performance.md, "A command's CPU"). Still read each request, so a deactivated
account counts at its next one, and Django's session hash check is untouched (it is the caller's)."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.core.exceptions import PermissionDenied

from config.prepared import Prepared

_USER = Prepared(lambda user: get_user_model()._default_manager.filter(pk=user), "user")


class PreparedModelBackend(ModelBackend):
    """Django's ModelBackend, its `get_user` a prepared read. A failed login ends the backends' round here:
    ModelBackend, listed after this one only for the sessions made before it (settings), would hash the
    password again."""

    def authenticate(self, request, username=None, password=None, **kwargs):
        """ModelBackend's check; no user refuses the login (the failure signalled once, as before)."""
        user = super().authenticate(request, username=username, password=password, **kwargs)
        if user is None:
            raise PermissionDenied
        return user

    def get_user(self, user_id):
        """The user of this id if they may sign in (active), read with its SQL compiled once."""
        user = next(iter(_USER(user=user_id)), None)
        return user if user is not None and self.user_can_authenticate(user) else None
