// Dino Table Companion: live updates and buttons. Plain script, no libraries, nothing from other sites.
(function () {
  "use strict";
  // The pairing link carries the PIN in its fragment (never sent to the server): fill it in and unlock.
  if (document.body.dataset.page === "login") {
    const match = /^#pin=(.+)$/.exec(location.hash);
    if (match) {
      history.replaceState(null, "", location.pathname + location.search);
      document.getElementById("pin").value = decodeURIComponent(match[1]);
      document.getElementById("login-form").submit();
    }
    return;
  }
  const csrf = document.querySelector('meta[name="csrf-token"]').content;
  // the page's own words for what this script says, in the reader's language (made by the server)
  const wordsBox = document.getElementById("page-words");
  const words = wordsBox ? JSON.parse(wordsBox.textContent) : {};
  function say(key, fallback) { return words[key] || fallback; }

  document.addEventListener("click", function (event) {
    if (event.target.closest("[data-print]")) window.print();
  });

  function toast(text, bad) {
    const box = document.getElementById("toast");
    box.textContent = text;
    box.className = bad ? "show bad" : "show";
    clearTimeout(toast.timer);
    toast.timer = setTimeout(function () { box.className = ""; }, 3500);
  }

  async function post(url, body) {
    const response = await fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf },
      body: JSON.stringify(body),
    });
    let answer = {};
    try { answer = await response.json(); } catch (e) { answer = { ok: false, error: response.statusText }; }
    if (response.status === 401 && document.body.dataset.lan === "1") {
      location.href = "/login?next=" + encodeURIComponent(location.pathname + location.search);
    }
    if (!response.ok || answer.ok === false) {
      toast(answer.error || say("refused", "refused ({status})").replace("{status}", String(response.status)), true);
    } else {
      toast(say("done", "done"));
    }
    scheduleRefresh(0);
    return answer;
  }

  // Buttons: <button data-post="/api/press" data-body='{"button": "confirm"}'>
  document.addEventListener("click", function (event) {
    const button = event.target.closest("[data-post]");
    if (!button) return;
    event.preventDefault();
    button.disabled = true;
    post(button.dataset.post, JSON.parse(button.dataset.body || "{}"))
      .finally(function () { button.disabled = false; });
  });

  // A place on the diagram is a button too (a circle over the picture): Enter or Space makes its move
  document.addEventListener("keydown", function (event) {
    if ((event.key === "Enter" || event.key === " ") && event.target.matches("[role=button][data-post]")) {
      event.preventDefault();
      event.target.dispatchEvent(new MouseEvent("click", { bubbles: true }));
    }
  });

  // This phone's seat, and a hint for it shown here only (never in the live parts other phones see)
  document.addEventListener("click", function (event) {
    const button = event.target.closest("[data-hint]");
    if (!button) return;
    event.preventDefault();
    button.disabled = true;
    const answerBox = document.getElementById("hint-answer");
    answerBox.hidden = false;
    answerBox.textContent = say("thinking", "…");
    post("/api/hint", {}).then(function (answer) {
      answerBox.textContent = answer && answer.ok ? answer.words : "";
      answerBox.hidden = !(answer && answer.ok);
      hintAt = eventsSeen();
    }).finally(function () { button.disabled = false; });
  });
  // a hint holds for the position it was asked in: gone once a move is made
  let hintAt = null;
  function eventsSeen() {
    const marker = document.querySelector("#my-seat [data-events]");
    return marker ? marker.dataset.events : null;
  }
  function forgetStaleHint() {
    const answerBox = document.getElementById("hint-answer");
    if (hintAt === null || !answerBox || eventsSeen() === hintAt) return;
    hintAt = null;
    answerBox.hidden = true;
    answerBox.textContent = "";
  }

  document.addEventListener("change", function (event) {
    if (event.target.matches("[data-seat]")) post("/api/seat", { seat: event.target.value || null });
    if (event.target.matches("[data-autosubmit]")) event.target.form.submit();
    if (event.target.id === "setup-game") showOptions();
  });

  document.addEventListener("submit", function (event) {
    const form = event.target;
    if (form.matches("[data-submit-action]")) {
      event.preventDefault();
      let action;
      try { action = JSON.parse(form.elements.action.value); } catch (e) { toast(say("bad_json", "that is not valid JSON"), true); return; }
      post("/api/submit", { action: action });
    } else if (form.matches("[data-new-game]")) {
      event.preventDefault();
      // the new game starts with the table's set-up checklist: on to the table page, where it is
      post("/api/new-game", { settings: readSetup(form) }).then(function (answer) {
        if (answer && answer.ok) location.href = "/";
      });
    }
  });

  function readSetup(form) {
    const settings = { game: form.elements.game.value, options: {}, house_rules: {}, seats: [] };
    const fieldset = form.querySelector('fieldset.game-options[data-game="' + settings.game + '"]');
    if (fieldset) {
      fieldset.querySelectorAll("select[data-json]").forEach(function (select) {
        const group = select.dataset.house === "1" ? settings.house_rules : settings.options;
        group[select.name.slice(4)] = JSON.parse(select.value);
      });
    }
    for (let seat = 0; seat < 6; seat++) {
      if (!form.elements["plays:" + seat].checked) continue;
      settings.seats.push({
        name: form.elements["name:" + seat].value.trim(),
        colour: form.elements["colour:" + seat].value,
        seat: seat,
        companion: Number(form.elements["who:" + seat].value),
      });
    }
    return settings;
  }

  function showOptions() {
    const select = document.getElementById("setup-game");
    if (!select) return;
    document.querySelectorAll("fieldset.game-options").forEach(function (fieldset) {
      fieldset.hidden = fieldset.dataset.game !== select.value;
    });
    // only as many seat rows as the game takes players
    const most = Number(select.selectedOptions[0].dataset.max || 6);
    document.querySelectorAll("tr.seat-row").forEach(function (row) {
      const seat = Number(row.dataset.seat);
      row.hidden = seat >= most;
      const plays = row.querySelector('input[type="checkbox"]');
      if (row.hidden && plays) plays.checked = false;
    });
  }
  showOptions();

  // Live parts: on every event from the table, fetch this page again and swap the [data-live] parts.
  let refreshTimer = null;
  let refreshing = false;
  let lastRefresh = 0;
  function scheduleRefresh(delay) {
    if (refreshTimer !== null) return;
    const wait = delay === undefined ? Math.max(0, 400 - (Date.now() - lastRefresh)) : delay;
    refreshTimer = setTimeout(refresh, wait);
  }

  async function refresh() {
    refreshTimer = null;
    if (refreshing) { scheduleRefresh(); return; }
    refreshing = true;
    lastRefresh = Date.now();
    try {
      const response = await fetch(location.pathname + location.search, { credentials: "same-origin" });
      if (!response.ok) return;
      const html = await response.text();
      const fresh = new DOMParser().parseFromString(html, "text/html");
      document.querySelectorAll("[data-live][id]").forEach(function (old) {
        const replacement = fresh.getElementById(old.id);
        if (!replacement) return;
        if (replacement.innerHTML === old.innerHTML) return;
        if (old.contains(document.activeElement) && document.activeElement.matches("textarea, input, select")) return;
        preloadThenSwap(old, replacement);
      });
      forgetStaleHint();
      document.body.dataset.refreshed = String(Date.now());
    } catch (e) {
      // the companion restarting: the event stream reconnects by itself
    } finally {
      refreshing = false;
    }
  }

  // A fold the player opened (or closed) stays so when its part is swapped for a fresh one.
  function foldKey(details) {
    const owner = details.id ? details : details.parentElement.closest("[id]");
    return (owner ? owner.id : "") + "|" + (details.id || details.dataset.kind || "");
  }
  function keepFolds(old, replacement) {
    old.querySelectorAll("input[data-filter][id]").forEach(function (input) {
      const fresh = replacement.querySelector("#" + input.id);
      if (fresh) fresh.value = input.value;
    });
    const open = {};
    old.querySelectorAll("details").forEach(function (d) { open[foldKey(d)] = d.open; });
    replacement.querySelectorAll("details").forEach(function (d) {
      const key = foldKey(d);
      if (key in open) d.open = open[key];
    });
  }

  // Swap a live part once its new pictures have loaded, so that diagrams never flash empty.
  function preloadThenSwap(old, replacement) {
    const images = Array.from(replacement.querySelectorAll("img")).filter(function (img) {
      return !old.querySelector('img[src="' + img.getAttribute("src") + '"]');
    });
    let left = images.length;
    function swap() { keepFolds(old, replacement); old.replaceWith(replacement); showOptions(); applyFilters(); }
    if (left === 0) { swap(); return; }
    images.forEach(function (img) {
      const probe = new Image();
      probe.onload = probe.onerror = function () { left -= 1; if (left === 0) swap(); };
      probe.src = img.getAttribute("src");
    });
  }

  // A search box over a list: only the items whose name holds what was typed stay shown.
  function applyFilters() {
    document.querySelectorAll("input[data-filter]").forEach(function (input) {
      const list = document.querySelector(input.dataset.filter);
      if (!list) return;
      const wanted = input.value.trim().toLowerCase();
      list.querySelectorAll("[data-filter-item]").forEach(function (item) {
        item.hidden = wanted !== "" && !(item.dataset.name || "").includes(wanted);
      });
    });
  }
  document.addEventListener("input", function (event) {
    if (event.target.matches && event.target.matches("input[data-filter]")) applyFilters();
  });

  // The stream opens with a hello, so every (re)connection refreshes the page: nothing missed meanwhile.
  let lastEvent = null;
  let retryIn = 2000;
  let stream = null;
  function connect() {
    if (!window.EventSource) return;
    const source = new EventSource("/api/events");
    stream = source;
    source.onmessage = function (message) {
      try { lastEvent = JSON.parse(message.data); } catch (e) { return; }
      document.body.dataset.lastEvent = lastEvent.type || "";
      if (lastEvent.type === "replaced") { // a newer tab of this browser took the stream
        source.close();
        stream = null;
        document.body.dataset.live = "0";
        return;
      }
      if (lastEvent.type === "frame") return; // frames are fetched by the camera loop below
      scheduleRefresh();
    };
    source.onerror = function () {
      document.body.dataset.live = "0";
      // refused (every stream taken) or gone for good: the browser gives up, so try again, less often
      if (source.readyState === EventSource.CLOSED && stream === source) {
        stream = null;
        setTimeout(function () { if (stream === null) connect(); }, retryIn);
        retryIn = Math.min(retryIn * 2, 30000);
      }
    };
    source.onopen = function () { document.body.dataset.live = "1"; retryIn = 2000; };
  }
  connect();
  document.addEventListener("visibilitychange", function () {
    if (!document.hidden && stream === null) connect(); // looked at again: live again
  });

  // Camera pictures: fetch the next frame when the last one has loaded (about two a second at most).
  let frameCount = 0;
  function nextFrame(delay) {
    setTimeout(function () {
      const images = document.querySelectorAll("img[data-refresh]");
      if (document.hidden || images.length === 0) { nextFrame(1000); return; }
      const probe = new Image();
      probe.onload = function () {
        frameCount += 1;
        document.querySelectorAll("img[data-refresh]").forEach(function (img) {
          img.src = probe.src;
          img.classList.remove("missing");
          img.dataset.count = String(frameCount);
        });
        nextFrame(500);
      };
      probe.onerror = function () {
        images.forEach(function (img) { img.classList.add("missing"); });
        nextFrame(2000);
      };
      probe.src = images[0].dataset.refresh + "?n=" + Date.now();
    }, delay);
  }
  nextFrame(500);
})();
