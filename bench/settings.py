"""The fan-out bench's server settings: the project's, with a fast password hasher.

Only logging in changes: a thousand bench users log in over HTTP before the measured window, and the
default PBKDF2 hasher would spend about half a second of server CPU on each. Everything measured
(pages, commands, sockets, pushes) runs exactly as `config.settings` has it.
"""

from config.settings import *  # noqa: F403

PASSWORD_HASHERS = [
    "django.contrib.auth.hashers.MD5PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2PasswordHasher",
]
