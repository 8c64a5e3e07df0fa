"""Pages made from the content and the code only (rules, glossary, start, learn, a
walkthrough, home), kept rendered per address, language and content version, and
answered with 304 when the browser's copy is still right.

Every page carries a CSRF token (the language switcher's form), which must never go
from one visitor to another. So the cache keeps the page with a hole where each token
was, and each response fills it with a freshly masked token of this visitor's own
secret (masked anew each time, as Django masks: games.content.visitor_token;
which is also what keeps a compressed page's length from leaking it: BREACH). The
ETag hashes the cached page's key with this visitor's CSRF secret: a 304 always
means "your copy, with your token, is right".
``If-Modified-Since`` alone is not answered with 304, as a date cannot tell whose token
a copy holds; ``Last-Modified`` is sent for information (the later of the last content
change and this process's start: templates, translations and code are as of then).

A page made from more than the content (the lobby's open tables, a replay's seats) is
kept with a ``state``: read at each request, cheaply, it gives the page's group and a
mark of what the page is made of, which goes into the key and so into the ETag. A new
mark makes the page anew, and drops at once the group's pages kept under the older
mark (and ``drop`` drops a group's pages: a purged table's replay).
"""

from __future__ import annotations

import hashlib
import re
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from functools import wraps

from django.http import HttpResponse, HttpResponseNotModified
from django.utils.cache import patch_vary_headers
from django.utils.http import http_date, parse_etags

from games.content.packed_page import PackedPage
from games.content.version import cache_handle, content_version
from games.content.visitor_token import visitor_token

TOKEN_VALUE = re.compile(rb'(name="csrfmiddlewaretoken" value=")[^"]*(")')
HOLE = b"\x00csrf-token\x00"
ACCEPTS_GZIP = re.compile(r"\bgzip\b")  # as django.middleware.gzip reads the header
PROCESS_STARTED_NS = time.time_ns()


#: A state's answer: the page's group and its mark.
State = Callable[..., tuple[str, str]]
#: The groups this process keeps pages of (at most): the oldest is dropped beyond it.
GROUPS_KEPT = 1000


class Groups:
    """Each group's mark, the time it was first seen and the keys kept under it."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.marks: OrderedDict[str, tuple[str, int, set[str]]] = OrderedDict()

    def since(self, group: str, mark: str) -> int:
        """When ``mark`` was first seen for ``group`` (ns); an older mark's pages dropped."""
        with self.lock:
            entry = self.marks.get(group)
            if entry is not None and entry[0] == mark:
                self.marks.move_to_end(group)
                return entry[1]
            now = time.time_ns()
            self.marks[group] = (mark, now, set())
            self.marks.move_to_end(group)
            dropped = [entry] if entry else []
            while len(self.marks) > GROUPS_KEPT:
                dropped.append(self.marks.popitem(last=False)[1])
        pages_cache().delete_many([key for _mark, _since, keys in dropped for key in keys])
        return now

    def kept(self, group: str, mark: str, key: str) -> None:
        with self.lock:
            entry = self.marks.get(group)
            if entry is not None and entry[0] == mark:
                entry[2].add(key)
                return
        pages_cache().delete(key)  # the mark changed meanwhile: not kept after all

    def drop(self, group: str) -> None:
        with self.lock:
            entry = self.marks.pop(group, None)
        if entry is not None:
            pages_cache().delete_many(list(entry[2]))


GROUPS = Groups()


def pages_cache():
    """This thread's handle on the kept pages (``games.content.version.cache_handle``)."""
    return cache_handle("pages")


def drop(group: str) -> None:
    """Drop every page kept in ``group`` by this process."""
    GROUPS.drop(group)


def page_key(request, version: int, mark: str = "") -> str:
    address = f"{request.scheme}://{request.get_host()}{request.get_full_path()}"
    text = f"{version}|{PROCESS_STARTED_NS}|{request.LANGUAGE_CODE}|{address}|{mark}"
    return "page:" + hashlib.sha256(text.encode()).hexdigest()


def visitor_etag(key: str, request) -> str:
    """The page's key with this visitor's CSRF secret (as made by ``get_token``)."""
    secret = request.META.get("CSRF_COOKIE", "")
    return '"' + hashlib.sha256(f"{key}|{secret}".encode()).hexdigest()[:40] + '"'


def cached_page(view=None, *, state: State | None = None):
    """Keep ``view``'s 200 answers to GET and HEAD (see the module's docstring);
    ``state(request, *args, **kwargs)``: the group and mark of a page made from more
    than the content."""
    if view is None:
        return lambda view: cached_page(view, state=state)

    @wraps(view)
    def wrapped(request, *args, **kwargs):
        if request.method not in ("GET", "HEAD"):
            return view(request, *args, **kwargs)
        version = content_version()
        modified = max(version, PROCESS_STARTED_NS)
        group = mark = None
        if state is not None:
            group, mark = state(request, *args, **kwargs)
            modified = max(modified, GROUPS.since(group, mark))
        key = page_key(request, version, mark or "")
        pages = pages_cache()
        kept = pages.get(key)
        if kept is None:
            response = view(request, *args, **kwargs)
            if response.status_code != 200 or response.streaming or response.cookies:
                return response  # not a plain page: served as it is, never kept
            if hasattr(response, "render"):
                response.render()
            body = TOKEN_VALUE.sub(rb"\1" + HOLE + rb"\2", response.content)
            kept = (body, response["Content-Type"], PackedPage(body.split(HOLE)))
            pages.set(key, kept)
            if group is not None:
                GROUPS.kept(group, mark, key)
        token = visitor_token(request)  # this visitor's secret, made now if none
        etag = visitor_etag(key, request)
        packed = ACCEPTS_GZIP.search(request.headers.get("accept-encoding", ""))
        if etag.strip('"') in {e.removeprefix("W/").strip('"') for e in sent_etags(request)}:
            response = HttpResponseNotModified()
        elif packed:  # compressed once when kept (games.content.packed_page)
            body, content_type, page = kept
            response = HttpResponse(page.gzip(token.encode()), content_type=content_type)
            response["Content-Encoding"] = "gzip"
            response["Content-Length"] = str(len(response.content))
        else:
            body, content_type, _ = kept
            response = HttpResponse(body.replace(HOLE, token.encode()), content_type=content_type)
        response["ETag"] = "W/" + etag if packed else etag  # as GZipMiddleware marks it
        response["Last-Modified"] = http_date(modified / 1e9)
        response["Cache-Control"] = "private, no-cache"  # a visitor's own; ask each time
        patch_vary_headers(response, ["Cookie", "Accept-Encoding"])
        return response

    return wrapped


def sent_etags(request) -> list[str]:
    return parse_etags(request.META.get("HTTP_IF_NONE_MATCH", ""))
