"""Database secrets never reach a message: ``redact_location`` on tricky URLs (and on anything
hypothesis makes of them), and the store's errors for a failing PostgreSQL URL with a password
and a failing SQLite path."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import quote, unquote

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from bleu.workspace import StorageError, WorkspaceStore, redact_location

CASES = [
    ("postgresql://user:p@ssw0rd@host/db", "postgresql://user:***@host/db"),
    ("postgresql://postgres@127.0.0.1:55432/postgres?password=hunter2",
     "postgresql://postgres@127.0.0.1:55432/postgres?password=***"),
    ("postgres://u:a:b:c@h:5432/db?sslmode=require&password=x%26y&application_name=z",
     "postgres://u:***@h:5432/db?sslmode=require&password=***&application_name=z"),
    ("postgresql://:only-a-password@h/db", "postgresql://:***@h/db"),
    ("postgresql://h/db?passfile=/home/u/.pgpass&sslkey=/etc/k.pem&sslpassword=kp",
     "postgresql://h/db?passfile=***&sslkey=***&sslpassword=***"),
    ("postgresql://h/db?PASSWORD=Hunter2", "postgresql://h/db?PASSWORD=***"),
    ("postgresql://h/db?%70assword=x1", "postgresql://h/db?%70assword=***"),
    ("host=h user=u password='a b\\' c' dbname=d", "host=h user=u password=*** dbname=d"),
    ("password = hunter2 port=5", "password = *** port=5"),
    ('connect to "postgresql://u:pw@h/d" failed', 'connect to "postgresql://u:***@h/d" failed'),
    # nothing secret: left as it is
    ("postgresql://user@host:5432/db?sslmode=require", None),
    ("/var/lib/bleu/workspaces.sqlite3", None),
    ("mail me at user@example.org: key points", None),
]


@pytest.mark.parametrize(("text", "expected"), CASES)
def test_tricky_locations(text: str, expected: str | None) -> None:
    assert redact_location(text) == (text if expected is None else expected)
    assert redact_location(redact_location(text)) == redact_location(text)  # idempotent


def test_echoes_of_a_location_are_hidden_given_the_location() -> None:
    url = "postgresql://u:p@ssw0rd@127.0.0.1:1/db?password=hunter2"
    # what libpq says when it misreads the password's "@" (seen with psycopg 3.3)
    echo = ("failed to resolve host 'ssw0rd@127.0.0.1': [Errno -2] ... hunter2 p%40ssw0rd "
            "p@ssw0rd")
    shown = redact_location(echo, url.replace("p@ssw0rd", "p%40ssw0rd"))
    assert "ssw0rd" not in shown and "hunter2" not in shown
    path = Path("/srv/private-lab/db/workspaces.sqlite3")
    shown = redact_location(f"unable to open {path}; folder {path.parent} is full", path)
    assert shown == "unable to open the workspace database; folder its folder is full"
    assert "private-lab" not in shown


PASSWORD_CHARS = st.characters(codec="utf-8", exclude_categories=("Cs", "Cc", "Zs", "Zl", "Zp"),
                               exclude_characters="\"'<>&*")


@settings(deadline=None, max_examples=300)
@given(user=st.from_regex(r"[a-z][a-z0-9_]{0,8}", fullmatch=True),
       password=st.text(PASSWORD_CHARS, min_size=3, max_size=24),
       query=st.text(PASSWORD_CHARS, min_size=3, max_size=24),
       encode=st.booleans())
def test_no_password_survives(user: str, password: str, query: str, encode: bool) -> None:
    """Any password, raw (even with ``@``, ``:``, ``/``, ``?``) or percent-encoded, in the
    userinfo or as ``?password=``, is gone from the URL and from a message quoting it."""
    written = quote(password, safe="") if encode else password
    url = f"postgresql://{user}:{written}@db.example:5432/lab?sslmode=require&password={query}"
    template = (f"connect postgresql://{user}:***@db.example:5432/lab?sslmode=require&"
                "password=*** failed")
    for secret in (password, written, query, unquote(query)):
        assume(len(secret) >= 3 and secret not in template)
    for shown in (redact_location(f"connect {url} failed"),
                  redact_location(f"connect {written} {url} {query} failed", url)):
        assert written not in shown and query not in shown
        # the host stays, unless a password could be read as reaching into it
        assert "db.example" in shown or set("@:/?#") & set(password + query)


def test_a_failing_postgresql_url_with_a_password_never_shows_it() -> None:
    url = "postgresql://lab:p@ssw0rd@127.0.0.1:1/postgres?password=hunter2"
    for store in (WorkspaceStore(url), WorkspaceStore(url, show_location=True)):
        assert "hunter2" not in store.description and "ssw0rd" not in store.description
        with pytest.raises(StorageError) as raised:
            store.list()
        message = str(raised.value)
        assert "hunter2" not in message and "ssw0rd" not in message, message
    assert message.startswith("The workspace database postgresql://lab:***@")
    with pytest.raises(StorageError) as raised:
        WorkspaceStore("postgresql://u@127.0.0.1:1/postgres?password=hunter2").list()
    assert str(raised.value).startswith("The workspace database cannot be opened: ")
    assert "hunter2" not in str(raised.value) and "127.0.0.1:1/" not in str(raised.value)


@pytest.mark.parametrize("broken", ["under a file", "corrupt file"])
def test_a_failing_sqlite_path_is_never_shown(tmp_path: Path, broken: str) -> None:
    folder = tmp_path / "secret-lab-folder"
    if broken == "under a file":
        folder.write_text("a file, not a folder")
        path = folder / "workspaces.sqlite3"
    else:
        folder.mkdir()
        path = folder / "workspaces.sqlite3"
        path.write_bytes(b"not a database\n" * 100)
    with pytest.raises(StorageError) as raised:
        WorkspaceStore(path).list()
    assert "secret-lab-folder" not in str(raised.value)
    assert str(raised.value).startswith("The workspace database cannot be ")
