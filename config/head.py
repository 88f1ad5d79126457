"""HEAD is GET without the body (RFC 9110, 9.3.2), for every view at once: a view restricted to GET
(`require_GET`, `require_http_methods(["GET", "POST"])`, a hand-written method check) answers HEAD as it
answers GET, with the same status and headers, Content-Length included, and no body."""


class HeadAsGetMiddleware:
    """Serve a HEAD request as the GET it asks about, then drop the body.

    The views and the middleware inside this one see GET; the request says HEAD again once the answer is
    back, so whatever logs or serves it (Daphne, Django's test client) sees what was asked. Static files
    are not here: ServeStatic, outside this middleware, answers their HEAD itself."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.method != "HEAD":
            return self.get_response(request)
        request.method = "GET"
        try:
            response = self.get_response(request)
        finally:
            request.method = "HEAD"
        if response.streaming:
            response.streaming_content = []
        else:
            response.content = b""
        return response
