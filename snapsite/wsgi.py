"""WSGI entry point for the page workers behind the proxy (deploy/README.md): pages,
forms and PDFs. WebSockets go to the table processes (snapsite/asgi.py)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "snapsite.settings")
application = get_wsgi_application()
