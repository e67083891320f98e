"""A text file's bytes read as text: UTF-8, UTF-16 with a BOM or without, UTF-8 with a
few broken bytes, else Windows-1252; bytes that are not text refused."""

from __future__ import annotations

import pytest

from app.errors import BadRequest
from app.text.formats import decoded


@pytest.mark.parametrize(
    ("data", "text"),
    [("Café crème".encode(), "Café crème"),
     (b"\xef\xbb\xbf" + "Café".encode(), "Café"),  # a BOM
     ("Café".encode("utf-16"), "Café"),
     ("Café crème brûlée".encode("latin-1"), "Café crème brûlée"),
     # one stray byte in UTF-8 text: the rest stays UTF-8 (it was all read as Latin-1: Ã©)
     (b"caf\xc3\xa9 \xff ok", "café \ufffd ok"),
     (b"\x80 then " + "naïve señor".encode(), "\ufffd then naïve señor"),
     # mostly broken: Latin-1, each byte a character
     (b"\xe9t\xe9 \xe0 \xc3\xa9", "été à Ã©"),
     (b"a\x00b", "ab"),  # NUL dropped
     # UTF-16 without a byte order mark: it was Latin-1 with its zero bytes dropped
     ("Grüße aus Köln, 北京".encode("utf-16-le"), "Grüße aus Köln, 北京"),
     ("Grüße aus Köln, 北京".encode("utf-16-be"), "Grüße aus Köln, 北京"),
     # Windows-1252's quotes and dashes, not Latin-1's control characters
     ("\u201cquoted\u201d \u2013 \u20ac5".encode("cp1252"), "\u201cquoted\u201d \u2013 \u20ac5"),
     (b"\x81\x8d", "\x81\x8d")],  # bytes Windows-1252 leaves undefined: Latin-1's
)  # fmt: skip
def test_a_file_reads_as_its_encoding(data, text):
    assert decoded(data, "f.txt") == text


@pytest.mark.parametrize(
    "data",
    [
        bytes(range(256)) * 40,  # every byte: random data
        b"\x7fELF\x02\x01\x01" + b"\x00" * 200 + b"GLIBC_2.2.5\x00" * 20,  # a program
        b"\x89PNG\r\n\x1a\n" + bytes(range(32)) * 10,
    ],
)
def test_bytes_that_are_not_text_are_refused(data):
    # a program named .txt was stored as hundreds of chunks of Latin-1 garbage, which then
    # ranked in searches for anything
    with pytest.raises(BadRequest) as caught:
        decoded(data, "elf.txt")
    assert caught.value.message.startswith("elf.txt: not text (")
    assert caught.value.extra == {"field": "file"}


def test_text_with_tabs_escapes_and_a_stray_control_byte_is_text():
    text = "col\tcol\r\n\x1b[1mbold\x1b[0m \x07 done\n" * 50
    assert decoded(text.encode(), "term.log") == text  # a bell in 2,000 bytes
