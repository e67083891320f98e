"""The controls: the server's defaults before any search, errors beside the field they are
about while the last good rows stay, the URL reproducing an invalid entry, and the API
key. At 1280 and 390 px, console and network clean (but for the 4xx a test provokes)."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from browser import (
    SAMPLE,
    TIMEOUT_MS,
    close_controls,
    in_url,
    open_controls,
    open_page,
    row_ids,
    search_for,
    settled,
)
from conftest import READ_KEY


def field_error(page: Page, control: str) -> str:
    return page.locator(f"#{control}-error").inner_text()


def test_controls_show_the_servers_defaults_before_a_search(browser, embedding_demo, width):
    watched = open_page(browser, embedding_demo.base_url, width=width)
    page = watched.page
    page.goto(embedding_demo.base_url + "/")
    open_controls(page)
    expect(page.locator("label[for=balance]")).to_contain_text("default 0.50", timeout=TIMEOUT_MS)
    expect(page.locator("#balance")).to_have_value("0.5")
    expect(page.locator("label[for=w_rec]")).to_contain_text("default 0.10")
    expect(page.locator("#w_rec")).to_have_value("0.1")
    expect(page.locator("label[for=w_sig]")).to_contain_text("default 0.10")
    expect(page.locator("#balance ~ .hint")).to_have_text("0 = keywords only, 1 = vectors only.")
    expect(page.get_by_test_id("recency-default")).to_have_text("default: inverse, 1 day")
    expect(page.locator("#max_per_source")).to_have_attribute("placeholder", "default 3")
    expect(page.locator("#k")).to_have_attribute("max", "50")
    expect(page.locator("#whynot-chunk")).to_have_count(0)  # it explains a search: none yet
    page.fill("#q", "sort a list")  # a typed question: auto picks its balance
    expect(page.locator("label[for=balance]")).to_contain_text("auto 0.50")
    watched.context.close()
    assert watched.errors == []
    assert watched.outside_requests == []


def test_an_invalid_field_keeps_the_last_rows_and_says_why_beside_it(watched, open_demo):
    page = watched.page
    page.goto(open_demo.base_url + "/")
    search_for(page, SAMPLE)
    shown = row_ids(page)
    open_controls(page)
    balance = page.locator("label[for=balance]").inner_text()
    page.fill("#k", "")
    expect(page.locator("#k")).to_have_attribute("aria-invalid", "true")
    assert field_error(page, "k") == "Rows per page must be a whole number from 1 to 50"
    expect(page).to_have_url(re.compile(r"[?&]k=($|&)"), timeout=TIMEOUT_MS)
    page.fill("#k", "60")
    expect(page.locator("#k-error")).to_have_text(
        "Rows per page must be a whole number from 1 to 50"
    )
    page.select_option("#recency", "exponential")
    page.fill("#recency_days", "0")
    expect(page.locator("#recency_days-error")).to_have_text(
        "The half-life must be a number of days above 0 (at most 1e9)"
    )
    expect(page).to_have_url(in_url("recency_days=0"), timeout=TIMEOUT_MS)
    expect(page.locator("label[for=balance]")).to_have_text(balance)
    close_controls(page)
    expect(page.get_by_test_id("stale-note")).to_be_visible()
    assert row_ids(page) == shown
    page.reload()  # the URL reproduces the entries and their messages
    open_controls(page)
    expect(page.locator("#k")).to_have_value("60")
    expect(page.locator("#recency_days-error")).to_contain_text("The half-life must be")


def test_a_filter_error_stands_beside_the_filter(watched, open_demo):
    page = watched.page
    page.goto(open_demo.base_url + "/")
    search_for(page, "csv dialect")
    shown = row_ids(page)
    open_controls(page)
    editor = page.locator("#filter")
    editor.fill("{nope")
    error = page.locator("#filter-error")
    expect(error).to_contain_text("Not valid JSON")
    expect(editor).to_have_attribute("aria-invalid", "true")
    editor.fill('{"license": {"$bad": 1}}')  # valid JSON the server refuses
    expect(error).to_contain_text('unknown operator "$bad"', timeout=TIMEOUT_MS)
    below = error.bounding_box()
    box = editor.bounding_box()
    assert below and box and 0 <= below["y"] - (box["y"] + box["height"]) < 40
    expect(page.get_by_role("alert")).to_have_count(0)  # nothing at the top of the page
    editor.fill('{"license": "PSF-2.0"}')
    expect(error).to_have_count(0, timeout=TIMEOUT_MS)
    close_controls(page)
    settled(page)
    expect(page.get_by_test_id("stale-note")).to_have_count(0)
    assert row_ids(page) == shown
    watched.context.close()
    assert all("400" in line for line in watched.errors)  # the refused filter
    watched.errors.clear()


def test_resetting_the_decay_takes_its_days_out_of_the_url(watched, open_demo):
    page = watched.page
    page.goto(open_demo.base_url + "/")
    search_for(page, SAMPLE)
    open_controls(page)
    page.select_option("#recency", "exponential")
    page.fill("#recency_days", "14")
    expect(page).to_have_url(in_url("recency=exponential&recency_days=14"), timeout=TIMEOUT_MS)
    page.select_option("#recency", "")
    expect(page).not_to_have_url(in_url("recency"), timeout=TIMEOUT_MS)


def test_a_key_on_an_open_server_is_said_to_be_unused(watched, open_demo):
    page = watched.page
    page.goto(open_demo.base_url + "/")
    page.fill("#api-key", "not-a-key")
    page.press("#api-key", "Enter")
    expect(page.get_by_test_id("key-note")).to_contain_text("This server checks no key")
    search_for(page, "csv dialect")
    page.fill("#api-key", "")
    page.press("#api-key", "Enter")
    expect(page.get_by_test_id("key-note")).to_have_count(0)


def test_a_key_typed_after_a_401_clears_the_error(browser, demo_service, width):
    watched = open_page(browser, demo_service.base_url, width=width)
    page = watched.page
    page.goto(demo_service.base_url + "/")
    alert = page.get_by_role("alert")
    expect(alert).to_contain_text("Unauthorized", timeout=TIMEOUT_MS)
    expect(alert).to_contain_text("enter an API key")
    page.fill("#api-key", READ_KEY)
    page.press("#api-key", "Enter")
    expect(alert).to_have_count(0, timeout=TIMEOUT_MS)
    search_for(page, SAMPLE)
    expect(page.get_by_test_id("key-note")).to_have_count(0)  # this server checks keys
    assert page.evaluate("sessionStorage.getItem('ragsearch.key')") == READ_KEY
    assert page.evaluate("Object.keys(localStorage)") == []
    watched.context.close()
    assert all("401" in error for error in watched.errors)  # the refused first requests
    assert watched.outside_requests == []
