"""Rebuild a saga from its archive (format 2): `manage.py import_saga FILE` (`-` reads stdin)."""

import sys

from django.core.management.base import BaseCommand, CommandError

from combat.archive.checks import Refused
from combat.archive.importer import import_saga
from combat.archive.reading_file import parsed
from combat.models import Event


class Command(BaseCommand):
    help = (
        "Import a saga archive (the storyguide's archive.json): people are matched or made by username; "
        "every row gets a new id, so any instance takes it and the same file twice makes two sagas. "
        "Nothing is written when anything is refused."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", help="The archive, or - for stdin.")

    def handle(self, *args, file, **options):
        try:
            raw = sys.stdin.buffer.read() if file == "-" else _read(file)
        except OSError as error:
            raise CommandError(f"cannot read {file}: {error.strerror}", returncode=2) from None
        try:
            saga = import_saga(parsed(raw))
        except Refused as refusal:
            raise CommandError(f"refused, nothing written: {refusal}", returncode=2) from None
        encounters = saga.encounters.count()
        events = Event.objects.filter(encounter__saga=saga).count()
        name = saga.name
        self.stdout.write(f"Imported “{name}” (saga {saga.pk}): {encounters} encounters, {events} events.")


def _read(path: str) -> bytes:
    with open(path, "rb") as handle:
        return handle.read()
