"""The site's benchmarks, beside the product (not installed, not collected by `make test`).

Each one is a module run as ``python -m bench.NAME`` (``make bench-NAME``), prints a
readable line per measurement and, last, one line of JSON:

- :mod:`bench.engine`: the pure engine (actions applied, bot games, replay, state size).
- :mod:`bench.lease`: what the lease's fence costs each stored step.
- :mod:`bench.tables`: live tables of four simulated players through the production
  stack, against a bare Channels broadcast served by uvicorn alone.
- :mod:`bench.abuse`: well-behaved tables through the stack, alone and under abuse.
- :mod:`bench.pages`: the site's pages through the stack, against a bare Django view,
  with the page workers under uvicorn or gunicorn.

Everything runs on this machine: servers on 127.0.0.1, traffic to 127.0.0.1 only,
bounded in count and time. Today's figures are in docs/benchmarks.md.
"""
