"""The page is one file that reaches nothing outside itself, and text from a manual never
becomes markup or script."""

from __future__ import annotations

import json
import re
from pathlib import Path

from review_helpers import copy_manuals

from rulec.compiler.review.html import render
from rulec.compiler.review.session import compile_for_review

HOSTILE = "If the oil pressure falls below 5 psi, shout </script><script>alert(1)</script> @@JS@@."


def _page(tmp_path: Path) -> tuple[str, dict]:  # type: ignore[type-arg]
    src = copy_manuals(tmp_path)
    with (src / "pump.txt").open("a", encoding="utf-8") as out:
        out.write(HOSTILE + "\n")
    data = compile_for_review([src]).data()
    return render(data), data


def test_the_page_is_self_contained(tmp_path: Path) -> None:
    page, _ = _page(tmp_path)
    assert not re.search(r"""(?:src|href|action)\s*=\s*["']?(?:https?:)?//""", page)
    assert not re.search(r"@import|url\(\s*['\"]?https?:", page)
    assert "default-src 'none'" in page  # the browser itself refuses any other load
    assert page.count("<script") == 2 and page.count("</script>") == 2


def test_manual_text_stays_data(tmp_path: Path) -> None:
    page, data = _page(tmp_path)
    embedded = re.search(r'<script type="application/json" id="review-data">(.*?)</script>',
                         page, re.S)
    assert embedded is not None
    back = json.loads(embedded.group(1))
    assert any(HOSTILE in s["text"] for s in back["statements"])
    assert back["statements"] == data["statements"]
    assert "@@JS@@" in embedded.group(1) and "@@" not in page.replace(embedded.group(1), "")
