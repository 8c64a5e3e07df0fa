"""Behind the proxy the client's address is the one nginx saw, believed only from the
proxy: a client sending X-Forwarded-For itself changes nothing."""

from django.test import Client

PRACTICE = {"name": "Ana", "computers": "1", "level_1": "beginner"}


def opened_from(client: Client, **headers) -> str:
    from games.models import Table

    response = client.post("/en/play/practice/", PRACTICE, **headers)
    assert response.status_code == 302, response.status_code
    code = response["Location"].rstrip("/").rsplit("/", 1)[-1]
    return Table.objects.get(code=code).opener_address


def test_the_proxys_forwarded_address_is_the_clients(content, settings):
    settings.FORWARDED_ALLOW_IPS = ["127.0.0.1"]
    client = Client(REMOTE_ADDR="127.0.0.1")
    assert opened_from(client, HTTP_X_FORWARDED_FOR="10.0.0.7") == "10.0.0.7"


def test_a_forwarded_address_from_anyone_but_the_proxy_is_ignored(content, settings):
    settings.FORWARDED_ALLOW_IPS = ["127.0.0.1"]
    client = Client(REMOTE_ADDR="10.0.0.9")
    assert opened_from(client, HTTP_X_FORWARDED_FOR="10.0.0.7") == "10.0.0.9"


def test_without_a_proxy_the_header_is_never_believed(content, settings):
    settings.FORWARDED_ALLOW_IPS = []
    client = Client(REMOTE_ADDR="127.0.0.1")
    assert opened_from(client, HTTP_X_FORWARDED_FOR="10.0.0.7") == "127.0.0.1"
