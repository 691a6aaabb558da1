"""Take the screenshots of the review page shown in docs/review.md, in headless chromium.

    .venv/bin/python tools/review_screenshots.py [OUTDIR]      (default: docs/)

The page is the example rocket-engine manual's, a statement selected; the served page
shows the decision forms.  Needs selenium and Debian's chromium and chromium-driver.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from selenium import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

ROOT = Path(__file__).resolve().parents[1]
MANUALS = ROOT / "examples" / "manuals" / "rocket_engine"
PUMP = ROOT / "tests" / "fixtures" / "review" / "pump"  # with statements needing review


def browser() -> Any:
    options = webdriver.ChromeOptions()
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1400,860",
                 "--hide-scrollbars"):
        options.add_argument(flag)
    options.binary_location = shutil.which("chromium") or "chromium"
    service = webdriver.ChromeService(executable_path=shutil.which("chromedriver"))
    return webdriver.Chrome(options=options, service=service)


def ready(driver: Any, url: str) -> None:
    driver.get(url)
    WebDriverWait(driver, 20).until(
        lambda d: d.execute_script("return document.body.dataset.ready") == "1")


def select_statement(driver: Any, words: str) -> None:
    next(s for s in driver.find_elements(By.CSS_SELECTOR, "#docs .st") if words in s.text).click()


def main(out: Path) -> int:
    rulec = [sys.executable, "-m", "rulec.compiler.cli"]
    with tempfile.TemporaryDirectory() as tmp:
        page = Path(tmp) / "review.html"
        subprocess.run([*rulec, "review", str(MANUALS), "-o", str(page)], check=True)
        driver = browser()
        try:
            ready(driver, page.as_uri())
            select_statement(driver, "greater than 800")
            driver.save_screenshot(str(out / "review-page.png"))
            driver.find_element(By.ID, "close-detail").click()
            driver.find_element(By.CSS_SELECTOR, "nav.tabs button[data-tab='plot']").click()
            Select(driver.find_element(By.ID, "plot-x")).select_by_value("chamber_temperature")
            Select(driver.find_element(By.ID, "plot-y")).select_by_value("chamber_pressure")
            driver.execute_script("document.getElementById('panes').scrollTop = 0")
            driver.save_screenshot(str(out / "review-plot.png"))
            server = subprocess.Popen(
                [*rulec, "review", str(MANUALS), "--serve", "--port", "0", "--decisions",
                 str(Path(tmp) / "decisions.jsonl"), "--who", "J. Doe"],
                stderr=subprocess.PIPE, text=True)
            try:
                assert server.stderr is not None
                url = re.search(r"http://127\.0\.0\.1:\d+/", server.stderr.readline())
                assert url, "the server did not say where it serves"
                ready(driver, url.group(0))
                select_statement(driver, "exceeds 600")
                driver.find_element(By.CSS_SELECTOR, "#detail summary").click()
                time.sleep(0.2)
                driver.save_screenshot(str(out / "review-decide.png"))
            finally:
                server.terminate()
                server.wait(timeout=20)
            server = subprocess.Popen(
                [*rulec, "review", str(PUMP), "--serve", "--port", "0", "--decisions",
                 str(Path(tmp) / "pump-decisions.jsonl"), "--who", "J. Doe"],
                stderr=subprocess.PIPE, text=True)
            try:
                assert server.stderr is not None
                url = re.search(r"http://127\.0\.0\.1:\d+/", server.stderr.readline())
                assert url, "the server did not say where it serves"
                ready(driver, url.group(0))
                select_statement(driver, "for the listed cases")
                time.sleep(0.2)
                driver.save_screenshot(str(out / "review-make-rule.png"))
            finally:
                server.terminate()
                server.wait(timeout=20)
        finally:
            driver.quit()
    print(f"wrote {out}/review-page.png, review-plot.png, review-decide.png, "
          "review-make-rule.png")
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs"))
