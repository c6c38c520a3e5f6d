from typing import Any
from pathlib import Path
import pytest
from .test_accounts_pg import register, three_notifications
from .conftest import Browsers
pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

def test_debug(people: Browsers, live_server: Any, artifacts: Path) -> None:
    p = register("alice")
    three_notifications(p)
    for size, vp in (("laptop", {"width": 1280, "height": 900}), ("phone", {"width": 390, "height": 844})):
        a = people.open("alice", viewport=vp, device_scale_factor=3)
        print(size, a.evaluate("""() => ['header a.bell svg', 'header a.bell .count', 'header a.me', 'header nav a:nth-of-type(7)', 'header form.inline button'].map(s => { const r = document.querySelector(s).getBoundingClientRect(); return s + ' y=' + r.y.toFixed(1) + ' h=' + r.height.toFixed(1) + ' mid=' + (r.y + r.height/2).toFixed(1); })"""))
        box = a.locator("header a.bell").bounding_box()
        a.screenshot(path=f"/tmp/bell-{size}.png", clip={"x": box["x"] - 60, "y": max(0, box["y"] - 15), "width": 200, "height": box["height"] + 30})
