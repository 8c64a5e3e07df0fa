"""``make bench-smoke`` collects bench/ (its tests and doctests) apart from ``make
test``. The applications served to the page workers and the bare broadcast configure
Django as they are imported: not collected."""

collect_ignore = ["pages/asgi.py", "pages/wsgi.py", "tables/bare_asgi.py"]
