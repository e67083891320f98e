"""Documents in from the page: a pasted text and dropped or picked files go into a
collection, each shows its state (uploading, queued, embedding with the job's progress,
done, failed with the server's reason, cancelled), and "search for it" finds what was
stored. Against `ragsearch serve` with keys and the packaged all-MiniLM-L6-v2 embedding
documents, at 1280 and 390 px, console and network clean but for the refusals a test
provokes."""

from __future__ import annotations

import base64
import io
import json
import random
import re
import uuid
import time
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass

import httpx
import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from browser import TIMEOUT_MS, WatchedPage, open_page, row_ids, settled
from conftest import READ_KEY, WRITE_KEY, PgServer, ServiceProcess, service_on_own_database
from embed_server import embed_server

MAX_FILE_BYTES = 128 * 1024
EMBEDDED_MS = 180_000  # a job's chunks embedded on a machine that is busy with other tests
BATCH = 8  # texts per call to the held embedder


@pytest.fixture(scope="module")
def keyed(pg: PgServer, template_db: str) -> Iterator[ServiceProcess]:
    """The demo with keys, documents embedded by the packaged model, one job worker and a
    small per-file limit (so that a file past it is cheap to make)."""
    env = {
        "RAG_DEMO": "true",
        "RAG_EMBEDDER": "local",
        "RAG_API_KEYS": WRITE_KEY,
        "RAG_READ_KEYS": READ_KEY,
        "RAG_MAX_FILE_BYTES": str(MAX_FILE_BYTES),
        "RAG_JOB_WORKERS": "1",
    }
    with service_on_own_database(pg, env) as service:
        yield service


@dataclass(frozen=True)
class Held:
    """A service whose one embedded space is served by an embeddings server that holds
    the calls it is told to (POST /faults ["ok", "hold"], then POST /release): a job is
    stopped at a known point for as long as a test looks at it."""

    service: ServiceProcess
    control: httpx.Client


@pytest.fixture(scope="module")
def held(pg: PgServer, template_db: str) -> Iterator[Held]:
    env = {"RAG_EMBEDDER": "none", "RAG_API_KEYS": WRITE_KEY, "RAG_JOB_WORKERS": "1"}
    with embed_server("--hash", "8") as url, service_on_own_database(pg, env) as service:
        space = {"name": "held", "dims": 8, "embedder": {
            "kind": "openai", "url": url, "model": "hash-8", "batch_size": BATCH,
            "concurrency": 1, "timeout": 600}}  # a held call is not timed out and retried
        r = httpx.post(service.base_url + "/api/rag/spaces", json=space,
                       headers={"Authorization": f"Bearer {WRITE_KEY}"})  # fmt: skip
        assert r.status_code == 201, r.text
        with httpx.Client(base_url=url.removesuffix("/v1")) as control:
            yield Held(service, control)


@pytest.fixture
def hold(held: Held) -> Iterator[httpx.Client]:
    held.control.post("/reset")
    yield held.control
    held.control.post("/release")
    held.control.post("/reset")


def page_with_key(browser: Browser, service: ServiceProcess, width: int) -> WatchedPage:
    """The page holding the write key, as if typed in its header."""
    watched = open_page(browser, service.base_url, width=width)
    watched.context.add_init_script(
        f"sessionStorage.setItem('ragsearch.key', {json.dumps(WRITE_KEY)})"
    )
    watched.page.goto(service.base_url + "/")
    return watched


@pytest.fixture
def writer(browser: Browser, keyed: ServiceProcess, width: int) -> Iterator[WatchedPage]:
    watched = page_with_key(browser, keyed, width)
    yield watched
    watched.context.close()


@pytest.fixture
def held_writer(browser: Browser, held: Held, width: int) -> Iterator[WatchedPage]:
    watched = page_with_key(browser, held.service, width)
    yield watched
    watched.context.close()


def wait_until_held(control: httpx.Client, page: Page, entry: Locator) -> None:
    """Waits for the embeddings server to hold a call; the page's requests go on meanwhile
    (it waits inside Playwright, which routes them)."""
    deadline = time.monotonic() + EMBEDDED_MS / 1000
    while (stats := control.get("/stats").json())["held"] == 0:
        assert time.monotonic() < deadline, (entry.inner_text(), stats)
        page.wait_for_timeout(50)


def unique(label: str) -> str:
    return f"{label}{uuid.uuid4().hex[:10]}"


