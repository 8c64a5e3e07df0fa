"""The local stack's options for benchmarks: another page server's command, and nginx
without its per-address limits (the production configuration keeps them)."""

from __future__ import annotations

from deploy.stack import Stack


def test_the_stack_keeps_nginx_per_address_limits_unless_a_benchmark_lifts_them(tmp_path):
    kept = Stack(workdir=tmp_path).nginx_conf()
    lifted = Stack(workdir=tmp_path, per_address_limits=False).nginx_conf()
    assert "limit_req zone=snap_pages" in kept and "limit_conn snap_ws_per_address" in kept
    assert "limit_req zone=" not in lifted and "limit_conn snap_" not in lifted
    assert "upstream snap_tables" in lifted  # the rest of the configuration stays
