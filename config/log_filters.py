"""What the server's log says of a request refused for the client's own reason: one line, no traceback."""

import logging


class RefusalsInOneLine(logging.Filter):
    """A 4xx that Django logs with its exception attached (PermissionDenied: the admin's refused write, or
    "Only the storyguide can do that."; BadRequest) keeps its line ("Forbidden (Permission denied): /admin/…")
    and loses the traceback: the server did what it should. A 5xx keeps its traceback."""

    def filter(self, record: logging.LogRecord) -> bool:
        if 400 <= getattr(record, "status_code", 0) < 500:
            record.exc_info = record.exc_text = None
        return True
