// The phone page: follows the game over Server-Sent Events and sends the players' taps.
// Every event carries the whole state, so after a lost connection the first event that
// arrives puts the page right again; announcements are spoken once, by their increasing ids.
(function () {
  "use strict";
  var game = document.getElementById("game");
  if (!game) { return; }
  var csrf = document.querySelector('meta[name="csrf-token"]').content;
  var canPlay = game.dataset.canPlay === "true";
  var simulator = game.dataset.simulator === "true";
  var lang = document.documentElement.lang || "en";
  var $ = function (id) { return document.getElementById(id); };
  var initial = JSON.parse($("initial").textContent);
  var version = null;
  var gameId = null;
  var lastSaid = 0;
  var sound = false;
  var sensed = (game.dataset.occupied || "").split(" ").filter(Boolean).map(Number);
  try { sound = window.localStorage.getItem("senet-sound") === "on"; } catch (e) { sound = false; }

  function setText(id, text) { var el = $(id); if (el) { el.textContent = text || ""; } }

  function notice(text) {
    var el = $("notice");
    if (!el) {
      el = document.createElement("p");
      el.id = "notice"; el.className = "notice"; el.setAttribute("role", "alert");
      var actions = document.querySelector(".actions") || game;
      actions.appendChild(el);
    }
    el.textContent = text || "";
  }

  function speak(text) {
    if (!sound || !("speechSynthesis" in window)) { return; }
    var u = new SpeechSynthesisUtterance(text);
    u.lang = lang;
    window.speechSynthesis.speak(u);
  }

  function announce(list, quiet) {
    var ol = $("announcements");
    if (!ol) { return; }
    list.forEach(function (a) {
      if (typeof a.id !== "number" || a.id <= lastSaid) { return; }
      lastSaid = a.id;
      if (ol.querySelector('li[data-id="' + a.id + '"]')) { return; }
      var li = document.createElement("li");
      li.textContent = a.text;
      li.className = "kind-" + a.kind;
      li.dataset.id = String(a.id);
      ol.insertBefore(li, ol.firstChild);
      if (!quiet) { speak(a.text); }
    });
    while (ol.children.length > 30) { ol.removeChild(ol.lastChild); }
  }

  function button(label, onclick) {
    var b = document.createElement("button");
    b.type = "button"; b.textContent = label; b.addEventListener("click", onclick);
    return b;
  }

  function apply(data, quiet) {
    if (data.version === version && data.state.game_id === gameId) { return; }
    version = data.version; gameId = data.state.game_id;
    game.dataset.version = String(version);
    var t = data.text;
    $("board").innerHTML = data.svg;
    setText("turn", t.turn);
    var turn = $("turn");
    if (turn) { turn.className = "turn side-" + t.side + (t.over ? " over" : ""); }
    setText("throw", t.throw); setText("bonus", t.bonus); setText("off", t.off); setText("hand", t.hand);
    setText("check", t.board_check);
    var faults = $("faults");
    if (faults) {
      faults.innerHTML = "";
      t.faults.forEach(function (f) { var li = document.createElement("li"); li.textContent = f; faults.appendChild(li); });
    }
    if ($("throw-button")) { $("throw-button").hidden = !t.can_throw; }
    if ($("still-button")) { $("still-button").hidden = !t.idle; }
    if ($("hint-button")) { $("hint-button").hidden = t.moves.length === 0; }
    var moves = $("moves");
    if (moves) {
      moves.innerHTML = "";
      t.moves.forEach(function (m) {
        var li = document.createElement("li");
        if (canPlay) {
          li.className = "button";
          li.appendChild(button(m.label, function () { send("/api/move", { move: m.move }); }));
        } else {
          li.textContent = m.label;
        }
        moves.appendChild(li);
      });
    }
    var decision = $("decision");
    if (decision) {
      decision.innerHTML = "";
      if (t.decision) {
        var p = document.createElement("span"); p.textContent = t.decision.prompt; decision.appendChild(p);
        t.decision.choices.forEach(function (c) {
          var b = button(c.label, function () { send("/api/decide", { choice: c.id }); });
          b.disabled = !canPlay;
          decision.appendChild(b);
        });
      }
    }
    announce(t.announcements.slice().sort(function (a, b) { return a.id - b.id; }), quiet);
    if (simulator) { markSensed(); refreshSensed(); }
  }

  // The simulator marks the squares where the sensors feel a piece (the game's pieces are
  // drawn where the game has them, which differs while a piece is lifted).
  function markSensed() {
    document.querySelectorAll("#board .square").forEach(function (g) {
      g.classList.toggle("sensed", sensed.indexOf(Number(g.dataset.square)) >= 0);
    });
  }
  function refreshSensed() {
    fetch("/simulator/sensors", { credentials: "same-origin" })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (j) { if (j) { sensed = j.occupied; markSensed(); } })
      .catch(function () { /* shown by the connection banner */ });
  }

  function send(url, body) {
    notice("");
    return fetch(url, {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf },
      body: JSON.stringify(body || {})
    }).then(function (r) {
      return r.json().catch(function () { return {}; }).then(function (j) {
        if (!r.ok) { notice(j.error || r.statusText); }
        return j;
      });
    }).catch(function () { notice($("connection").textContent); });
  }

  // Tapping the board: a highlighted piece plays its move; on the simulator a square is a sensor.
  function tapped(event) {
    var target = event.target.closest ? event.target.closest("[data-square],[data-move]") : null;
    if (!target) { return; }
    if (simulator) {
      var square = Number(target.dataset.square || target.closest("[data-square]").dataset.square);
      var mode = document.querySelector('input[name="sim-mode"]:checked').value;
      var action = mode === "press" ? "press" : (sensed.indexOf(square) >= 0 ? "lift" : "place");
      send("/simulator/" + action, { square: square }).then(function (j) {
        if (j && j.occupied) { sensed = j.occupied; markSensed(); }
      });
      return;
    }
    var piece = event.target.closest(".movable");
    if (piece && canPlay) { send("/api/move", { move: piece.dataset.move }); }
  }
  $("board").addEventListener("click", tapped);
  $("board").addEventListener("keydown", function (event) {
    if (event.key === "Enter" || event.key === " ") { event.preventDefault(); tapped(event); }
  });

  if ($("throw-button")) { $("throw-button").addEventListener("click", function () { send("/api/throw"); }); }
  if ($("still-button")) { $("still-button").addEventListener("click", function () { send("/api/still-playing"); }); }
  if ($("hint-button")) { $("hint-button").addEventListener("click", function () { send("/api/hint"); }); }
  if ($("sim-throw")) {
    $("sim-throw").addEventListener("click", function () {
      var faces = Array.prototype.map.call(document.querySelectorAll(".stick"), function (c) { return c.checked ? 1 : 0; });
      send("/simulator/throw", { faces: faces });
    });
  }
  if ($("sim-button")) { $("sim-button").addEventListener("click", function () { send("/simulator/throw-button"); }); }

  var soundButton = $("sound");
  function showSound() {
    if (!soundButton) { return; }
    soundButton.setAttribute("aria-pressed", sound ? "true" : "false");
    soundButton.textContent = sound ? soundButton.dataset.on : soundButton.dataset.off;
  }
  if (soundButton) {
    soundButton.addEventListener("click", function () {
      sound = !sound;
      try { window.localStorage.setItem("senet-sound", sound ? "on" : "off"); } catch (e) { /* private mode */ }
      showSound();
      if (sound) { var first = document.querySelector("#announcements li"); if (first) { speak(first.textContent); } }
    });
    showSound();
  }

  // Live updates. EventSource reconnects by itself after a dropped stream; when the server
  // refused the stream (full, restarting) it gives up, so we open a new one after a pause.
  var connection = $("connection");
  var source = null;
  var retry = 1000;
  function connected() { connection.hidden = true; game.dataset.connected = "true"; retry = 1000; }
  function disconnected() { connection.hidden = false; game.dataset.connected = "false"; }
  function follow() {
    source = new EventSource("/api/events");
    source.addEventListener("open", connected);
    source.addEventListener("state", function (event) { connected(); apply(JSON.parse(event.data), false); });
    source.addEventListener("error", function () {
      disconnected();
      if (source.readyState === EventSource.CLOSED) {
        setTimeout(follow, retry);
        retry = Math.min(retry * 2, 30000);
      }
    });
  }
  lastSaid = 0;
  apply(initial, true);
  follow();
}());
