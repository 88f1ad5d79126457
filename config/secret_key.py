"""The install's own secret key, for a server started with no SECRET_KEY (`make run`): made once, on the
first start, in a file only its owner may read, and read again at every start after it (docs/deployment.md,
"The secret key")."""

import os
import secrets
import stat
from pathlib import Path

from .env import BadEnvironment

KEY_BYTES = 50  # token_urlsafe(50): 67 characters, past Django's 50 and its check of weak keys
SHORTEST = 50


def read_or_make(path: Path) -> str:
    """The key kept in `path`, made there first if there is none yet; a file others may read is refused."""
    try:
        return _read(path)
    except FileNotFoundError:
        _make(path)
        return _read(path)
    except OSError as error:
        raise BadEnvironment(
            f"cannot read the secret key file {path} ({error.strerror}): "
            "set SECRET_KEY, or SECRET_KEY_FILE to a path you can write"
        ) from None


def _read(path: Path) -> str:
    """The key in `path`, which must be its owner's alone (mode 0600 or stricter) and hold a long key."""
    mode = stat.S_IMODE(os.stat(path).st_mode)
    if mode & 0o077:
        raise BadEnvironment(
            f"the secret key file {path} can be read by others (mode {mode:04o}): chmod 600 {path}"
        )
    key = path.read_text(encoding="ascii", errors="replace").strip()
    if len(key) < SHORTEST:
        raise BadEnvironment(
            f"the secret key file {path} holds no key of {SHORTEST} characters or more: "
            "delete it to have a new one made"
        )
    return key


def _make(path: Path) -> None:
    """Write a new key to `path` with mode 0600, unless another process (a second Daphne, a migrate run
    beside it) wrote one first: the key is written to a file of its own, then linked into place, so a
    reader never sees a half-written key and two starts never make two keys."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        draft = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}")
        descriptor = os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            with os.fdopen(descriptor, "w", encoding="ascii") as out:
                out.write(secrets.token_urlsafe(KEY_BYTES) + "\n")
            try:
                os.link(draft, path)
            except FileExistsError:
                pass  # another process made it first: theirs is the key
        finally:
            draft.unlink(missing_ok=True)
    except OSError as error:
        raise BadEnvironment(
            f"cannot write the secret key file {path} ({error.strerror}): "
            "set SECRET_KEY, or SECRET_KEY_FILE to a path you can write"
        ) from None
