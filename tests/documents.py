"""Files for the tests of files in: a real (minimal) PDF with text on its pages."""

from __future__ import annotations


def _to_unicode(codes: dict[str, str]) -> bytes:
    """A ToUnicode character map: each one-byte code (two hex digits) to UTF-16BE hex."""
    pairs = "\n".join(f"<{code}> <{utf16}>" for code, utf16 in codes.items())
    cmap = (
        "/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n"
        "/CMapName /Test def /CMapType 2 def\n"
        "1 begincodespacerange <00> <FF> endcodespacerange\n"
        f"{len(codes)} beginbfchar\n{pairs}\nendbfchar\n"
        "endcmap CMapName currentdict /CMap defineresource pop end end"
    ).encode()
    return b"<< /Length %d >>\nstream\n" % len(cmap) + cmap + b"\nendstream"


def pdf_with_pages(
    pages: list[list[str]], title: str = "", to_unicode: dict[str, str] | None = None
) -> bytes:
    """A PDF whose pages show these lines (Helvetica, one text object per line); with
    ``to_unicode``, the font's codes read as that map says (a broken map: a surrogate)."""
    objects: list[bytes] = []
    kids = " ".join(f"{3 + 2 * i} 0 R" for i in range(len(pages)))
    objects.append(b"<< /Type /Catalog /Pages 2 0 R >>")
    objects.append(f"<< /Type /Pages /Kids [{kids}] /Count {len(pages)} >>".encode())
    font = 3 + 2 * len(pages)
    for i, lines in enumerate(pages):
        content = (
            "BT /F1 12 Tf 72 720 Td 14 TL "
            + " ".join(
                "(" + line.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)") + ") '"
                for line in lines
            )
            + " ET"
        )
        stream = content.encode("latin-1")
        objects.append(
            f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents {4 + 2 * i} 0 R "
            f"/Resources << /Font << /F1 {font} 0 R >> >> >>".encode()
        )
        objects.append(b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream")
    unicode_map = f" /ToUnicode {font + 1} 0 R" if to_unicode else ""
    objects.append(f"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica{unicode_map} >>".encode())
    if to_unicode:
        objects.append(_to_unicode(to_unicode))
    info = len(objects) + 1
    objects.append(f"<< /Title ({title}) >>".encode("latin-1"))
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    out += b"".join(f"{offset:010d} 00000 n \n".encode() for offset in offsets)
    out += (f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R /Info {info} 0 R >>\n"
            f"startxref\n{xref}\n%%EOF\n").encode()  # fmt: skip
    return bytes(out)