def prose(seed: str, size: int) -> str:
    """Markdown of about `size` bytes whose words no other test uses (so that no vector of
    it is in the embedding cache: its job embeds every chunk)."""
    rng = random.Random(seed)
    words = [
        "".join(rng.choice("bcdfghjklmnpqrstvwxz") + rng.choice("aeiou") for _ in range(3))
        for _ in range(800)
    ]
    parts, length, section = [f"# Manual {seed}\n"], 0, 0
    while length < size:
        section += 1
        paragraph = (
            f"\n## Part {section}\n\n" + " ".join(rng.choice(words) for _ in range(120)) + ".\n"
        )
        parts.append(paragraph)
        length += len(paragraph)
    return "".join(parts)


def open_dialog(page: Page) -> Locator:
    page.get_by_role("button", name="Add documents").click()
    dialog = page.get_by_test_id("add-documents")
    expect(dialog).to_be_visible()
    return dialog


def item(page: Page, name: str) -> Locator:
    return page.get_by_test_id("ingest-item").filter(has_text=name)


def drop_files(page: Page, files: list[tuple[str, str, str | bytes]]) -> None:
    """Drops files (name, type, content) on the drop zone, as a file manager would."""
    sent = [
        (name, kind, base64.b64encode(body.encode() if isinstance(body, str) else body).decode())
        for name, kind, body in files
    ]
    transfer = page.evaluate_handle(
        """files => { const t = new DataTransfer();
           for (const [name, type, data] of files) {
             const bytes = Uint8Array.from(atob(data), c => c.charCodeAt(0));
             t.items.add(new File([bytes], name, { type }));
           }
           return t; }""",
        sent,
    )
    page.get_by_test_id("dropzone").dispatch_event("drop", {"dataTransfer": transfer})


def search_for_it(page: Page, entry: Locator, doc_id: str) -> None:
    """ "Search for it" closes the dialog and runs a search whose rows hold the document."""
    entry.get_by_role("button", name="Search for it").click()
    expect(page.get_by_test_id("add-documents")).to_be_hidden()
    expect(page.locator(".result").first).to_be_visible(timeout=TIMEOUT_MS)
    settled(page)
    assert any(row.startswith(f"{doc_id}-chunk-") for row in row_ids(page)[:3]), row_ids(page)


def test_pasted_text_is_embedded_and_found_by_searching_for_it(writer, width):
    page = writer.page
    dialog = open_dialog(page)
    expect(page.locator("#doc-title")).to_be_focused()
    expect(page.locator("#add-collection")).to_have_value("default")
    word = unique("brew")
    title = f"Cold brew {word}"
    page.fill("#doc-title", title)
    page.fill("#doc-src", "https://example.org/cold-brew")
    page.fill(
        "#doc-text",
        f"# Cold brew\n\nCold brew steeps coarse {word} grounds in cold water for a day.\n",
    )
    expect(page.locator("#doc-type option").first).to_have_text("Guess from the text (Markdown)")
    expect(page.locator("#doc-id")).to_have_attribute("placeholder", f"cold-brew-{word}")
    dialog.get_by_role("button", name="Add to default").click()
    entry = item(page, title)
    expect(entry).to_have_attribute("data-stage", "done", timeout=EMBEDDED_MS)
    expect(entry.get_by_test_id("stage")).to_have_text("done: 1 chunk stored")
    expect(entry).to_contain_text("text → default · job ")
    expect(page.locator("#doc-text")).to_have_value("")  # sent: the form is ready for another
    writer.screenshot(f"add-text-{width}.png")
    search_for_it(page, entry, f"cold-brew-{word}")
    assert page.input_value("#q") == title
    assert writer.errors == []
    assert writer.outside_requests == []


def test_the_same_id_is_replaced_only_when_asked(writer):
    page = writer.page
    dialog = open_dialog(page)
    word = unique("twice")
    for text in (f"First {word} text.", f"Second {word} text."):
        page.fill("#doc-title", f"Twice {word}")
        page.fill("#doc-text", text)
        dialog.get_by_role("button", name="Add to default").click()
        if text.startswith("First"):
            expect(item(page, f"Twice {word}")).to_have_attribute(
                "data-stage", "done", timeout=EMBEDDED_MS
            )
    notice = page.get_by_test_id("replace-notice")
    expect(notice).to_contain_text(f"“twice-{word}” is already the id of a document in default")
    expect(page.locator("#doc-text")).to_have_value(f"Second {word} text.")
    expect(page.get_by_test_id("ingest-item")).to_have_count(1)
    notice.get_by_role("button", name="Replace it").click()
    expect(page.get_by_test_id("ingest-item")).to_have_count(2)
    expect(page.get_by_test_id("ingest-item").first).to_have_attribute(
        "data-stage", "done", timeout=EMBEDDED_MS
    )
    assert writer.errors == []


