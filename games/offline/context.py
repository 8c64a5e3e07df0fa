"""What a page needs of the network, for the base template: ``network_need`` is
``"reload"`` for a page made from what the server knows now (the lobby, the teachers'
page, the lessons' list: opened again when the network returns), ``"live"`` for a page
that keeps a connection (a table: its socket connects again by itself), ``"stay"`` for
one that holds a teacher's form (only the note: nothing typed is lost), ``"retry"`` for the offline
page itself, else empty (a page a device can keep and read offline); and the site's
version (``games.offline.version``), which a page carries (``body[data-site-version]``)
so that a kept copy says which version made it."""

from __future__ import annotations

from games.offline.version import site_version

#: Pages made from what the server knows now, with nothing typed in them to lose.
RELOAD = {"play", "teach", "lessons"}
#: Pages that keep a connection: the note only (their socket connects again by itself).
LIVE = {"play_table", "play_device", "class_teacher", "class_tablets", "class_projector"}
#: Pages with a form a teacher may be filling in: the note only (what was typed stays).
STAY = {
    "class_new",
    "class_lesson",
    "quiz",
    "quiz_print",
    "sheet",
    "lesson_edit",
    "lesson_copy",
}


def network(request):
    match = getattr(request, "resolver_match", None)
    name = match.url_name if match else None
    if name == "offline":
        need = "retry"
    elif name in RELOAD:
        need = "reload"
    elif name in LIVE:
        need = "live"
    elif name in STAY:
        need = "stay"
    else:
        need = ""
    return {"network_need": need, "site_version": site_version()}
