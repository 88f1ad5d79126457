"""Write a saga's whole archive (format 2) for the host: `manage.py export_saga SAGA_ID [FILE]` (stdout by
default). The storyguide's version of everything, every seat's: what `import_saga` takes back. A troupe whose
encounters' seats are held by several storyguides has no member who may download it (secrets follow the
seat: docs/archive-format.md); the host, who keeps the database, moves it whole."""

import sys

from django.core.management.base import BaseCommand, CommandError

from campaign.models import Saga
from combat.archive.export import archive_bytes
from combat.archive.reading import whole_reader


class Command(BaseCommand):
    help = (
        "Export a saga's whole archive (format 2: everything, every encounter's seat, its troupe), as the "
        "host moves it to another Covenant with import_saga. Writes FILE, or stdout."
    )

    def add_arguments(self, parser):
        parser.add_argument("saga_id", help="The saga's id (My sagas, the admin).")
        parser.add_argument("file", nargs="?", default="-", help="Where to write it; - for stdout.")

    def handle(self, *args, saga_id, file, **options):
        saga = Saga.objects.filter(pk=int(saga_id)).first() if saga_id.isdigit() else None
        if saga is None:
            raise CommandError(f"no saga {saga_id[:40]} here", returncode=2)
        try:
            out = sys.stdout.buffer if file == "-" else open(file, "wb")  # noqa: SIM115
        except OSError as error:
            raise CommandError(f"cannot write {file}: {error.strerror}", returncode=2) from None
        try:
            for piece in archive_bytes(whole_reader(saga)):
                out.write(piece)
        finally:
            if out is not sys.stdout.buffer:
                out.close()
        if file != "-":
            self.stdout.write(f"Exported “{saga.name}” (saga {saga.pk}) to {file}.")