def test_two_dropped_files_are_both_found(writer, width):
    page = writer.page
    open_dialog(page)
    page.get_by_role("tab", name="Files").click()
    expect(page.locator("#accepted-types")).to_contain_text("Markdown (.md), HTML (.html)")
    word = unique("kiln")
    markdown = f"# Glazes {word}\n\nA {word} glaze is fired at cone six in the kiln.\n"
    html = (
        f"<!doctype html><html><head><title>Firing {word}</title></head><body>"
        f"<h1>Firing</h1><p>The {word} kiln is loaded cold and fired slowly.</p></body></html>"
    )
    md_name, html_name = f"glazes-{word}.md", f"firing-{word}.html"
    drop_files(page, [(md_name, "text/markdown", markdown), (html_name, "text/html", html)])
    for name in (md_name, html_name):
        expect(item(page, name)).to_have_attribute("data-stage", "done", timeout=EMBEDDED_MS)
        expect(item(page, name).get_by_test_id("stage")).to_have_text("done: 1 chunk stored")
    expect(item(page, html_name).get_by_test_id("stored-title")).to_have_text(f"“Firing {word}”")
    writer.screenshot(f"add-files-{width}.png")
    search_for_it(page, item(page, md_name), md_name)
    assert page.input_value("#q") == f"Glazes {word}"  # the file's own title
    open_dialog(page)
    search_for_it(page, item(page, html_name), html_name)
    assert page.input_value("#q") == f"Firing {word}"
    assert writer.errors == []
    assert writer.outside_requests == []


def test_a_refused_file_says_why_beside_it_while_the_others_go_in(writer, width):
    page = writer.page
    open_dialog(page)
    page.get_by_role("tab", name="Files").click()
    word = unique("mixed")
    good, binary, large = f"notes-{word}.txt", f"tool-{word}.exe", f"dump-{word}.txt"
    drop_files(
        page,
        [
            (binary, "application/octet-stream", "MZ"),
            (good, "text/plain", f"Plain notes about {word}."),
            (large, "text/plain", "x" * (MAX_FILE_BYTES + 1000)),
        ],
    )
    expect(item(page, good)).to_have_attribute("data-stage", "done", timeout=EMBEDDED_MS)
    refused = item(page, binary)
    expect(refused).to_have_attribute("data-stage", "failed")
    expect(refused.get_by_test_id("item-error")).to_contain_text(
        f"{binary}: cannot read this kind of file; accepted: text/plain"
    )
    expect(refused.get_by_role("button", name="Try again")).to_have_count(
        0
    )  # its type will not change
    too_large = item(page, large)
    expect(too_large).to_have_attribute("data-stage", "failed")
    expect(too_large.get_by_test_id("item-error")).to_have_text(
        f"{large}: larger than {MAX_FILE_BYTES} bytes (RAG_MAX_FILE_BYTES)"
    )
    expect(page.get_by_test_id("ingest-summary")).to_have_text("1 done, 2 failed")
    writer.screenshot(f"add-refused-{width}.png")
    search_for_it(page, item(page, good), good)
    assert sorted(error.split("status of ")[1][:3] for error in writer.errors) == ["413", "415"]


