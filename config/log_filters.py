"""What the server's log says of a request refused for the client's own reason: one line, no traceback."""

import logging


class RefusalsInOneLine(logging.Filter):
    """A 4xx that Django logs with its exception attached keeps its line and loses the traceback: the server
    did what it should. So `django.request`'s PermissionDenied (the admin's refused write, "Only the
    storyguide can do that.") and BadRequest, and `django.security`'s DisallowedHost (a Host header the
    server was not given: 400). A 5xx keeps its traceback. On the console handler, which every record reaches
    (a logger's filter would not see its children's records)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if 400 <= getattr(record, "status_code", 0) < 500:
            record.exc_info = record.exc_text = None
        return True
