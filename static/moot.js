// Moot's play pages, a little quicker: the pages work without this script.
//
// - A move is sent at once as a link of the position plus `play=…`; the page shows the move
//   and a waiting state ("The computer is thinking…") and ignores further clicks until the
//   next page arrives, so a double click sends one move and starts one search.
// - A step after which the same player acts again (a Hirþ step, `data-continues`) is not sent:
//   the page fetches the position after it, shows it in place, and keeps the steps; the move
//   that ends the turn sends the whole turn as ONE request (`play=step.step.end`). "Undo the
//   step" goes back one step without asking the server.
// - After a move the page opens at the status line (`#turn`) and the board has the focus.
(function () {
  "use strict";
  var form = document.getElementById("play");
  var game = document.getElementById("game");
  if (!form || !game) return;
  var section = game.parentNode;
  var field = "play";
  var separator = ".";
  // The position the page was loaded at; the composed steps are played from it.
  var base = new URLSearchParams(new FormData(form));
  base.delete(field);
  base.delete("undo");
  base.delete("hint");
  var steps = [];
  var earlier = []; // the page's content before each step, to undo it
  var busy = false;

  function sendHref(moves) {
    var query = new URLSearchParams(base);
    query.set(field, moves.join(separator));
    return form.getAttribute("action").split("#")[0] + "?" + query.toString() + "#turn";
  }

  function previewHref(moves) {
    var query = new URLSearchParams(base);
    var before = query.get("moves") || "";
    query.set("moves", before ? before + separator + moves.join(separator) : moves.join(separator));
    query.delete(field);
    return form.getAttribute("action").split("#")[0] + "?" + query.toString();
  }

  function status(words) {
    var line = document.getElementById("turn");
    if (!line) return;
    line.classList.add("waiting");
    line.textContent = words;
  }

  function wait(notation, target) {
    busy = true;
    document.body.classList.add("waiting");
    if (target) target.classList.add("chosen");
    var played = steps.concat([notation]).join(", ");
    status("You played " + played + ". " + (section.getAttribute("data-waiting") || ""));
    var buttons = document.querySelectorAll("button, input");
    for (var i = 0; i < buttons.length; i++) buttons[i].disabled = true;
  }

  function send(notation, target) {
    wait(notation, target);
    window.location.assign(sendHref(steps.concat([notation])));
  }

  // A step of the turn: the position after it, fetched and shown in place.
  function step(notation, target) {
    busy = true;
    if (target) target.classList.add("chosen");
    var moves = steps.concat([notation]);
    fetch(previewHref(moves), { headers: { Accept: "text/html" } })
      .then(function (answer) {
        if (!answer.ok) throw new Error("refused");
        return answer.text();
      })
      .then(function (html) {
        var page = new DOMParser().parseFromString(html, "text/html");
        var next = page.getElementById("game");
        if (!next) throw new Error("no game");
        earlier.push(game.innerHTML);
        steps = moves;
        game.innerHTML = next.innerHTML;
        busy = false;
        composed();
      })
      .catch(function () {
        // The server knows best: send the turn so far, and it explains.
        busy = false;
        send(notation, null);
      });
  }

  // The steps so far, above the controls, with a button to take the last one back.
  function composed() {
    var box = document.getElementById("composed");
    if (box) box.remove();
    markHint();
    // While a turn is composed, undo and the hint (for the page's position) give way to the
    // undo of a step.
    section.classList.toggle("composing", steps.length > 0);
    if (steps.length === 0) return;
    box = document.createElement("div");
    box.id = "composed";
    box.className = "composed";
    box.setAttribute("role", "status");
    var words = document.createElement("span");
    words.textContent = "Your turn so far: " + steps.join(", ") + " (sent when you end the turn)";
    var undo = document.createElement("button");
    undo.type = "button";
    undo.className = "secondary";
    undo.id = "undo-step";
    undo.textContent = "Undo the step";
    undo.addEventListener("click", function () {
      if (busy) return;
      steps = steps.slice(0, -1);
      game.innerHTML = earlier.pop();
      composed();
      focusBoard();
    });
    box.appendChild(words);
    box.appendChild(undo);
    var turn = document.getElementById("turn");
    turn.parentNode.insertBefore(box, turn.nextSibling);
    focusBoard();
  }

  function play(notation, continues, target) {
    if (busy) return;
    if (continues) step(notation, target);
    else send(notation, target);
  }

  function focusBoard() {
    var board = document.getElementById("board");
    if (board) board.focus({ preventScroll: true });
  }

  // The board's mark of the computer's hint.
  function markHint() {
    var board = document.getElementById("board");
    var target = board && board.getAttribute("data-hint");
    if (!target) return;
    var link = board.querySelector('a[href="' + target + '"]');
    if (link) link.classList.add("hinted");
  }

  // Clicks anywhere on the page: the board's targets and the move buttons. Listening on the
  // document keeps working after a step replaced the page's content.
  document.addEventListener("click", function (event) {
    var element = event.target.closest ? event.target.closest("a, button") : null;
    if (!element || !game.contains(element)) return;
    if (busy) {
      event.preventDefault();
      return;
    }
    var button = null;
    if (element.tagName.toLowerCase() === "a") {
      var href = element.getAttribute("href") || "";
      if (href.indexOf("#move-") !== 0) return;
      button = document.getElementById(href.slice(1));
    } else if (element.name === field && element.value) {
      button = element;
    } else if (element.name === "undo" || element.name === "hint") {
      if (steps.length > 0) {
        // The composed steps are not played yet: undo and hint are for the page's position.
        event.preventDefault();
        return;
      }
      busy = true;
      document.body.classList.add("waiting");
      return;
    }
    if (!button) return;
    event.preventDefault();
    play(button.value, button.hasAttribute("data-continues"), element);
  });

  // The typed move, sent with the composed steps before it.
  document.addEventListener("submit", function (event) {
    var typed = document.getElementById("notation");
    if (event.target.id !== "play" || (event.submitter && event.submitter.name)) return;
    if (!typed || !typed.value.trim() || busy) return;
    event.preventDefault();
    send(typed.value.trim(), null);
  });

  // Back to a page kept by the browser: it is usable again.
  window.addEventListener("pageshow", function (event) {
    if (event.persisted) window.location.reload();
  });

  markHint();
  // After a move: the board takes the focus once the browser has scrolled to the status line.
  if (window.location.hash === "#turn") {
    focusBoard();
    window.addEventListener("load", function () {
      window.setTimeout(focusBoard, 0);
    });
  }
})();