def test_a_zip_archive_stores_each_file_and_says_why_one_failed(writer, width):
    page = writer.page
    open_dialog(page)
    page.get_by_role("tab", name="Files").click()
    word = unique("zipped")
    packed = io.BytesIO()
    with zipfile.ZipFile(packed, "w") as archive:
        archive.writestr("guide/intro.md", f"# Intro {word}\n\nThe {word} guide starts here.\n")
        archive.writestr(
            "guide/usage.html", f"<title>Usage {word}</title><p>Run the {word} tool.</p>"
        )
        archive.writestr("guide/broken.pdf", b"not a PDF at all")
    name = f"guide-{word}.zip"
    drop_files(page, [(name, "application/zip", packed.getvalue())])
    entry = item(page, name)
    expect(entry).to_have_attribute("data-stage", "done", timeout=EMBEDDED_MS)
    expect(entry.get_by_test_id("stage")).to_have_text(
        "done: 2 of 3 documents, 2 chunks stored; 1 failed"
    )
    parts = entry.get_by_test_id("part")
    expect(parts).to_have_count(3)
    broken = parts.filter(has_text="guide/broken.pdf")
    expect(broken).to_have_attribute("data-status", "failed")
    expect(broken.locator(".field-error")).to_contain_text("the PDF cannot be read")
    writer.screenshot(f"add-zip-{width}.png")
    parts.filter(has_text="guide/usage.html").get_by_role("button", name="search for it").click()
    expect(page.get_by_test_id("add-documents")).to_be_hidden()
    expect(page.locator(".result").first).to_be_visible(timeout=TIMEOUT_MS)
    settled(page)
    assert page.input_value("#q") == f"Usage {word}"
    assert any(row.startswith("guide/usage.html-chunk-") for row in row_ids(page)[:3])
    assert writer.errors == []


def test_a_large_file_runs_as_a_job_whose_progress_shows(held_writer, hold, width):
    page = held_writer.page
    open_dialog(page)
    page.get_by_role("tab", name="Files").click()
    name = f"manual-{unique('big')}.md"
    # Every state the item shows, as it shows it.
    page.evaluate(
        """() => { window.seen = [];
           new MutationObserver(() => document.querySelectorAll('[data-testid=stage]').forEach(
             s => { if (window.seen.at(-1) !== s.textContent) window.seen.push(s.textContent); }))
           .observe(document.body, { subtree: true, childList: true, characterData: true }); }"""
    )
    hold.post("/faults", json=["ok", "hold"])  # the first batch is embedded, the second held
    drop_files(page, [(name, "text/markdown", prose(name, 20_000))])
    entry = item(page, name)
    wait_until_held(hold, page, entry)
    stage = entry.get_by_test_id("stage")
    part_way = re.compile(rf"^embedding: {BATCH} of \d+ chunks$")
    expect(stage).to_have_text(part_way, timeout=TIMEOUT_MS)
    expect(entry.get_by_role("button", name="Cancel")).to_be_visible()
    held_writer.screenshot(f"add-progress-{width}.png")
    hold.post("/release")
    expect(entry).to_have_attribute("data-stage", "done", timeout=EMBEDDED_MS)
    seen: list[str] = page.evaluate("window.seen")
    chunks = int(stage.inner_text().split()[1])
    assert chunks > 2 * BATCH  # more than one batch of the embedder
    assert any(state.startswith("uploading ") and state.endswith(" KB") for state in seen), seen
    assert f"embedding: {BATCH} of {chunks} chunks" in seen, seen
    assert held_writer.errors == []


def test_a_running_job_can_be_cancelled(held_writer, hold):
    page = held_writer.page
    open_dialog(page)
    page.get_by_role("tab", name="Files").click()
    name = f"huge-{unique('stop')}.md"
    hold.post("/faults", json=["hold"])
    drop_files(page, [(name, "text/markdown", prose(name, 20_000))])
    entry = item(page, name)
    wait_until_held(hold, page, entry)
    cancel = entry.get_by_role("button", name="Cancel")
    expect(cancel).to_be_visible(timeout=TIMEOUT_MS)
    cancel.click()
    expect(entry.get_by_test_id("stage")).to_contain_text("cancelling", timeout=TIMEOUT_MS)
    hold.post("/release")
    expect(entry).to_have_attribute("data-stage", "cancelled", timeout=EMBEDDED_MS)
    expect(entry.get_by_role("button", name="Cancel")).to_have_count(0)
    assert held_writer.errors == []


def test_the_dialog_keeps_the_draft_and_the_focus(writer):
    page = writer.page
    opener = page.get_by_role("button", name="Add documents")
    opener.focus()
    page.keyboard.press("Enter")
    expect(page.locator("#doc-title")).to_be_focused()
    page.keyboard.type("Half written")
    page.keyboard.press("Tab")
    expect(page.locator("#doc-src")).to_be_focused()
    page.keyboard.press("Escape")
    expect(page.get_by_test_id("add-documents")).to_be_hidden()
    expect(opener).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator("#doc-title")).to_have_value("Half written")
    tab = page.get_by_role("tab", name="Paste text")
    tab.focus()
    page.keyboard.press("ArrowRight")
    expect(page.get_by_role("tab", name="Files")).to_be_focused()
    expect(page.get_by_test_id("dropzone")).to_be_visible()
    page.get_by_role("button", name="Close").click()
    expect(opener).to_be_focused()
    assert writer.errors == []


