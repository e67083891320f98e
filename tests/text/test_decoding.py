"""A text file's bytes read as text: UTF-8, UTF-16 with a BOM, UTF-8 with a few broken
bytes, else Latin-1."""

from __future__ import annotations

import pytest

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
     (b"a\x00b", "ab")],  # NUL dropped
)  # fmt: skip
def test_a_file_reads_as_its_encoding(data, text):
    assert decoded(data, "f.txt") == text
