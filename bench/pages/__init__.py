"""The site's pages through the production stack, with the page workers under one
server or another (:mod:`.servers`), each page timed beside a bare Django view that goes
through the same middleware (:mod:`.urls`): the yardstick that the machine's load moves
as much as the pages.

- :mod:`.client`: a few browsers fetching one address for a while.
- :mod:`.servers`: the page workers' command lines to compare.
- :mod:`.settings`, :mod:`.urls`, :mod:`.asgi`, :mod:`.wsgi`: the site plus the bare view.
- :mod:`.__main__`: the command line (``python -m bench.pages``).
"""
