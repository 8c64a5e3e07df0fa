"""The guides say what the code does: every setting the settings read is in
docs/settings.md, every file the README and docs link to exists, and the README's
first commands are the two a newcomer types."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def settings_read() -> set[str]:
    text = (ROOT / "snapsite" / "settings.py").read_text()
    names = set(re.findall(r'environ(?:\.get)?[\[(]\s*"([A-Z][A-Z0-9_]+)"', text))
    names |= set(re.findall(r'env_flag\(\s*"([A-Z][A-Z0-9_]+)"', text))
    return names - {"TEST_DATABASE_NAME"}  # the test suite's own


def test_every_setting_the_site_reads_is_documented_in_settings_md():
    documented = set(
        re.findall(r"^\| `([A-Z][A-Z0-9_]+)`", (ROOT / "docs/settings.md").read_text(), re.M)
    )
    assert settings_read(), "no setting found: the pattern no longer matches settings.py"
    assert settings_read() <= documented, settings_read() - documented


def test_every_local_link_of_the_readme_and_docs_leads_to_a_file():
    for page in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        for target in re.findall(r"\]\(([^)#:]+)(?:#[^)]*)?\)", page.read_text()):
            assert (page.parent / target).exists(), f"{page.name} links to {target}"


def test_the_readme_opens_with_the_two_commands_and_stays_a_guide():
    lines = (ROOT / "README.md").read_text().splitlines()
    commands = [line.split("#")[0].strip() for line in lines if line.startswith("    make")]
    assert commands[:2] == ["make run", "make test"]
    assert len(lines) <= 200
