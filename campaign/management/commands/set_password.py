"""Set a user's password without a prompt: `manage.py set_password USER --password PW` or on stdin."""

import sys

from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError


class Command(BaseCommand):
    stealth_options = ("stdin",)
    help = "Set USER's password from --password or from the first line of stdin, checked by the validators."

    def add_arguments(self, parser):
        parser.add_argument("username")
        parser.add_argument("--password", help="The new password; read from stdin when omitted.")

    def handle(self, *args, username, password=None, **options):
        User = get_user_model()
        try:
            user = User.objects.get(**{User.USERNAME_FIELD: username})
        except User.DoesNotExist:
            raise CommandError(f"No user named {username!r}.") from None
        if password is None:
            stdin = options.get("stdin") or sys.stdin
            password = stdin.readline().rstrip("\r\n")
        if not password:
            raise CommandError("No password given: use --password or pipe it on stdin.")
        try:
            validate_password(password, user)
        except ValidationError as error:
            raise CommandError(" ".join(error.messages)) from None
        user.set_password(password)
        user.save(update_fields=["password"])
        self.stdout.write(f"Password for {username} changed.")