def test_a_missing_or_read_only_key_is_explained_and_the_text_kept(browser, keyed, width):
    watched = open_page(browser, keyed.base_url, width=width)
    page = watched.page
    page.goto(keyed.base_url + "/")
    page.fill("#api-key", "bogus")
    page.press("#api-key", "Enter")
    dialog = open_dialog(page)
    word = unique("keyed")
    text = f"Text about {word} that must not be lost."
    page.fill("#doc-title", f"Keyed {word}")
    page.fill("#doc-text", text)
    send = dialog.get_by_role("button", name="Add to default")
    send.click()
    expect(page.get_by_test_id("paste-error")).to_have_text(
        "Unauthorized: this server needs an API key — enter a write key in the header."
    )
    expect(page.locator("#doc-text")).to_have_value(text)
    page.get_by_role("button", name="Close").click()
    page.fill("#api-key", READ_KEY)
    page.press("#api-key", "Enter")
    open_dialog(page)
    send.click()
    expect(page.get_by_test_id("paste-error")).to_have_text(
        "this key may only read and search; writing needs a write key"
        " — enter a key that may write here in the header."
    )
    expect(page.locator("#doc-text")).to_have_value(text)
    watched.screenshot(f"add-forbidden-{width}.png")
    page.get_by_role("button", name="Close").click()
    page.fill("#api-key", WRITE_KEY)
    page.press("#api-key", "Enter")
    open_dialog(page)
    send.click()
    expect(item(page, f"Keyed {word}")).to_have_attribute("data-stage", "done", timeout=EMBEDDED_MS)
    expect(page.get_by_test_id("paste-error")).to_have_count(0)
    watched.context.close()
    assert watched.errors and all("401" in e or "403" in e for e in watched.errors), watched.errors
    assert watched.outside_requests == []


def test_without_an_embedder_the_text_is_stored_for_its_words(watched, open_demo):
    page = watched.page
    page.goto(open_demo.base_url + "/")
    dialog = open_dialog(page)
    word = unique("plain")
    page.fill("#doc-title", f"Words {word}")
    page.fill("#doc-text", f"Only the words {word} find this text.")
    dialog.get_by_role("button", name="Add to default").click()
    entry = item(page, f"Words {word}")
    expect(entry).to_have_attribute("data-stage", "done", timeout=EMBEDDED_MS)
    expect(entry.get_by_test_id("keywords-only")).to_contain_text("No vectors were made")
    search_for_it(page, entry, f"words-{word}")


def test_documents_go_into_the_pages_collection_or_the_one_chosen(writer, keyed, width):
    page = writer.page
    team = f"team-{width}-{uuid.uuid4().hex[:6]}"
    headers = {"Authorization": f"Bearer {WRITE_KEY}"}
    created = httpx.post(
        f"{keyed.base_url}/api/rag/collections", json={"name": team}, headers=headers
    )
    assert created.status_code == 201, created.text
    page.goto(f"{keyed.base_url}/?collection={team}")
    dialog = open_dialog(page)
    expect(page.locator("#add-collection")).to_have_value(team)  # the page's collection
    word = unique("team")
    page.fill("#doc-title", f"Team notes {word}")
    page.fill("#doc-text", f"Only the {word} team keeps these notes.")
    dialog.get_by_role("button", name=f"Add to {team}").click()
    entry = item(page, f"Team notes {word}")
    expect(entry).to_contain_text(f"text → {team}")
    expect(entry).to_have_attribute("data-stage", "done", timeout=EMBEDDED_MS)
    page.select_option("#add-collection", "default")  # another, chosen in the dialog
    page.fill("#doc-title", f"Default notes {word}")
    page.fill("#doc-text", f"The {word} notes everyone keeps.")
    dialog.get_by_role("button", name="Add to default").click()
    other = item(page, f"Default notes {word}")
    expect(other).to_have_attribute("data-stage", "done", timeout=EMBEDDED_MS)
    search_for_it(page, other, f"default-notes-{word}")
    expect(page.locator("#collection")).to_have_value("default")
    open_dialog(page)
    search_for_it(page, entry, f"team-notes-{word}")
    expect(page.locator("#collection")).to_have_value(team)
    assert writer.errors == []
