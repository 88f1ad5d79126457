#!/usr/bin/env python
"""Django's command-line utility for Covenant."""

import os
import sys


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    from django.conf import settings
    from django.core.management import execute_from_command_line

    from config.env import BadEnvironment

    try:
        settings.INSTALLED_APPS  # noqa: B018 -- read the settings now, to refuse a bad environment in one line
    except BadEnvironment as refusal:
        sys.exit(f"Covenant will not start: {refusal}")
    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
