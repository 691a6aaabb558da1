"""The review page in a real headless browser (Debian's chromium and its driver, through
selenium): it loads with no console error, its filters, links and figure work, and a
decision made in the page served by `rulec review --serve` ends up in a recompiled bundle.

One browser serves the whole module; the suite runs twice (once per backend), so these
stay few and quick.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from review_helpers import PUMP, copy_manuals

from rulec.compiler.review.html import render
from rulec.compiler.review.session import compile_for_review

webdriver = pytest.importorskip("selenium.webdriver",
                                reason="browser tests need selenium (the [test] extra)")
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
if CHROMIUM is None or DRIVER is None:
    pytest.skip("browser tests need Debian's chromium and chromium-driver "
                "(make install-test installs them as root; else apt-get install chromium "
                "chromium-driver)", allow_module_level=True)

from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402

WAIT_S = 20


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    options = webdriver.ChromeOptions()
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--window-size=1400,900", "--no-first-run", "--disable-extensions",
                 "--disable-background-networking"):
        options.add_argument(flag)
    options.binary_location = CHROMIUM
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(options=options,
                              service=webdriver.ChromeService(executable_path=DRIVER))
    driver.set_page_load_timeout(WAIT_S)
    try:
        yield driver
    finally:
        driver.quit()


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("review") / "review.html"
    path.write_text(render(compile_for_review([PUMP]).data()), encoding="utf-8")
    return path


def _open(browser: Any, url: str) -> None:
    browser.get_log("browser")  # what an earlier page said is not this one's
    browser.get(url)
    WebDriverWait(browser, WAIT_S).until(
        lambda d: d.execute_script("return document.body.dataset.ready") == "1")


def _console_errors(browser: Any) -> list[dict[str, Any]]:
    return [e for e in browser.get_log("browser") if e["level"] in ("SEVERE", "WARNING")]


def _shown(browser: Any) -> int:
    text = browser.find_element(By.ID, "shown").text
    match = re.match(r"(\d+) of (\d+)", text)
    assert match, text
    visible = [r for r in browser.find_elements(By.CSS_SELECTOR, "#statements tr.row")
               if r.get_attribute("hidden") is None]
    assert len(visible) == int(match.group(1))
    return len(visible)


def _rows(browser: Any) -> list[str]:
    """The class badge of each visible statement row."""
    return [r.find_element(By.CSS_SELECTOR, ".badge").get_attribute("textContent")
            for r in browser.find_elements(By.CSS_SELECTOR, "#statements tr.row")
            if r.get_attribute("hidden") is None]


def test_the_page_loads_without_console_errors(browser: Any, page: Path) -> None:
    _open(browser, page.as_uri())
    assert _console_errors(browser) == []
    data = compile_for_review([PUMP]).data()
    assert _shown(browser) == len(data["statements"])
    spans = browser.find_elements(By.CSS_SELECTOR, "#docs .st")
    assert len(spans) == len(data["statements"])
    assert len(browser.find_elements(By.CSS_SELECTOR, "#docs .st.c-compiled")) == len(
        [s for s in data["statements"] if s["class"] == "compiled"])


def test_filters_by_class_severity_parameter_and_words(browser: Any, page: Path) -> None:
    _open(browser, page.as_uri())
    everything = _rows(browser)
    browser.find_element(By.CSS_SELECTOR, "#classes input[value='compiled']").click()
    assert _rows(browser) == [c for c in everything if c != "compiled"]
    assert browser.find_elements(By.CSS_SELECTOR, "#docs .st.c-compiled.dim")
    browser.find_element(By.CSS_SELECTOR, "#classes input[value='compiled']").click()
    Select(browser.find_element(By.ID, "severity")).select_by_visible_text("warning")
    warned = _rows(browser)
    assert warned and set(warned) == {"compiled"}
    cards = [c for c in browser.find_elements(By.CSS_SELECTOR, "#rules .card")
             if c.get_attribute("hidden") is None]
    assert all("sev-warning" in c.get_attribute("class") for c in cards)
    Select(browser.find_element(By.ID, "severity")).select_by_index(0)
    Select(browser.find_element(By.ID, "param")).select_by_value("oil_pressure")
    assert _shown(browser) == 1
    Select(browser.find_element(By.ID, "param")).select_by_index(0)
    browser.find_element(By.ID, "search").send_keys("pumps")
    assert _shown(browser) == 1 and _rows(browser) == ["descriptive"]
    assert _console_errors(browser) == []


def test_links_from_a_statement_to_its_rule_and_back(browser: Any, page: Path) -> None:
    _open(browser, page.as_uri())
    link = browser.find_element(By.CSS_SELECTOR, "#statements .rule-link")
    rule_id = link.text
    link.click()
    card = browser.find_element(By.ID, f"r-{rule_id}")
    assert card.is_displayed()
    card.find_element(By.CSS_SELECTOR, ".source-link").click()
    selected = browser.find_element(By.CSS_SELECTOR, "#docs .st.selected")
    assert rule_id in selected.get_attribute("title")
    assert rule_id in browser.find_element(By.ID, "detail").text


def test_the_box_plot_draws_the_boxes_of_the_chosen_pair(browser: Any, page: Path) -> None:
    _open(browser, page.as_uri())
    browser.find_element(By.CSS_SELECTOR, "nav.tabs button[data-tab='plot']").click()
    Select(browser.find_element(By.ID, "plot-x")).select_by_value("oil_temperature")
    Select(browser.find_element(By.ID, "plot-y")).select_by_value("oil_pressure")
    drawn = {g.get_attribute("data-rule")
             for g in browser.find_elements(By.CSS_SELECTOR, "#plot g.plotted")}
    data = compile_for_review([PUMP]).data()
    assert drawn == {b["rule"] for b in data["boxes"]
                     if {"oil_temperature", "oil_pressure"} & set(b["sides"])}
    assert _console_errors(browser) == []


@pytest.fixture()
def served(tmp_path: Path) -> Iterator[tuple[str, Path, Path]]:
    src = copy_manuals(tmp_path)
    decisions = tmp_path / "decisions.jsonl"
    proc = subprocess.Popen(
        [sys.executable, "-m", "rulec.compiler.cli", "review", str(src), "--serve",
         "--port", "0", "--decisions", str(decisions), "--who", "A. Engineer"],
        stderr=subprocess.PIPE, text=True, env=dict(os.environ))
    try:
        assert proc.stderr is not None
        line = proc.stderr.readline()
        match = re.search(r"serving (http://127\.0\.0\.1:\d+/)", line)
        assert match, line
        yield match.group(1), src, decisions
    finally:
        proc.terminate()
        proc.wait(timeout=WAIT_S)


def _statement(browser: Any, words: str) -> None:
    span = next(s for s in browser.find_elements(By.CSS_SELECTOR, "#docs .st")
                if words in s.text)
    span.click()


def _after_reload(browser: Any, why: str) -> None:
    WebDriverWait(browser, WAIT_S).until(lambda d: d.execute_script(
        "return document.body.dataset.ready === '1' && "
        "document.getElementById('decisions').textContent.includes(arguments[0])", why))


def _compile(src: Path, decisions: Path, bundle: Path, *state: str) -> dict[str, Any]:
    made = subprocess.run([sys.executable, "-m", "rulec.compiler.cli", "compile", str(src),
                           "-o", str(bundle), "--decisions", str(decisions), "-q"],
                          capture_output=True, text=True, timeout=60)
    assert made.returncode == 0, made.stderr
    got = subprocess.run([sys.executable, "-m", "rulec.compiler.cli", "query", str(bundle),
                          "--json", *state], capture_output=True, text=True, timeout=60)
    assert got.returncode == 0, got.stderr
    return json.loads(got.stdout)


def test_decisions_made_in_the_page_end_up_in_the_recompiled_bundle(
        browser: Any, served: tuple[str, Path, Path], tmp_path: Path) -> None:
    url, src, decisions = served
    _open(browser, url)
    assert _console_errors(browser) == []
    _statement(browser, "exceeds 120 °C")
    form = browser.find_element(By.CSS_SELECTOR, "#detail form.decide")
    form.find_element(By.TAG_NAME, "summary").click()
    value = form.find_element(By.NAME, "value-0")
    value.clear()
    value.send_keys("1,800")  # a thousands separator is refused, never read as a range
    form.find_element(By.CSS_SELECTOR, "button[data-act='correct']").click()
    assert "thousands separators" in form.find_element(By.CSS_SELECTOR, ".error").text
    assert not decisions.exists()
    value.clear()
    value.send_keys("110")
    Select(form.find_element(By.NAME, "severity")).select_by_visible_text("warning")
    form.find_element(By.NAME, "why").send_keys("stand B limit is 110")
    form.find_element(By.CSS_SELECTOR, "button[data-act='correct']").click()
    _after_reload(browser, "stand B limit is 110")

    _statement(browser, "for the listed cases")
    form = browser.find_element(By.CSS_SELECTOR, "#detail form[data-create]")
    Select(form.find_element(By.NAME, "param")).select_by_value("oil_temperature")
    Select(form.find_element(By.NAME, "op")).select_by_visible_text(">")
    form.find_element(By.NAME, "value").send_keys("140")
    form.find_element(By.NAME, "unit").send_keys("degC")
    form.find_element(By.NAME, "action").send_keys("stop the pump")
    form.find_element(By.NAME, "why").send_keys("the lead-in is the rule")
    form.find_element(By.CSS_SELECTOR, "button[data-act='create']").click()
    _after_reload(browser, "the lead-in is the rule")
    assert _console_errors(browser) == []

    log = [json.loads(line) for line in decisions.read_text(encoding="utf-8").splitlines()]
    assert [d["action"] for d in log] == ["correct", "create"]
    assert {d["who"] for d in log} == {"A. Engineer"}
    corrected, created = log[0]["rule_id"], log[1]["rule_id"]

    fired = _compile(src, decisions, tmp_path / "b.bundle", "oil_temperature=115")
    assert [(r["id"], r["severity"]) for r in fired["rules"]] == [(corrected, "warning")]
    fired = _compile(src, decisions, tmp_path / "b.bundle", "oil_temperature=141")
    assert created in {r["id"] for r in fired["rules"]}
    assert "stop the pump" in next(r["advisory"] for r in fired["rules"] if r["id"] == created)


def test_a_rule_shows_the_findings_that_name_it(browser: Any, page: Path) -> None:
    _open(browser, page.as_uri())
    data = compile_for_review([PUMP]).data()
    (finding,) = data["findings"]
    browser.find_element(By.CSS_SELECTOR, "nav.tabs button[data-tab='findings']").click()
    shown = browser.find_element(By.ID, "findings").text
    assert finding["message"] in shown
    browser.find_element(By.CSS_SELECTOR, "#findings .rule-link").click()
    card = browser.find_element(By.ID, f"r-{finding['rules'][0]}")
    assert card.is_displayed() and "shadowed" in card.text and finding["message"] in card.text
