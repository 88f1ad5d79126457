"""Whether a browser treats a page as a secure context; the page on serving the LAN over HTTPS.

A phone gets a service worker, "Install app" and a screen wake lock only in a secure context: a page over
HTTPS, or from the machine itself (localhost, 127.0.0.1, ::1). `http://192.168.1.20:8000` is neither.
"""

import ipaddress

from django.core.exceptions import DisallowedHost
from django.http.request import split_domain_port
from django.shortcuts import render
from django.views.decorators.http import require_safe


def secure_context(request) -> bool:
    """HTTPS (behind a proxy, as SECURE_PROXY_SSL_HEADER says, through `is_secure`), or a loopback host."""
    if request.is_secure():
        return True
    try:
        host, _port = split_domain_port(request.get_host())
    except DisallowedHost:  # a host the server was not given: answered 400, logged once already
        return False
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:  # a name, not an address
        return False


@require_safe
def https_on_your_network(request):
    """How to serve Covenant to the table's phones over HTTPS, and what a phone shows the first time."""
    return render(request, "campaign/https.html", {"secure": secure_context(request)})
