"""The preview's page in a real browser (Debian's headless chromium, driven by selenium)
against the real `scratchpress preview` command: it loads, shows the pages, refreshes
after a save, shows problems beside their page (and stale pages after a broken save),
and a click on a number reaches its source line."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

TIMEOUT = 120  # a cold first build on a busy 2-core machine; a wait, never a measure


@pytest.fixture
def page(browser: Any, campaign: Path, start_preview: Any) -> Iterator[tuple[Any, Any]]:
    """The browser on the preview of the small campaign, its first document on screen."""
    with start_preview(campaign) as running:
        running.settled()
        browser.get(running.url)
        wait(browser, lambda b: b.execute_script("return document.body.dataset.loaded"))
        yield browser, running
        code, _, err = running.stop()
        assert code == 0 and "Traceback" not in err


def wait(browser: Any, condition: Callable[[Any], Any]) -> Any:
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(browser, TIMEOUT, poll_frequency=0.1).until(condition)


def css(browser: Any, selector: str) -> list[Any]:
    from selenium.webdriver.common.by import By

    return list(browser.find_elements(By.CSS_SELECTOR, selector))


def texts(browser: Any, selector: str) -> list[str]:
    """The text of each element ``selector`` finds, read in one go (the page redraws its
    lists on every change, so an element found a moment ago may be gone)."""
    script = "return [...document.querySelectorAll(arguments[0])].map((e) => e.innerText)"
    return list(browser.execute_script(script, selector))


def loaded(browser: Any) -> str:
    return str(browser.execute_script("return document.body.dataset.loaded || ''"))


def choose(browser: Any, title: str) -> None:
    name = browser.execute_script(
        "const li = [...document.querySelectorAll('#list li')].find((e) => e.innerText === arguments[0]);"
        " li.click(); return li.dataset.name",
        title,
    )
    wait(browser, lambda b: loaded(b).startswith(name + "@"))


def edit(folder: Path, old: str, new: str) -> None:
    party = folder / "party.yaml"
    text = party.read_text(encoding="utf-8")
    assert old in text
    party.write_text(text.replace(old, new), encoding="utf-8")


def test_it_lists_the_documents_and_shows_the_pages(page: tuple[Any, Any]) -> None:
    browser, _ = page
    assert texts(browser, "#list li") == ["Teodora Vance", "Brannock Oduya"]
    assert loaded(browser) == "sheet-teodora-vance.pdf@1"
    [image] = css(browser, ".page img")
    assert browser.execute_script("return arguments[0].naturalWidth", image) > 500
    choose(browser, "Brannock Oduya")
    assert loaded(browser) == "sheet-brannock-oduya.pdf@1"


def test_a_saved_file_refreshes_the_page_in_place(page: tuple[Any, Any]) -> None:
    browser, running = page
    browser.execute_script("window.notReloaded = true")
    before = css(browser, ".page img")[0].get_attribute("src")
    edit(running.folder, "stealth: 3", "stealth: 4")
    wait(browser, lambda b: loaded(b) == "sheet-teodora-vance.pdf@2")
    assert browser.execute_script("return window.notReloaded") is True
    assert css(browser, ".page img")[0].get_attribute("src") != before
    # Brannock's sheet did not change: same version, nothing to reload.
    versions = {d["name"]: d["version"] for d in running.state()["documents"]}
    assert versions == {"sheet-teodora-vance.pdf": 2, "sheet-brannock-oduya.pdf": 1}


def test_a_warning_shows_beside_its_page_with_file_and_line(page: tuple[Any, Any]) -> None:
    browser, running = page
    edit(running.folder, "wrestling: 4", "wrestling: 6")
    choose(browser, "Brannock Oduya")
    beside = wait(browser, lambda b: texts(b, ".beside .problems li"))
    assert any(
        text.startswith("campaign/party.yaml:") and "over the budget" in text for text in beside
    ), beside
    assert not css(browser, "#problems li")  # nothing campaign-wide
    choose(browser, "Teodora Vance")
    assert not css(browser, ".beside .problems li")  # not beside the wrong sheet


def test_a_broken_file_keeps_the_last_pages_marked_stale(page: tuple[Any, Any]) -> None:
    browser, running = page
    edit(running.folder, "  - name: Brannock Oduya", "  - name: [Brannock Oduya")
    wait(browser, lambda b: b.execute_script("return document.body.dataset.stale") == "yes")
    problems = wait(browser, lambda b: texts(b, "#problems li"))
    assert any(text.startswith("campaign/party.yaml:") for text in problems), problems
    assert css(browser, ".page.stale img")  # the last good page, still on screen
    assert "stale" in texts(browser, "#status")[0]
    edit(running.folder, "  - name: [Brannock Oduya", "  - name: Brannock Oduya")
    wait(browser, lambda b: b.execute_script("return document.body.dataset.stale") == "no")
    assert not css(browser, ".page.stale") and not css(browser, "#problems li")


def test_an_error_in_an_entry_shows_beside_its_page(page: tuple[Any, Any]) -> None:
    browser, running = page
    edit(running.folder, "toughness: 3", "toughness: lots")
    choose(browser, "Brannock Oduya")
    beside = wait(browser, lambda b: texts(b, ".beside .problems li"))
    assert any('entry "Brannock Oduya"' in text and "toughness" in text for text in beside)
    assert css(browser, ".page.stale img")


def test_a_click_on_a_number_shows_its_source_line(page: tuple[Any, Any]) -> None:
    from selenium.webdriver.common.action_chains import ActionChains

    browser, _ = page
    boxes = wait(browser, lambda b: css(b, ".sp-box[data-field='abilities.stealth']"))
    ActionChains(browser).move_to_element(boxes[0]).perform()
    tip = wait(browser, lambda b: css(b, "#tooltip:not([hidden])"))[0].text
    assert "campaign/party.yaml:5" in tip
    boxes[0].click()
    target = wait(browser, lambda b: css(b, "#source-lines .target"))[0].text
    assert target.split() == ["5", "stealth:", "3"]
    editor = css(browser, "#source-editor")[0].get_attribute("href")
    assert editor.startswith("vscode://file/") and editor.endswith("campaign/party.yaml:5")


def test_a_url_naming_a_source_line_highlights_its_numbers(page: tuple[Any, Any]) -> None:
    browser, running = page
    browser.get(running.url + "#src=campaign/party.yaml:5")
    marked = wait(browser, lambda b: css(b, ".sp-box.highlight"))
    assert {box.get_attribute("data-line") for box in marked} == {"5"}
    assert {box.get_attribute("data-file") for box in marked} == {"campaign/party.yaml"}
