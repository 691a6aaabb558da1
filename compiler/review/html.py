"""The review page as one self-contained HTML file: the data as inline JSON, the style and
the script inline (``assets/``), no link to anything outside the file.

The same page is what ``rulec review --serve`` answers with, with ``serve`` set so the
decision forms show and post to the local server.
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path
from typing import Any

ASSETS = Path(__file__).with_name("assets")

_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; \
style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:; connect-src 'self'">
<link rel="icon" href="data:,">
<title>@@TITLE@@</title>
<style>@@CSS@@</style>
</head>
<body>
<header><h1 id="title"></h1><div id="bundle"></div><div id="counts" class="counts"></div></header>
<div id="toolbar">
  <span id="classes"></span>
  <label>severity <select id="severity"><option value="">any</option>
    <option>warning</option><option>caution</option><option>advisory</option></select></label>
  <label>parameter <select id="param"></select></label>
  <label>search <input id="search" type="search" placeholder="words, rule id, file"></label>
  <span id="shown" class="muted"></span>
  <span id="serve-only" hidden><label>who <input id="who" size="14"></label></span>
</div>
<main>
  <div id="docs"></div>
  <div id="side">
    <div id="detail"></div>
    <nav class="tabs">
      <button type="button" data-tab="statements" class="active">Statements</button>
      <button type="button" data-tab="rules">Rules</button>
      <button type="button" data-tab="findings">Findings</button>
      <button type="button" data-tab="plot">Box plot</button>
      <button type="button" data-tab="decisions">Decisions</button>
    </nav>
    <div id="panes">
    <section class="tab active" id="tab-statements"><div id="statements"></div></section>
    <section class="tab" id="tab-rules"><div id="rules"></div></section>
    <section class="tab" id="tab-findings"><div id="findings"></div></section>
    <section class="tab" id="tab-plot">
      <label>x <select id="plot-x"></select></label> <label>y <select id="plot-y"></select></label>
      <svg id="plot" xmlns="http://www.w3.org/2000/svg" width="100%"></svg>
      <p id="plot-note" class="muted"></p>
    </section>
    <section class="tab" id="tab-decisions"><div id="decisions"></div></section>
    </div>
  </div>
</main>
<script type="application/json" id="review-data">@@DATA@@</script>
<script>@@JS@@</script>
</body>
</html>
"""


def render(data: dict[str, Any], serve: bool = False, who: str = "") -> str:
    """The page for ``page.page_data``; ``serve``: with the decision forms."""
    payload = dict(data, serve=serve, who=who)
    text = json.dumps(payload, ensure_ascii=False, separators=(",", ":"))
    # inside <script> no "<" at all ("</script", "<!--" change how HTML reads the element),
    # and U+2028/9 are line ends to old parsers
    text = (text.replace("<", "\\u003c").replace("\u2028", "\\u2028")
            .replace("\u2029", "\\u2029"))
    parts = {
        "@@TITLE@@": html.escape(f"rulec review: {data.get('title') or 'manuals'}"),
        "@@CSS@@": (ASSETS / "review.css").read_text(encoding="utf-8"),
        "@@DATA@@": text,
        "@@JS@@": (ASSETS / "review.js").read_text(encoding="utf-8"),
    }
    # the template is cut at its markers before any value goes in: a value holding a
    # marker's text stays as it is
    pieces = re.split(r"(@@[A-Z]+@@)", _PAGE)
    return "".join(parts.get(piece, piece) for piece in pieces)
