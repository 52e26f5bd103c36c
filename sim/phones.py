"""The people's phones on the table's page (:class:`sim.people.PageSide`), two ways.

- :class:`ApiPhone` asks the page's own routes as its script does (the snapshot, ``/api/press``,
  ``/api/submit``, ``/api/choose`` with the page's CSRF token and Origin) through a WSGI test client: fast,
  for many seeded games.
- :class:`BrowserPhone` is a real browser tab (a Playwright page on the served page): it reads what the
  page's script reads and taps the page's own buttons (a move's button, the panel's Undo, the dispute
  page's options), so a control that is missing, hidden or wired wrong fails the game.

Neither imports the companion: each is handed its client or browser page.
"""

from __future__ import annotations

import json
import time
from typing import Any

HOST = {"Host": "localhost"}
ORIGIN = "http://localhost"

#: what the page's script reads on every live update
SNAPSHOT = "async () => (await fetch('/api/snapshot', {cache: 'no-store'})).json()"
#: taps the control posting ``target`` (as a person would: folds opened, scrolled to); false if none.
#: Found and tapped in one go, since a live update may swap the controls between two calls.
TAP_CONTROL = """([selector, target]) => {
  const canon = (value) => JSON.stringify(value, Object.keys(value).sort());
  const want = target === null ? null : canon(target);
  for (const button of document.querySelectorAll(selector)) {
    if (want !== null) {
      const action = JSON.parse(button.dataset.body).action;
      if (!action || canon(action) !== want) continue;
    }
    for (let d = button.closest("details"); d; d = d.parentElement.closest("details")) d.open = true;
    button.scrollIntoView({block: "center"});
    button.click();
    return true;
  }
  return false;
}"""


class ApiPhone:
    """One phone as the page's script: its own cookie and CSRF token, over a WSGI test client."""

    def __init__(self, app: Any) -> None:
        self.client = app.test_client()
        self.token = self._token()

    def _token(self) -> str:
        html: str = self.client.get("/", headers=HOST).get_data(as_text=True)
        marker = 'name="csrf-token" content="'
        start = html.index(marker) + len(marker)
        return html[start:html.index('"', start)]

    def _post(self, url: str, body: dict[str, Any]) -> dict[str, Any]:
        headers = {**HOST, "X-CSRF-Token": self.token, "Origin": ORIGIN}
        answer = self.client.post(url, json=body, headers=headers)
        data: dict[str, Any] = answer.get_json() or {"ok": False, "error": answer.status}
        return data

    def look(self) -> dict[str, Any]:
        data: dict[str, Any] = self.client.get("/api/snapshot", headers=HOST).get_json()
        return data

    def press(self, button: str) -> dict[str, Any]:
        return self._post("/api/press", {"button": button})

    def tap_move(self, action: dict[str, Any]) -> dict[str, Any]:
        return self._post("/api/submit", {"action": action})

    def choose(self, index: int) -> dict[str, Any]:
        return self._post("/api/choose", {"index": index})

    def reload(self) -> dict[str, Any]:
        page = self.client.get("/", headers=HOST)
        if page.status_code != 200:
            raise RuntimeError(f"the page did not load again: {page.status}")
        return self.look()


class BrowserPhone:
    """One phone as a browser tab on the served page (``page``: a Playwright page of its own context)."""

    def __init__(self, page: Any, url: str, patience_s: float = 20.0) -> None:
        self.page, self.url, self.patience_s = page, url.rstrip("/") + "/", patience_s
        self.errors: list[str] = []
        self._answers: list[Any] = []  # the page's posts' responses, as they come
        page.on("pageerror", lambda error: self.errors.append(str(error)))
        page.on("response", lambda r: self._answers.append(r) if r.request.method == "POST" else None)
        page.goto(self.url)

    def look(self) -> dict[str, Any]:
        data: dict[str, Any] = self.page.evaluate(SNAPSHOT)
        return data

    def _tap(self, route: str, selector: str, target: dict[str, Any] | None) -> dict[str, Any]:
        """Tap the first control ``selector`` (posting ``target`` when given) and return what the page's
        route answered; the page is given a while to show the control (live updates come and go)."""
        seen = len(self._answers)
        deadline = time.monotonic() + self.patience_s
        while not self.page.evaluate(TAP_CONTROL, [selector, target]):
            if time.monotonic() > deadline:
                return {"ok": False, "error": f"no control on the page for {json.dumps(target)}"}
            self.page.wait_for_timeout(100)
        deadline = time.monotonic() + self.patience_s
        while not any(r.url.endswith(route) for r in self._answers[seen:]):
            if time.monotonic() > deadline:
                raise RuntimeError(f"the page tapped {selector} but {route} never answered")
            self.page.wait_for_timeout(20)
        answer = next(r for r in self._answers[seen:] if r.url.endswith(route))
        data: dict[str, Any] = answer.json()
        return data

    def _at(self, path: str) -> None:
        if self.page.url != self.url + path:
            self.page.goto(self.url + path)

    def press(self, button: str) -> dict[str, Any]:
        self._at("")
        if button == "confirm" and self.page.query_selector("#setup-confirm"):
            return self._tap("/api/press", "#setup-confirm", None)  # "Start with the table as it is"
        return self._tap("/api/press", f"#press-{button}", None)

    def tap_move(self, action: dict[str, Any]) -> dict[str, Any]:
        self._at("")
        return self._tap("/api/submit", "button.move", action)

    def choose(self, index: int) -> dict[str, Any]:
        """The banner's "decide" opens the dispute page; the option is tapped there; back to the table."""
        self._at("")
        if self.page.query_selector("#pending-banner"):
            self.page.click("#pending-banner")
            self.page.wait_for_url(self.url + "dispute")
        else:
            self._at("dispute")
        answer = self._tap("/api/choose", f"#choose-{int(index)}", None)
        self._at("")
        return answer

    def reload(self) -> dict[str, Any]:
        self.page.reload()
        return self.look()
