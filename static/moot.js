// Moot's pages, a little quicker: the pages work without this script.
//
// The options form: choices whose words name the first player's colour follow the choice of
// that colour on the form (Tara: "you move first (blue)" once Blue moves first).
(function () {
  "use strict";
  var colours = document.querySelector("form.options option[data-first]");
  if (!colours) return;
  var chooser = colours.parentNode;

  function name() {
    var chosen = chooser.options[chooser.selectedIndex];
    var colour = chosen ? chosen.getAttribute("data-first") : "";
    var follow = document.querySelectorAll("form.options option[data-words]");
    for (var i = 0; i < follow.length; i++) {
      follow[i].textContent = follow[i].getAttribute("data-words").replace("{}", colour);
    }
  }

  chooser.addEventListener("change", name);
  name();
})();

// The options form: when the computer moves first, its first move is searched before the
// game's page arrives; the form says so at once, and is sent once.
(function () {
  "use strict";
  var form = document.querySelector("form.options");
  if (!form) return;
  form.addEventListener("submit", function (event) {
    if (form.classList.contains("waiting")) {
      event.preventDefault();
      return;
    }
    form.classList.add("waiting");
    var computer = form.querySelector('select[name="computer"]');
    var words = computer && computer.value === "first" ? "The computer is thinking about its first move…" : "Starting the game…";
    var line = document.createElement("p");
    line.id = "starting";
    line.className = "status waiting";
    line.setAttribute("role", "status");
    line.textContent = words;
    var start = form.querySelector('button[type="submit"]');
    // Under the row of buttons that start a game.
    var row = start.closest("div.start") || start;
    row.parentNode.insertBefore(line, row.nextSibling);
    start.setAttribute("aria-disabled", "true");
    document.body.classList.add("waiting");
  });
})();

