"""The HTML reports in a real headless browser (Chromium driven by Selenium): the scan page
renders the conflicts side by side, its filters hide the right rows, it pages a large report,
and hostile claim text stays text. Skipped, with the reason, where no browser is installed."""
import json
import shutil
import subprocess
import sys

import pytest

from conftest import ROOT
from guard.report_html import bench_page, scan_page, write

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
DRIVER = shutil.which("chromedriver")


@pytest.fixture(scope="module")
def browser():
    webdriver = pytest.importorskip("selenium.webdriver", reason="pip install selenium to run the browser tests")
    if not CHROMIUM or not DRIVER:
        pytest.skip("no headless browser: apt install chromium chromium-driver (see README, HTML reports)")
    from selenium.webdriver.chrome.service import Service
    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"):
        opts.add_argument(a)
    drv = webdriver.Chrome(service=Service(DRIVER), options=opts)
    yield drv
    drv.quit()


def visible(drv, css):
    return [e for e in drv.find_elements("css selector", css) if e.is_displayed()]


def test_scan_page_renders_conflicts_and_filters_by_team(browser, tmp_path):
    claims = [
        {"id": "a1", "text": "Prod deploys need two approvals.", "scope": {"team": "payments", "env": "prod"}},
        {"id": "a2", "text": "Prod deploys need one approval.", "scope": {"team": "payments", "env": "prod"}},
        {"id": "b1", "text": "The search API listens on port 8443.", "scope": {"team": "search"}},
        {"id": "b2", "text": "The search API listens on port 9443.", "scope": {"team": "search"}},
        {"id": "c1", "text": "Debug logging is enabled.", "scope": {}},
        {"id": "c2", "text": "Debug logging is disabled.", "scope": {}},
    ]
    src = tmp_path / "claims.jsonl"
    src.write_text("\n".join(json.dumps(c) for c in claims))
    out, page = tmp_path / "r.jsonl", tmp_path / "r.html"
    r = subprocess.run([sys.executable, "-m", "guard.cli", "--profile", "fast", "scan", str(src), "--out", str(out),
                        "--html", str(page), "--fail-on", "never"], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert r.returncode == 0, r.stderr
    findings = [json.loads(x) for x in out.read_text().splitlines()]
    assert len(findings) == 3
    browser.get(page.as_uri())
    rows = visible(browser, ".finding")
    assert len(rows) == 3
    assert "Prod deploys need two approvals." in browser.page_source
    assert any("scope: env=prod, team=payments" in x.text for x in rows)      # both sides with scope and validity
    from selenium.webdriver.support.ui import Select
    Select(browser.find_element("id", "f-team")).select_by_value("payments")
    rows = visible(browser, ".finding")
    assert len(rows) == 1 and "approval" in rows[0].text
    assert "team=payments" in browser.current_url
    Select(browser.find_element("id", "f-team")).select_by_value("(unscoped)")
    rows = visible(browser, ".finding")
    assert len(rows) == 1 and "Debug logging" in rows[0].text
    browser.get(page.as_uri() + "#tier=warn")          # a linked filtered view
    assert all(e.get_attribute("data-tier") == "warn" for e in visible(browser, ".finding"))


def test_a_large_report_pages_and_hostile_text_stays_text(browser, tmp_path):
    evil = '</script><script>document.title="pwned"</script><img src=x onerror="document.title=\'pwned\'">'
    findings = [{"tier": "block" if i % 3 else "warn", "existing_id": f"e{i}", "incoming_id": f"i{i}",
                 "existing": f"Setting {i} is on. {evil if i == 0 else ''}", "incoming": f"Setting {i} is off.",
                 "verdict": "contradiction", "confidence": "HIGH", "stage": "structural", "reason": "opposing modality",
                 "subject": f"setting {i}", "existing_scope": {"team": f"t{i % 4}"}, "incoming_scope": {},
                 "existing_window": {}, "incoming_window": {}} for i in range(200)]
    findings[0]["excepted"] = {"by": "c_forced", "reason": evil, "at": "2026-11-28T08:00:00Z"}
    page = write(tmp_path / "big.html", scan_page({"claims": 10000, "block": 133, "warn": 67, "excepted": 1}, findings))
    browser.get(page.as_uri())
    assert browser.title == "claim-guard scan report"
    assert len(visible(browser, ".finding")) == 25                 # one page of subject groups
    assert "200 of 200 findings, page 1 of 8" in browser.find_element("id", "shown").text
    assert "excepted (forced)" in browser.find_element("css selector", ".cards").text
    assert "excepted: c_forced was forced over it" in browser.find_element("id", "list").text
    browser.find_element("id", "next").click()
    assert "page 2 of 8" in browser.find_element("id", "shown").text
    assert browser.title == "claim-guard scan report" and "</script>" not in browser.find_element("id", "list").text


def test_bench_page_inlines_tables_and_plots(browser, tmp_path):
    pytest.importorskip("markdown", reason="benchmark pages need pip install claim-guard[bench]")
    png = ROOT / "results" / "stages" / "stages_f1.png"
    imgs = [png] if png.exists() else []
    md = "## Results\n\n| system | F1 |\n|---|---|\n| full pipeline | 0.38 |\n"
    page = write(tmp_path / "bench.html", bench_page("claim-guard — bench", md, imgs))
    text = page.read_text()
    assert "http://" not in text and "https://" not in text       # nothing to fetch: no CDN, no server
    browser.get(page.as_uri())
    cells = [c.text for c in browser.find_elements("css selector", "td")]
    assert cells == ["full pipeline", "0.38"]
    if imgs:
        assert browser.execute_script("return document.images[0].naturalWidth") > 100