// The play pages:
//
// - A move is sent at once as a link of the position plus `play=…`; the page shows the move
//   and a waiting state ("The computer is thinking…") and ignores further clicks until the
//   next page arrives, so a double click sends one move and starts one search.
// - A step after which the same player acts again (a Hirþ step, `data-continues`) is not sent:
//   the page fetches the position after it, shows it in place, and keeps the steps; the move
//   that ends the turn sends the whole turn as ONE request (`play=step.step.end`). "Undo the
//   step" goes back one step without asking the server.
// - The player's own move is drawn on the board at once (a Herfor stone, a Tara king) while it
//   is sent, with what else it changes as the server wrote it on its button (flips, captures,
//   bridges).
// - The board is one tab stop: the arrow keys move between its points (a roving tabindex);
//   without the script every point is a tab stop of its own.
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
  // A table's seat posts its move (a link's page GETs the next position). Kept from the
  // loaded page: a composed step replaces the game's part, form included.
  var posts = form.method === "post";
  var action = form.getAttribute("action");
  var steps = [];
  var earlier = []; // the page's content before each step, to undo it
  var busy = false;

  function sendHref(moves) {
    var query = new URLSearchParams(base);
    query.set(field, moves.join(separator));
    return form.getAttribute("action").split("#")[0] + "?" + query.toString() + "#turn";
  }

  // The position after the composed steps: the page's own link with the steps added, or at a
  // kept table (whose form posts a move) the game page of the table's position.
  function previewHref(moves) {
    var steps = section.getAttribute("data-steps");
    var path = steps ? steps.split("?")[0] : form.getAttribute("action").split("#")[0];
    var query = steps ? new URLSearchParams(steps.split("?")[1] || "") : new URLSearchParams(base);
    var before = query.get("moves") || "";
    query.set("moves", before ? before + separator + moves.join(separator) : moves.join(separator));
    query.delete(field);
    return path + "?" + query.toString();
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
    drawAhead(target);
    var played = steps.concat([notation]).join(", ");
    var mover = section.getAttribute("data-mover") || "You";
    status(mover + " played " + played + ". " + (section.getAttribute("data-waiting") || ""));
    var buttons = document.querySelectorAll("button, input");
    for (var i = 0; i < buttons.length; i++) buttons[i].disabled = true;
  }

  function send(notation, target) {
    remember();
    wait(notation, target);
    var moves = steps.concat([notation]);
    if (!posts) {
      window.location.assign(sendHref(moves));
      return;
    }
    // The page's fields as it was loaded (the ply it showed) and the turn, in a form of its
    // own: the page's form may have been replaced by a step's.
    var post = document.createElement("form");
    post.method = "post";
    post.action = action;
    base.forEach(function (value, name) { post.appendChild(hidden(name, value)); });
    post.appendChild(hidden(field, moves.join(separator)));
    document.body.appendChild(post);
    post.submit();
  }

  function hidden(name, value) {
    var input = document.createElement("input");
    input.type = "hidden";
    input.name = name;
    input.value = value;
    return input;
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
        newGame();
        composed();
        if (window.mootSound) window.mootSound();
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
      newGame();
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

  // The board's point that takes the focus: the one the arrow keys last reached. A board
  // with nothing to take (the game over, the other side to act) leaves the focus where it is.
  function focusBoard() {
    var board = document.getElementById("board");
    if (!board) return;
    var current = board.querySelector('svg [tabindex="0"]');
    if (current) current.focus({ preventScroll: true });
  }

  // Whether the move being sent was played from the keyboard: the next page then gives the
  // board the focus, to play on from the keys. After a click or a tap it leaves the focus at
  // the status line, where the page opens, rather than ringing a point nobody chose.
  var KEYS = "moot-played-by-keys";
  var byKeys = false;
  document.addEventListener("keydown", function () { byKeys = true; }, true);
  document.addEventListener("pointerdown", function () { byKeys = false; }, true);
  function remember() {
    try {
      if (byKeys) window.sessionStorage.setItem(KEYS, "1");
      else window.sessionStorage.removeItem(KEYS);
    } catch (e) {
      // No storage (a private window's policy): the page opens at the status line.
    }
  }
  function playedByKeys() {
    try {
      var was = window.sessionStorage.getItem(KEYS) === "1";
      window.sessionStorage.removeItem(KEYS);
      return was;
    } catch (e) {
      return false;
    }
  }

  function boardButton(notation) {
    var board = document.getElementById("board");
    if (!board || !notation) return null;
    return board.querySelector('svg button[value="' + CSS.escape(notation) + '"]');
  }

  // The board's mark of the computer's hint.
  function markHint() {
    var board = document.getElementById("board");
    var button = boardButton(board && board.getAttribute("data-hint"));
    if (button) button.classList.add("hinted");
  }

  // The player's move drawn on the board at once: the stone a Herfor point's button places,
  // the king a Tara move puts on its hill (with its ringfort on a vacant hill) and lifts from
  // the hill it leaves. The drawing holds the piece, in the player's colour, hidden. What
  // else the move changes the server wrote on its button: the stones and ringforts that turn
  // to the other colour (`data-turns`), the kings it takes (`data-removes`), the bridges its
  // ringfort makes (`data-bridges`, and `data-their-bridges` for a ringfort it gives away).
  function drawAhead(target) {
    var board = document.getElementById("board");
    if (!target || !board || !board.contains(target)) return;
    spots(target, "data-turns").forEach(turn);
    spots(target, "data-removes").forEach(remove);
    spots(target, "data-bridges").forEach(function (pair) { bridge(pair, "#own-bridge"); });
    spots(target, "data-their-bridges").forEach(function (pair) { bridge(pair, "#their-bridge"); });
    drawPiece(target);
  }

  // A Tara bridge (`F4-F5`): the drawing's hidden bridge of that side (`#own-bridge`,
  // `#their-bridge`) laid between the two hills, under the hills as the drawing has them.
  function bridge(pair, side) {
    var board = document.getElementById("board");
    var ends = pair.split("-").map(hill);
    var drawn = board && board.querySelector(side + " line.bridge");
    var under = board && board.querySelector("svg line.last, svg g.hill");
    if (ends.length !== 2 || !ends[0] || !ends[1] || !drawn || !under) return;
    var a = ends[0].querySelector("circle");
    var b = ends[1].querySelector("circle");
    var line = drawn.cloneNode(true);
    line.setAttribute("x1", a.getAttribute("cx"));
    line.setAttribute("y1", a.getAttribute("cy"));
    line.setAttribute("x2", b.getAttribute("cx"));
    line.setAttribute("y2", b.getAttribute("cy"));
    line.setAttribute("data-bridge", pair);
    under.parentNode.insertBefore(line, under);
  }

  function spots(target, attribute) {
    var names = target.getAttribute(attribute);
    return names ? names.split(" ") : [];
  }

  // A Herfor stone turns to the player's colour (the colour of the stone they place); a Tara
  // ringfort to the other colour than it has, as the drawing holds both colours' forts.
  function turn(name) {
    var board = document.getElementById("board");
    if (!board) return;
    var stone = board.querySelector('g[data-point="' + CSS.escape(name) + '"] circle.stone');
    var own = document.getElementById("own-stone");
    if (stone && own) {
      stone.setAttribute("class", own.getAttribute("class"));
      stone.setAttribute("fill", own.getAttribute("fill"));
      return;
    }
    var place = hill(name);
    var fort = place && place.querySelector("g.fort");
    var ownFort = board.querySelector("#own-piece g.fort");
    var theirFort = board.querySelector("#their-fort g.fort");
    if (!fort || !ownFort || !theirFort) return;
    var fill = function (f) { return f.querySelector("circle.ringfort").getAttribute("fill"); };
    var turned = (fill(fort) === fill(ownFort) ? theirFort : ownFort).cloneNode(true);
    var centre = place.querySelector("circle");
    turned.setAttribute("transform", "translate(" + centre.getAttribute("cx") + " " + centre.getAttribute("cy") + ")");
    turned.setAttribute("visibility", "visible");
    fort.parentNode.replaceChild(turned, fort);
  }

  function remove(name) {
    var place = hill(name);
    var king = place && place.querySelector("g.crown");
    if (king) king.setAttribute("visibility", "hidden");
  }

  function drawPiece(target) {
    var board = document.getElementById("board");
    if (!target || !board || !board.contains(target)) return;
    var choices = target.closest("g.choices");
    if (choices) choices.classList.add("closed");
    var stone = document.getElementById("own-stone");
    var place = target.parentNode;
    if (stone && target.hasAttribute("data-point")) {
      var r = parseFloat(place.getAttribute("width")) / 2;
      stone.setAttribute("cx", parseFloat(place.getAttribute("x")) + r);
      stone.setAttribute("cy", parseFloat(place.getAttribute("y")) + r);
      stone.setAttribute("visibility", "visible");
    }
    var piece = document.getElementById("own-piece");
    var to = hill(target.getAttribute("data-to"));
    if (piece && to) {
      var centre = to.querySelector("circle");
      piece.setAttribute("transform", "translate(" + centre.getAttribute("cx") + " " + centre.getAttribute("cy") + ")");
      var fort = piece.querySelector("g.fort");
      if (fort && to.querySelector("circle.ringfort")) fort.setAttribute("visibility", "hidden");
      piece.setAttribute("visibility", "visible");
      var from = hill(target.getAttribute("data-from"));
      var king = from && from.querySelector("g.crown");
      if (king) king.setAttribute("opacity", "0.25");
    }
  }

  function hill(name) {
    var board = document.getElementById("board");
    return name && board ? board.querySelector('g.hill[data-hill="' + CSS.escape(name) + '"]') : null;
  }

  // A tap on the board that plays nothing says why, in the turn's bar (which stays on screen
  // on a phone): a spot with no move carries the engine's reason and its rule (`data-why`,
  // `data-rule`, `data-rule-words`), shown with a link to the rule. A tap on a king that can
  // move picks it: the hills its moves end on are marked and the others faded, until the
  // next tap. (The moves' buttons say where each piece comes from: the script knows no rules.)
  function say(words, rule, ruleWords) {
    var bar = document.getElementById("why");
    if (!bar) return;
    bar.textContent = words;
    if (rule) {
      var link = document.createElement("a");
      link.href = rule;
      link.textContent = ruleWords || rule;
      bar.appendChild(document.createTextNode(" "));
      bar.appendChild(link);
    }
  }
  function unsay() {
    var bar = document.getElementById("why");
    if (bar) bar.textContent = "";
  }
  function unpick(board) {
    board.classList.remove("picking");
    var marked = board.querySelectorAll("g.hill.reach, g.hill.picked");
    for (var i = 0; i < marked.length; i++) marked[i].classList.remove("reach", "picked");
  }
  function explain(board, target) {
    var spot = target.closest("g[data-point], g.hill[data-hill], g[data-why]");
    var again = spot && spot.classList.contains("picked");
    unpick(board);
    if (!spot || again) {
      unsay();
      return;
    }
    var name = spot.getAttribute("data-hill") || spot.getAttribute("data-point");
    var moves = name ? board.querySelectorAll('button[data-from="' + CSS.escape(name) + '"]') : [];
    var ends = [];
    for (var i = 0; i < moves.length; i++) {
      var to = moves[i].getAttribute("data-to");
      if (!to || ends.indexOf(to) >= 0) continue;
      ends.push(to);
      var end = hill(to);
      if (end) end.classList.add("reach");
    }
    if (ends.length > 0) {
      spot.classList.add("picked");
      board.classList.add("picking");
      say("The king on " + name + " can go to " + ends.join(", ") + ". Tap one, or the king again.");
      return;
    }
    var why = spot.getAttribute("data-why");
    if (why) {
      say(why, spot.getAttribute("data-rule"), spot.getAttribute("data-rule-words"));
      return;
    }
    var title = spot.querySelector("title");
    say((title ? title.textContent : name) + ". No move there.");
  }

  // The board as one tab stop (a roving tabindex): the arrow keys go to the nearest point in
  // their direction, Home and End to the first and last. An open choice keeps them in it.
  function targets() {
    var board = document.getElementById("board");
    if (!board) return [];
    var open = board.querySelector("g.choices:target:not(.closed)");
    var all = (open || board).querySelectorAll("svg button, svg a");
    var shown = [];
    for (var i = 0; i < all.length; i++) {
      if (all[i].getClientRects().length > 0 && (open || !all[i].closest("g.choices"))) shown.push(all[i]);
    }
    return shown;
  }

  function makeCurrent(element) {
    var board = document.getElementById("board");
    var all = board.querySelectorAll("svg button, svg a");
    for (var i = 0; i < all.length; i++) all[i].setAttribute("tabindex", all[i] === element ? "0" : "-1");
  }

  // On a phone a tall board (Hirþ's) shows in a window of its own (see moot.css): it takes
  // the rest of the first screen, at least 40% of it. Without the script it is half a screen.
  function fitWindow() {
    var board = document.getElementById("board");
    if (!board) return;
    board.style.removeProperty("--window");
    if (getComputedStyle(board).overflowY !== "auto") return;
    var top = board.getBoundingClientRect().top + window.scrollY;
    var rest = Math.max(window.innerHeight - top - 8, window.innerHeight * 0.4);
    board.style.setProperty("--window", Math.round(rest) + "px");
  }

  // Whenever the game's part of the page is new: the board's window and its tab stop.
  function newGame() {
    fitWindow();
    rove();
  }

  function rove() {
    var shown = targets();
    if (shown.length === 0) return;
    var hinted = boardButton(document.getElementById("board").getAttribute("data-hint"));
    makeCurrent(hinted && shown.indexOf(hinted) >= 0 ? hinted : shown[0]);
  }

  function centreOf(element) {
    var box = element.getBoundingClientRect();
    return { x: box.left + box.width / 2, y: box.top + box.height / 2 };
  }

  var DIRECTIONS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

  // The nearest point in a direction: the closest of those within 60° of it (on Herfor's
  // triangles the neighbours above lie at 60°, nearer than the point straight above two rows
  // up), else the nearest ahead with the distance off the line counting double.
  function nearest(from, shown, direction) {
    var here = centreOf(from);
    var best = null;
    var bestScore = Infinity;
    var inCone = false;
    for (var i = 0; i < shown.length; i++) {
      if (shown[i] === from) continue;
      var there = centreOf(shown[i]);
      var dx = there.x - here.x;
      var dy = there.y - here.y;
      var ahead = dx * direction[0] + dy * direction[1];
      if (ahead <= 1) continue;
      var aside = Math.abs(dx * direction[1] - dy * direction[0]);
      var cone = aside <= ahead * 1.75;
      if (inCone && !cone) continue;
      // Within the cone, the nearest; a hair's preference for the straighter of two as near.
      var score = cone ? Math.sqrt(ahead * ahead + aside * aside) + 0.01 * aside : ahead + 2 * aside;
      if ((cone && !inCone) || score < bestScore) {
        bestScore = score;
        best = shown[i];
        inCone = inCone || cone;
      }
    }
    return best;
  }

  document.addEventListener("keydown", function (event) {
    var board = document.getElementById("board");
    if (!board || !board.contains(event.target) || event.target === board) return;
    var shown = targets();
    var next = null;
    if (DIRECTIONS[event.key]) next = nearest(event.target, shown, DIRECTIONS[event.key]);
    else if (event.key === "Home") next = shown[0];
    else if (event.key === "End") next = shown[shown.length - 1];
    else return;
    event.preventDefault();
    if (!next) return;
    makeCurrent(next);
    next.focus();
  });

  document.addEventListener("focusin", function (event) {
    var board = document.getElementById("board");
    if (board && board.contains(event.target) && event.target !== board) makeCurrent(event.target);
  });

  // A choice opened, or closed by its way back: the keys go into it, or back to the board.
  // (The skip link's #board only moves the keyboard's start: the next Tab reaches the board.)
  window.addEventListener("hashchange", function (event) {
    var closed = event.oldURL.indexOf("#choose-") >= 0 && window.location.hash === "#board";
    if (window.location.hash.indexOf("#choose-") === 0 || closed) {
      var shown = targets();
      if (shown.length === 0) return;
      makeCurrent(shown[0]);
      shown[0].focus({ preventScroll: true });
    }
  });

  // Clicks anywhere on the page: the board's targets and the move buttons. Listening on the
  // document keeps working after a step replaced the page's content.
  document.addEventListener("click", function (event) {
    var element = event.target.closest ? event.target.closest("a, button") : null;
    var board = document.getElementById("board");
    if (!element && board && board.contains(event.target) && !busy) {
      explain(board, event.target);
      return;
    }
    if (!element || !game.contains(element)) return;
    if (busy) {
      event.preventDefault();
      return;
    }
    // A link on the board opens a choice of moves: the browser shows it.
    if (element.tagName.toLowerCase() === "a") return;
    var button = null;
    if (element.name === field && element.value) {
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
    // A board's button is a step when the move's button in the list says so.
    var listed = document.querySelector('details.actions button[value="' + CSS.escape(button.value) + '"]');
    var continues = button.hasAttribute("data-continues") || (listed && listed.hasAttribute("data-continues"));
    play(button.value, continues, element);
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
  newGame();
  window.addEventListener("resize", fitWindow);
  // After a move played from the keyboard: the board takes the focus once the browser has
  // scrolled to the status line. After a click or a tap the page opens at the status line
  // with the focus nowhere in particular.
  if (window.location.hash === "#turn" && playedByKeys()) {
    focusBoard();
    window.addEventListener("load", function () {
      window.setTimeout(focusBoard, 0);
    });
  }
})();

// A new table's page: the friend's link gets a Share button where the browser has a share
// sheet (`navigator.share`, a phone's), a Copy button elsewhere; the other links a Copy
// button. Without the script the buttons stay hidden and the fields show the whole links, to
// select. A field selects its whole link when it takes the focus.
(function () {
  "use strict";
  var canShare = typeof navigator.share === "function";
  var canCopy = !!(navigator.clipboard && navigator.clipboard.writeText);
  var fields = document.querySelectorAll("textarea.link");
  for (var f = 0; f < fields.length; f++) {
    fields[f].addEventListener("focus", function (event) { event.target.select(); });
  }
  var buttons = document.querySelectorAll("button[data-share], button[data-copy]");
  for (var i = 0; i < buttons.length; i++) {
    (function (button) {
      var sharing = button.hasAttribute("data-share");
      var id = button.getAttribute(sharing ? "data-share" : "data-copy");
      var field = document.getElementById(id);
      if (!field) return;
      if (sharing) {
        button.hidden = !canShare;
        if (!canShare) return;
        button.addEventListener("click", function () {
          navigator.share({ text: button.getAttribute("data-text") || "", url: field.value }).catch(function () {
            // Closed without sharing: the link is still there to copy or select.
          });
        });
        return;
      }
      // Where the link has a Share button, Share takes Copy's place.
      var shared = canShare && document.querySelector('button[data-share="' + CSS.escape(id) + '"]');
      button.hidden = !canCopy || !!shared;
      if (button.hidden) return;
      button.addEventListener("click", function () {
        navigator.clipboard.writeText(field.value).then(
          function () { button.textContent = button.getAttribute("data-copied") || button.textContent; },
          function () { field.focus(); field.select(); }
        );
      });
    })(buttons[i]);
  }
})();

// A kept table's page follows the table: when its event stream (server-sent events) tells of
// a change the page does not show (the opponent's move, a resignation, the table closed as
// abandoned), the page is loaded again, and opens at the status line. The reload link, for a
// seat waiting for its opponent, shows only while live updates are not following the table
// (without the script it stays).
(function () {
  "use strict";
  var FOLLOWED = "moot-followed";
  var seats = document.querySelector("[data-events][data-reload]");
  var notice = document.querySelector("div.table-seats a.reload");

  // After a reload of its own the page opens at the status line, not at its top.
  function land() {
    var line = document.getElementById("turn");
    if (line) line.scrollIntoView({ block: "start" });
  }
  try {
    if (window.sessionStorage.getItem(FOLLOWED) === "1") {
      window.sessionStorage.removeItem(FOLLOWED);
      // The move sound's cue: the page shows the opponent's move.
      document.documentElement.setAttribute("data-followed", "");
      if ("scrollRestoration" in window.history) window.history.scrollRestoration = "manual";
      land();
      window.addEventListener("load", land);
    }
  } catch (e) {
    // No storage: the page opens at its top.
  }

  if (!seats || !window.EventSource) return;
  var shown = seats.getAttribute("data-seq");
  var leaving = false;
  // A move or a resignation of this page is on its way: its answer is the next page.
  document.addEventListener("submit", function () { leaving = true; }, true);
  var source = new EventSource(seats.getAttribute("data-events"));
  // Where the page's last part finds it (see there).
  (window.mootStreams = window.mootStreams || []).push(source);
  if (notice) notice.hidden = true;
  source.addEventListener("open", function () { if (notice) notice.hidden = true; });
  // Live updates lost (the browser keeps trying): the link is the way to see a move.
  source.addEventListener("error", function () { if (notice) notice.hidden = false; });
  function follow() {
    source.close();
    if (leaving || document.body.classList.contains("waiting")) return;
    try {
      window.sessionStorage.setItem(FOLLOWED, "1");
    } catch (e) {
      // No storage: the page opens at its top.
    }
    window.location.replace(seats.getAttribute("data-reload"));
  }
  function changed(event) {
    if (event.lastEventId !== shown) follow();
  }
  ["table", "reset", "move", "resign", "claim", "abandoned", "aborted", "takeback"].forEach(function (type) {
    source.addEventListener(type, changed);
  });
  // A takeback asked for or declined, a vacation started or ended: a notice of the change
  // shown, which the page shows anew.
  ["takeback_asked", "takeback_declined", "vacation_started", "vacation_ended"].forEach(function (type) {
    source.addEventListener(type, follow);
  });
  window.addEventListener("pagehide", function () { source.close(); });
  window.mootFollow = follow;
})();

// A table's clock counts down: the time left in the words the server wrote it in, from the
// time left when the page was made (the viewer's clock may be wrong, its pace is not), and the
// deadline in the viewer's own time. When the time runs out on a table's page, the page is
// loaded again: the waiting seat may then claim the win. "Your games" has a clock per table,
// each counted down the same way (again after its list is read anew: `mootClocks`).
(function () {
  "use strict";
  var timers = [];

  function words(ms) {
    if (ms <= 0) return "no time left";
    var s = Math.ceil(ms / 1000);
    var d = Math.floor(s / 86400), h = Math.floor(s / 3600) % 24, m = Math.floor(s / 60) % 60;
    if (d > 0) return d + " d " + h + " h left";
    if (h > 0) return h + " h " + m + " min left";
    if (m > 0) return m + " min " + (s % 60) + " s left";
    return s + " s left";
  }

  function count(left) {
    var deadline = left.parentNode.querySelector("time[datetime]");
    var due = deadline ? new Date(deadline.getAttribute("datetime")) : null;
    if (due && !isNaN(due.getTime())) {
      deadline.textContent = due.toLocaleString([], {
        weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit"
      });
      deadline.title = deadline.getAttribute("datetime");
    }
    var atLoad = parseInt(left.getAttribute("data-left"), 10);
    var loaded = Date.now();
    if (isNaN(atLoad)) return;
    var timer = window.setInterval(function () {
      var ms = atLoad - (Date.now() - loaded);
      var text = words(ms);
      if (left.textContent !== text) left.textContent = text;
      if (ms <= 0 && atLoad > 0) {
        window.clearInterval(timer);
        if (window.mootFollow) window.mootFollow();
      }
    }, 1000);
    timers.push(timer);
  }

  function clocks() {
    timers.forEach(window.clearInterval);
    timers = [];
    var all = document.querySelectorAll("p.clock .countdown[data-left]");
    for (var i = 0; i < all.length; i++) count(all[i]);
  }

  clocks();
  window.mootClocks = clocks;
})();

// The game's moves from the keyboard: Left and Right go a turn back and a turn on (while
// looking back), as the steps' links do. Not in a form's field, nor on the board, whose arrow
// keys go between its points; nor with a modifier (Alt+Left is the browser's Back). Home and
// End keep scrolling the page.
(function () {
  "use strict";
  var section = document.querySelector("section.play");
  if (!section) return;
  var KEYS = { ArrowLeft: "data-previous", ArrowRight: "data-next" };
  document.addEventListener("keydown", function (event) {
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    var target = event.target;
    if (target.closest && target.closest("input, select, textarea, [contenteditable], #board")) return;
    var href = KEYS[event.key] && section.getAttribute(KEYS[event.key]);
    if (!href || document.body.classList.contains("waiting")) return;
    event.preventDefault();
    // The page opens at the game's part, its status line first, which says which move it
    // shows (not at `#turn`, where a move's page opens and sounds).
    window.location.assign(href.split("#")[0] + "#game");
  });
})();

// A move's sound, off unless turned on (and remembered in this browser): a short click the
// browser makes (WebAudio, no file), when the page opens on a move (the player's, the
// computer's answer, the opponent's at a table) or a step of a turn is shown. Browsers let a
// page sound only after a gesture on it, or on the page before: until then it stays quiet.
// For the tests, the page's root says whether it made an AudioContext (`data-audio`, its
// state) and how many clicks sounded (`data-sounds`).
(function () {
  "use strict";
  var button = document.getElementById("sound");
  var Context = window.AudioContext || window.webkitAudioContext;
  if (!button || !Context) return;
  var KEY = "moot-sound";
  var root = document.documentElement;
  var on = false;
  try {
    on = window.localStorage.getItem(KEY) === "on";
  } catch (e) {
    // No storage: off, and not remembered.
  }
  var context = null;

  function show() {
    button.setAttribute("aria-pressed", on ? "true" : "false");
  }

  function sound() {
    if (!on) return;
    if (!context) context = new Context();
    root.setAttribute("data-audio", context.state);
    if (context.state !== "running") {
      // Quiet until the browser lets the page sound: a later gesture wakes it for next time.
      context.resume().then(function () { root.setAttribute("data-audio", context.state); }, function () {});
      return;
    }
    var t = context.currentTime;
    var tone = context.createOscillator();
    var gain = context.createGain();
    tone.type = "triangle";
    tone.frequency.setValueAtTime(1200, t);
    tone.frequency.exponentialRampToValueAtTime(400, t + 0.04);
    gain.gain.setValueAtTime(0.25, t);
    gain.gain.exponentialRampToValueAtTime(0.001, t + 0.06);
    tone.connect(gain);
    gain.connect(context.destination);
    tone.start(t);
    tone.stop(t + 0.07);
    root.setAttribute("data-sounds", String(Number(root.getAttribute("data-sounds") || 0) + 1));
  }

  button.hidden = false;
  show();
  button.addEventListener("click", function () {
    on = !on;
    try {
      window.localStorage.setItem(KEY, on ? "on" : "off");
    } catch (e) {
      // Not remembered: on for this page only.
    }
    show();
    // Turned on: a click to hear it (the button's press lets the page sound).
    sound();
  });
  document.addEventListener("pointerdown", function () {
    if (context && context.state === "suspended") context.resume();
  }, true);
  window.mootSound = sound;
  if (window.location.hash === "#turn" || root.hasAttribute("data-followed")) sound();
})();

// "Your games", live: on the list and on the browser's own seat pages (`/table/{id}/mine`),
// the page follows the browser's player's feed (`/your-games/events`, opened by the cookie)
// and, at each change, reads "Your games" again for the header's count and the list. While a
// game awaits the player's move, the tab's icon carries a dot (drawn on a canvas from the
// icon). For the tests, the root says whether the dot is drawn (`data-badge`).
(function () {
  "use strict";
  var link = document.querySelector("a.your-games-link[data-count]");
  if (!link || !window.EventSource) return;
  var list = document.getElementById("your-games-list");
  var mine = /^\/table\/[^/]+\/mine$/.test(window.location.pathname);
  var challenge = (window.location.pathname.match(/^\/challenges\/([0-9a-f]+)$/) || [])[1];
  var root = document.documentElement;
  var icon = document.querySelector('link[rel="icon"]');
  var plain = icon ? icon.getAttribute("href") : "/favicon.ico";
  var badged = null;

  function drawBadge(done) {
    var image = new Image();
    image.onload = function () {
      var size = 32;
      var canvas = document.createElement("canvas");
      canvas.width = size;
      canvas.height = size;
      var context = canvas.getContext("2d");
      if (!context) return;
      context.drawImage(image, 0, 0, size, size);
      context.beginPath();
      context.arc(size * 0.75, size * 0.25, size * 0.22, 0, 2 * Math.PI);
      context.fillStyle = "#c0392b";
      context.fill();
      context.lineWidth = 2;
      context.strokeStyle = "#ffffff";
      context.stroke();
      try {
        badged = canvas.toDataURL("image/png");
      } catch (e) {
        return;
      }
      done();
    };
    image.src = plain;
  }

  function badge(on) {
    if (!icon) return;
    if (!on) {
      icon.setAttribute("href", plain);
      root.setAttribute("data-badge", "off");
      return;
    }
    var show = function () {
      icon.setAttribute("href", badged);
      root.setAttribute("data-badge", "on");
    };
    if (badged) show(); else drawBadge(show);
  }

  function count(link) {
    return parseInt(link.getAttribute("data-count"), 10) || 0;
  }

  function refresh() {
    window.fetch("/your-games", { credentials: "same-origin", headers: { Accept: "text/html" } })
      .then(function (answer) { return answer.ok ? answer.text() : Promise.reject(answer.status); })
      .then(function (html) {
        var fresh = new DOMParser().parseFromString(html, "text/html");
        var freshLink = fresh.querySelector("a.your-games-link[data-count]");
        if (freshLink) {
          link.textContent = freshLink.textContent;
          link.setAttribute("aria-label", freshLink.getAttribute("aria-label") || freshLink.textContent);
          link.setAttribute("data-count", freshLink.getAttribute("data-count"));
        }
        var freshList = fresh.getElementById("your-games-list");
        if (list && freshList) {
          list.innerHTML = freshList.innerHTML;
          if (window.mootClocks) window.mootClocks();
        }
        badge(count(link) > 0);
      }, function () {
        // Not read now: the next change reads it again.
      });
  }

  badge(count(link) > 0);
  if (!list && !mine && !challenge) return;
  var source = new EventSource("/your-games/events");
  // Where the page's last part finds it (see there).
  (window.mootStreams = window.mootStreams || []).push(source);
  ["reset", "move", "resign", "claim", "abandoned", "aborted", "takeback", "your_turn", "table_started", "table_finished", "deadline_passed"].forEach(function (type) {
    source.addEventListener(type, refresh);
  });
  // A challenge answered (accepted: its page sends its creator on to the seat; declined): its
  // page shows it.
  if (challenge) {
    ["challenge_accepted", "challenge_declined"].forEach(function (type) {
      source.addEventListener(type, function (event) {
        var told;
        try { told = JSON.parse(event.data); } catch (e) { return; }
        if (told.challenge_id === challenge) window.location.reload();
      });
    });
  }
  // A finished table's rematch, offered or answered by the other seat: this seat's page shows
  // it (an accepted one opens the rematch's page). A takeback comes by the table's own events.
  if (mine) {
    var table = window.location.pathname.split("/")[2];
    // A form of this page is on its way (this seat's own offer or answer): its answer is the
    // next page, which a reload here would cancel.
    var leaving = false;
    document.addEventListener("submit", function () { leaving = true; }, true);
    ["rematch_offered", "rematch_declined", "rematch_accepted"].forEach(function (type) {
      source.addEventListener(type, function (event) {
        if (leaving) return;
        var told;
        try { told = JSON.parse(event.data); } catch (e) { return; }
        if (told.table_id !== table) return;
        // The same page again: a fragment alone would only scroll.
        if (told.rematch_id) window.location.replace("/table/" + told.rematch_id + "/mine#turn");
        else window.location.reload();
      });
    });
  }
  window.addEventListener("pagehide", function () { source.close(); });
})();

// "Turn on notifications" (Web Push): the server renders the control hidden, and it is shown
// only where this browser can push (a service worker, the Push API, notifications). Turning
// them on asks the browser's permission, registers Moot's service worker (`/push-worker.js`,
// the whole site its scope), subscribes at the browser's push service with the server's key,
// and sends the subscription to the server for the cookie's player; turning them off tells
// the server, then the browser. Each state's words are the control's attributes. For the
// tests, the control says its state (`data-state`: on, off, blocked, failed).
(function () {
  "use strict";
  var section = document.getElementById("notifications");
  var button = document.getElementById("notify");
  var status = document.getElementById("notify-status");
  if (!section || !button || !status) return;
  if (!("serviceWorker" in navigator) || !window.PushManager || !window.Notification) return;
  var WORKER = "/push-worker.js";
  var ROUTE = "/your-games/notifications";
  // The browser's subscription while notifications are on.
  var subscription = null;
  var busy = false;

  function words(name) {
    return section.getAttribute("data-" + name) || "";
  }

  // `on` chooses the button's words; `state` and `said` the status.
  function show(on, state, said) {
    button.textContent = words(on ? "turn-off" : "turn-on");
    section.setAttribute("data-state", state);
    status.textContent = said === undefined ? words(state) : said;
  }

  // A step's failure, named for the status line (with the server's reason when it gave one).
  function failure(step, reason) {
    return { step: step, reason: reason || "" };
  }
  function at(step, promise) {
    return promise.then(null, function (error) {
      throw error && error.step ? error : failure(step);
    });
  }

  // The server's problem's reason (`detail`), or none.
  function refusal(step, answer) {
    return answer.json().then(
      function (problem) { throw failure(step, problem && problem.detail); },
      function () { throw failure(step); }
    );
  }

  // The server's key, base64url, as the bytes `applicationServerKey` takes.
  function bytes(base64url) {
    var text = base64url.replace(/-/g, "+").replace(/_/g, "/");
    while (text.length % 4) text += "=";
    var raw = window.atob(text);
    var out = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
    return out;
  }

  function turnOn() {
    return Notification.requestPermission().then(function (permission) {
      if (permission === "denied") throw { state: "blocked" };
      if (permission !== "granted") throw { state: "off", said: words("dismissed") };
      return at("worker", navigator.serviceWorker.register(WORKER, { scope: "/" }).then(function () {
        return navigator.serviceWorker.ready;
      }));
    }).then(function (registration) {
      return at("key", window.fetch("/api/v1/push/key").then(function (answer) {
        return answer.ok ? answer.json() : Promise.reject(answer.status);
      })).then(function (key) {
        return at("subscribe", registration.pushManager.subscribe({
          userVisibleOnly: true,
          applicationServerKey: bytes(key.public_key)
        }));
      });
    }).then(function (made) {
      return at("keep", window.fetch(ROUTE, {
        method: "POST",
        credentials: "same-origin",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(made)
      }).then(function (answer) {
        if (!answer.ok) return refusal("keep", answer);
      })).then(function () {
        subscription = made;
        show(true, "on");
      }, function (error) {
        // Not kept: the browser's subscription would push nothing.
        return Promise.resolve(made.unsubscribe()).then(null, function () {}).then(function () {
          throw error;
        });
      });
    });
  }

  function turnOff() {
    var held = subscription;
    var endpoint = ROUTE + "?endpoint=" + encodeURIComponent(held.endpoint);
    return at("forget", window.fetch(endpoint, { method: "DELETE", credentials: "same-origin" })
      .then(function (answer) {
        // 404: the server had forgotten it already (its push service dropped it).
        if (!answer.ok && answer.status !== 404) return refusal("forget", answer);
      })).then(function () {
        return Promise.resolve(held.unsubscribe()).then(null, function () {});
      }).then(function () {
        subscription = null;
        show(false, "off");
      });
  }

  button.addEventListener("click", function () {
    if (busy) return;
    busy = true;
    var on = subscription !== null;
    button.setAttribute("aria-disabled", "true");
    status.textContent = words("working");
    (on ? turnOff() : turnOn()).then(null, function (error) {
      if (error && error.state) {
        show(false, error.state, error.said);
      } else {
        var step = error && error.step ? error.step : on ? "forget" : "keep";
        var said = words("failed-" + step);
        show(on, "failed", error && error.reason ? said + " (" + error.reason + ")" : said);
      }
    }).then(function () {
      busy = false;
      button.removeAttribute("aria-disabled");
    });
  });

  // The state as this browser keeps it: blocked, or subscribed through Moot's worker, or off.
  if (Notification.permission === "denied") {
    show(false, "blocked");
    section.hidden = false;
    return;
  }
  navigator.serviceWorker.getRegistration("/").then(function (registration) {
    return registration ? registration.pushManager.getSubscription() : null;
  }).then(function (held) {
    subscription = held && Notification.permission === "granted" ? held : null;
    show(subscription !== null, subscription ? "on" : "off");
  }, function () {
    show(false, "off");
  }).then(function () {
    section.hidden = false;
  });
})();

// The page is ready: this script has run to its end (a part that failed would have stopped it
// before here), the page has loaded and its load handlers have run (where it lands, the board's
// focus), and each event stream it follows has answered, open or refused. The root says so
// (`data-script="ready"`) for the tests, which wait for it rather than guess; nothing else
// depends on it. The streams are those the parts above kept in `window.mootStreams`.
(function () {
  "use strict";
  var root = document.documentElement;

  function answered(source) {
    return new Promise(function (done) {
      if (source.readyState !== EventSource.CONNECTING) return done();
      source.addEventListener("open", done);
      source.addEventListener("error", done);
    });
  }

  function ready() {
    // After the other load handlers' own zero-delay steps (the board's focus).
    window.setTimeout(function () {
      Promise.all((window.mootStreams || []).map(answered)).then(function () {
        root.setAttribute("data-script", "ready");
      });
    }, 0);
  }

  if (document.readyState === "complete") ready();
  else window.addEventListener("load", ready);
})();
