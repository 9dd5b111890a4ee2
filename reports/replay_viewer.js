// The replay viewer's script (reports/replay_html.py inlines it). It reads the game from the
// page's JSON, rebuilds the board after every event from the recorded changes, and draws the
// current moment: tokens on the battlefield SVG, the combat arrow, the narration, the players.
(function () {
  "use strict";
  var D = JSON.parse(document.getElementById("replay-data").textContent);
  var EV = D.ev, N = D.log.length, P = D.players.length, FI = D.fighters, NF = FI.length;
  var SVGNS = "http://www.w3.org/2000/svg";
  var board = document.getElementById("board"), overlay = document.getElementById("overlay");
  var XY = D.board.xy, R = D.board.r;
  var byslot = {};
  FI.forEach(function (f, k) { byslot[f[0]] = k; });

  // ---------------------------------------------------------------- every moment of the game
  var fsp = new Int16Array(N * NF), fhp = new Int16Array(N * NF), fst = new Int16Array(N * NF);
  var deck = new Int16Array(N * P), handN = new Int16Array(N * P), ongoing = new Int16Array(N * P);
  var hands = new Array(N), discs = new Array(N), fogs = new Array(N), counters = new Array(N);
  var combat = new Array(N), turn = new Int32Array(N), active = new Int8Array(N);
  (function build() {
    var sp = new Int16Array(NF).fill(-1), hp = new Int16Array(NF), st = new Int16Array(NF);
    var k = new Array(P).fill(0), h = new Array(P).fill(0), H = new Array(P).fill(null), d = [], o = new Array(P).fill(-1);
    var g = [], n = [], c = 0, t = 0, p = 0, j, q;
    for (q = 0; q < P; q++) { d.push([]); g.push([-1, -1, -1]); n.push([]); }
    for (var i = 0; i < N; i++) {
      var fr = D.frames[i];
      if (fr.f) fr.f.forEach(function (x) { var m = byslot[x[0]]; sp[m] = x[1]; hp[m] = x[2]; st[m] = x[3]; });
      if (fr.k) fr.k.forEach(function (x) { k[x[0]] = x[1]; });
      if (fr.h) fr.h.forEach(function (x) { h[x[0]] = x[1]; });
      if (fr.H) { H = H.slice(); fr.H.forEach(function (x) { H[x[0]] = x[1]; }); }
      if (fr.d) { d = d.slice(); fr.d.forEach(function (x) { d[x[0]] = x[1] ? d[x[0]].concat(x[2]) : x[2]; }); }
      if (fr.o) fr.o.forEach(function (x) { o[x[0]] = x[1]; });
      if (fr.g) { g = g.slice(); fr.g.forEach(function (x) { g[x[0]] = x[1]; }); }
      if (fr.n) { n = n.slice(); fr.n.forEach(function (x) { n[x[0]] = x[1]; }); }
      if (fr.c !== undefined) c = fr.c;
      if (fr.t !== undefined) t = fr.t;
      if (fr.p !== undefined) p = fr.p;
      fsp.set(sp, i * NF); fhp.set(hp, i * NF); fst.set(st, i * NF);
      for (j = 0; j < P; j++) { deck[i * P + j] = k[j]; handN[i * P + j] = h[j]; ongoing[i * P + j] = o[j]; }
      hands[i] = H; discs[i] = d; fogs[i] = g; counters[i] = n; combat[i] = c; turn[i] = t; active[i] = p;
    }
  })();
  // the steps: every event the narration tells (reports.replay_html.page_events); the page numbers
  // them from 1 ("event N of M", #event=N); the turns: their EV_TURN steps
  var steps = [], turnSteps = [];
  for (var i = 0; i < N; i++) {
    if (D.lines[i]) { if (D.log[i][0] === EV.TURN) turnSteps.push(steps.length); steps.push(i); }
  }
  if (!steps.length) steps.push(N - 1);

  // ---------------------------------------------------------------- helpers
  function el(tag, attrs, parent, ns) {
    var e = ns ? document.createElementNS(SVGNS, tag) : document.createElement(tag);
    for (var a in attrs) if (attrs.hasOwnProperty(a)) e.setAttribute(a, attrs[a]);
    if (parent) parent.appendChild(e);
    return e;
  }
  function svg(tag, attrs, parent) { return el(tag, attrs, parent, true); }
  function text(tag, content, parent, cls) { var e = el(tag, cls ? {"class": cls} : {}, parent); e.textContent = content; return e; }
  function card(c) { return c >= 0 && D.cards[c] ? D.cards[c][0] : "no card"; }
  function space(s) { return s >= 0 ? D.spaces[s] : ""; }
  function fighterName(slot) { var k = byslot[slot]; return k === undefined ? "?" : FI[k][1]; }

  // ---------------------------------------------------------------- the board's layers
  var gTrail = svg("g", {"class": "trails"}, overlay), gFog = svg("g", {"class": "fog"}, overlay);
  var gTokens = svg("g", {"class": "tokens"}, overlay), gMarks = svg("g", {"class": "marks"}, overlay);
  var gCombat = svg("g", {"class": "combat"}, overlay);
  svg("path", {d: "M0,0 L10,5 L0,10 z", fill: "#e53e3e"},
      svg("marker", {id: "arrowhead", viewBox: "0 0 10 10", refX: "9", refY: "5", markerWidth: "5", markerHeight: "5",
                     orient: "auto-start-reverse"}, svg("defs", {}, overlay)));
  var tokens = FI.map(function (f) {
    var hero = f[4] === 1, rt = R * (hero ? 0.8 : 0.64), colour = D.players[f[3]].colour;
    var g = svg("g", {"class": "token" + (hero ? " hero" : ""), "data-fighter": f[0]}, gTokens);
    svg("circle", {r: rt, fill: colour, stroke: hero ? "#ffd54f" : "#ffffff", "stroke-width": hero ? R * 0.09 : R * 0.05}, g);
    var label = svg("text", {"class": "label", y: -rt * 0.22, "font-size": R * (hero ? 0.3 : 0.27)}, g);
    label.textContent = f[2];
    var hp = svg("text", {"class": "health", y: rt * 0.5, "font-size": R * (hero ? 0.5 : 0.42)}, g);
    svg("title", {}, g).textContent = f[1];
    return {g: g, rt: rt, label: label, hp: hp};
  });
  function fitLabels() {
    tokens.forEach(function (t) {
      var w = t.label.getComputedTextLength(), room = t.rt * 1.72;
      if (w > room) { t.label.setAttribute("textLength", room); t.label.setAttribute("lengthAdjust", "spacingAndGlyphs"); }
    });
  }

  // ---------------------------------------------------------------- the page's other parts
  document.getElementById("note").textContent = D.note || D.header;
  document.getElementById("result").textContent = D.lines[N - 1] + " " + D.footer;
  var narration = document.getElementById("narration"), items = [];
  steps.forEach(function (ev, k) {
    var li = el("li", {"data-event": k + 1}, narration);
    li.textContent = D.lines[ev].trim();
    if (D.log[ev][0] === EV.TURN) li.className = "turn";
    li.addEventListener("click", function () { go(k); });
    items.push(li);
  });
  var playersBox = document.getElementById("players");
  var panels = D.players.map(function (pl, p) {
    var box = el("div", {"class": "player", "data-player": p}, playersBox);
    box.style.borderColor = pl.colour;
    var h = el("h3", {}, box);
    el("span", {"class": "swatch"}, h).style.background = pl.colour;
    text("span", pl.name, h);
    text("small", " " + pl.label + (pl.loadout ? ", " + pl.loadout : ""), h);
    var fl = el("ul", {"class": "fighters"}, box), rows = {};
    FI.forEach(function (f, k) {
      if (f[3] !== p) return;
      var li = el("li", {}, fl);
      text("span", f[1], li, "fname");
      var bar = el("span", {"class": "bar"}, li), fill = el("span", {}, bar);
      fill.style.background = pl.colour;
      rows[k] = {li: li, fill: fill, val: text("span", "", li, "fval")};
    });
    var dl = el("dl", {}, box), dd = {};
    ["hand", "deck", "discard", "ongoing"].concat(pl.counters.map(function (c) { return c[0]; })).forEach(function (key) {
      text("dt", key, dl);
      dd[key] = el("dd", {"data-key": key}, dl);
    });
    return {box: box, rows: rows, dd: dd};
  });

  // ---------------------------------------------------------------- drawing one moment
  var pos = 0, timer = null;
  function tokenXY(k, i) { var s = fsp[i * NF + k]; return s >= 0 && fst[i * NF + k] === 1 ? XY[s] : null; }
  function clear(g) { while (g.firstChild) g.removeChild(g.firstChild); }
  function badge(x, y, label, cls) {
    var g = svg("g", {"class": "badge " + cls, transform: "translate(" + (x + R * 0.62) + "," + (y - R * 0.62) + ")"}, gMarks);
    svg("circle", {r: R * 0.36}, g);
    svg("text", {"font-size": R * 0.4, y: R * 0.14}, g).textContent = label;
  }
  function draw(i) {
    var e = D.log[i], kind = e[0];
    tokens.forEach(function (t, k) {
      var p = tokenXY(k, i), hp = fhp[i * NF + k];
      t.g.style.display = p ? "" : "none";
      if (p) t.g.setAttribute("transform", "translate(" + p[0] + "," + p[1] + ")");
      t.hp.textContent = hp;
      t.g.setAttribute("data-space", p ? space(fsp[i * NF + k]) : "");
      t.g.setAttribute("data-health", hp);
      t.g.classList.toggle("hit", (kind === EV.DAMAGE || kind === EV.RECOVER) && FI[k][0] === e[1]);
    });
    clear(gTrail); clear(gMarks); clear(gFog); clear(gCombat);
    if ((kind === EV.MOVE || kind === EV.PLACE) && e[2] >= 0 && e[3] >= 0) {
      var a = XY[e[2]], b = XY[e[3]];
      svg("line", {x1: a[0], y1: a[1], x2: b[0], y2: b[1], "class": "trail"}, gTrail);
      svg("circle", {cx: a[0], cy: a[1], r: R * 0.5, "class": "ghost"}, gTrail);
    }
    var k = byslot[e[1]];
    if ((kind === EV.DAMAGE || kind === EV.RECOVER) && k !== undefined) {
      var q = tokenXY(k, i) || (i > 0 ? tokenXY(k, i - 1) : null);
      if (q) badge(q[0], q[1], (kind === EV.DAMAGE ? "\u2212" : "+") + e[2], kind === EV.DAMAGE ? "damage" : "recover");
    }
    if (kind === EV.DEFEATED && k !== undefined && i > 0) {
      var s0 = fsp[(i - 1) * NF + k];
      if (s0 >= 0) {
        var x = XY[s0];
        var gd = svg("g", {"class": "defeated", transform: "translate(" + x[0] + "," + x[1] + ")"}, gMarks);
        svg("circle", {r: R * 0.7}, gd);
        svg("text", {"font-size": R * 0.28, y: R * 0.1}, gd).textContent = "defeated";
      }
    }
    fogs[i].forEach(function (spaces, p) {
      spaces.forEach(function (s) {
        if (s >= 0) svg("circle", {cx: XY[s][0] - R * 0.72, cy: XY[s][1] - R * 0.72, r: R * 0.3, "class": "fogtoken",
                                   stroke: D.players[p].colour}, gFog);
      });
    });
    var c = combat[i];
    if (c) {
      var ka = byslot[c[0]], kd = byslot[c[1]];
      var A = tokenXY(ka, i), B = tokenXY(kd, i);
      if (A && B) {
        var dx = B[0] - A[0], dy = B[1] - A[1], L = Math.sqrt(dx * dx + dy * dy) || 1, sh = R * 0.85;
        svg("line", {x1: A[0] + dx / L * sh, y1: A[1] + dy / L * sh, x2: B[0] - dx / L * sh, y2: B[1] - dy / L * sh,
                     "class": "attack", "marker-end": "url(#arrowhead)"}, gCombat);
        var av = c[5] >= 0 ? c[5] : (D.cards[c[2]] ? D.cards[c[2]][2] : "?");
        var dv = c[3] < 0 ? "" : " " + (c[6] >= 0 ? c[6] : (D.cards[c[3]] ? D.cards[c[3]][2] : "?"));
        // the fighters' full names, as the narration beside the board names them (the short ones are for tokens)
        var lines = [FI[ka][1] + ": " + card(c[2]) + " " + av + (c[4] >= 0 ? " + BOOST" : ""),
                     "vs " + FI[kd][1] + ": " + (c[3] >= 0 ? card(c[3]) + dv : c[8] ? "no defense" : "defense not chosen yet")];
        if (c[7] >= 0) lines.push(c[7] + " combat damage");
        // the label beside the arrow (on its upper side), kept inside the board
        var g = svg("g", {"class": "combat-label"}, gCombat);
        var rect = svg("rect", {}, g), fs = R * 0.3;
        lines.forEach(function (t, j) {
          svg("text", {y: (j - (lines.length - 1) / 2) * fs * 1.25 + fs * 0.35, "font-size": fs}, g).textContent = t;
        });
        var bb = g.getBBox(), w = bb.width + fs * 0.8, h = bb.height + fs * 0.5;
        rect.setAttribute("x", bb.x - fs * 0.4); rect.setAttribute("y", bb.y - fs * 0.25);
        rect.setAttribute("width", w); rect.setAttribute("height", h);
        rect.setAttribute("rx", fs * 0.3);
        // where it covers the fewest tokens: beside the arrow's middle on either side, farther out if need be
        var nx = -dy / L, ny = dx / L, best = null;
        var occupied = [];
        tokens.forEach(function (t, k2) { var q = tokenXY(k2, i); if (q) occupied.push(q); });
        [1.0, 1.9, 2.8, 3.7].forEach(function (far) {
          [1, -1].forEach(function (side) {
            var off = R * far + (Math.abs(nx) * w + Math.abs(ny) * h) / 2;
            var x0 = A[0] + dx / 2 + side * nx * off, y0 = A[1] + dy / 2 + side * ny * off;
            x0 = Math.max(w / 2 + 2, Math.min(D.board.width - w / 2 - 2, x0));
            y0 = Math.max(h / 2 + 2, Math.min(D.board.height - h / 2 - 2, y0));
            var cover = 0;
            occupied.forEach(function (q) {
              var ex = Math.max(0, Math.abs(q[0] - x0) - w / 2), ey = Math.max(0, Math.abs(q[1] - y0) - h / 2);
              if (ex * ex + ey * ey < R * R * 0.81) cover++;
            });
            var score = cover * 10 + far;
            if (best === null || score < best[0]) best = [score, x0, y0];
          });
        });
        var cx = best[1], cy = best[2];
        g.setAttribute("transform", "translate(" + cx + "," + cy + ")");
      }
    }
    // the players
    panels.forEach(function (pn, p) {
      pn.box.classList.toggle("active", active[i] === p);
      Object.keys(pn.rows).forEach(function (k) {
        var row = pn.rows[k], hp = fhp[i * NF + +k], st = fst[i * NF + +k], mx = FI[k][5];
        row.fill.style.width = Math.max(0, Math.min(100, 100 * hp / (mx || 1))) + "%";
        row.val.textContent = st === 2 ? "defeated" : st === 3 ? "off the board (" + hp + ")" : hp + " / " + mx;
        row.li.classList.toggle("out", st !== 1);
      });
      var hand = D.reveal && hands[i] && hands[i][p] ? hands[i][p].map(card).sort().join(", ") : "";
      pn.dd.hand.textContent = handN[i * P + p] + (hand ? ": " + hand : "");
      pn.dd.deck.textContent = deck[i * P + p];
      var dsc = discs[i][p];
      pn.dd.discard.textContent = dsc.length + (dsc.length ? ": " + dsc.slice().reverse().map(card).join(", ") : "");
      pn.dd.discard.title = "newest first";
      pn.dd.ongoing.textContent = ongoing[i * P + p] >= 0 ? card(ongoing[i * P + p]) : "none";
      D.players[p].counters.forEach(function (cn) {
        var v = counters[i][p] ? counters[i][p][cn[1]] : 0;
        pn.dd[cn[0]].textContent = cn[2][v] !== undefined ? cn[2][v] : v;
      });
    });
    document.getElementById("event-line").textContent = "Turn " + turn[i] + ": " + D.lines[i].trim();
    var ex = document.getElementById("explain");
    clear(ex);
    if (D.explain) {
      var from = pos > 0 ? steps[pos - 1] + 1 : 0, shown = 0;
      text("h2", "AI's candidates", ex);
      for (var j = from; j <= i; j++) {
        (D.explain[j] || []).forEach(function (r) {
          var div = el("div", {"class": "decision"}, ex);
          text("div", D.players[r[0]].name + " chooses " + r[1] + (r[2] ? " (" + r[2] + " samples, lookahead)" : "") + ":", div, "what");
          var ol = el("ol", {}, div);
          r[4].forEach(function (cd) {
            text("li", cd[0] + "  " + (cd[1] >= 0 ? "+" : "") + cd[1].toFixed(2) + (cd[2] !== null ? " \u00b1" + cd[2].toFixed(2) : ""), ol);
          });
          if (r[3] > r[4].length) text("div", "(+" + (r[3] - r[4].length) + " more options)", div, "more");
          shown++;
        });
      }
      if (!shown) text("p", "No AI decision before this event.", ex, "none");
    }
  }

  // ---------------------------------------------------------------- stepping
  var slider = document.getElementById("slider"), position = document.getElementById("position");
  slider.max = steps.length - 1;
  // show step k (from 0: the page's event k + 1)
  function go(k) {
    pos = Math.max(0, Math.min(steps.length - 1, k));
    var i = steps[pos];
    draw(i);
    slider.value = pos;
    position.textContent = "event " + (pos + 1) + " of " + steps.length + " \u00b7 turn " + turn[i] + " of " + D.turns;
    items.forEach(function (li) { li.classList.remove("current"); });
    items[pos].classList.add("current");
    var box = narration, li = items[pos];
    if (li.offsetTop < box.scrollTop || li.offsetTop + li.offsetHeight > box.scrollTop + box.clientHeight) {
      box.scrollTop = li.offsetTop - box.clientHeight / 3;
    }
    document.body.setAttribute("data-event", pos + 1);   // the event's number, as shown
    document.body.setAttribute("data-log", i);           // its position in the engine's log
    if (history.replaceState) history.replaceState(null, "", "#event=" + (pos + 1));
  }
  function turnStep(dir) {
    var k;
    if (dir > 0) { for (k = 0; k < turnSteps.length; k++) if (turnSteps[k] > pos) return go(turnSteps[k]); return go(steps.length - 1); }
    for (k = turnSteps.length - 1; k >= 0; k--) if (turnSteps[k] < pos) return go(turnSteps[k]);
    return go(0);
  }
  function play() {
    var b = document.getElementById("play");
    if (timer) { clearInterval(timer); timer = null; b.innerHTML = "\u25B6 play"; return; }
    if (pos >= steps.length - 1) go(0);
    b.innerHTML = "\u275A\u275A pause";
    timer = setInterval(function () { if (pos >= steps.length - 1) { play(); } else { go(pos + 1); } },
                        +document.getElementById("speed").value);
  }
  document.getElementById("first").onclick = function () { go(0); };
  document.getElementById("last").onclick = function () { go(steps.length - 1); };
  document.getElementById("prev").onclick = function () { go(pos - 1); };
  document.getElementById("next").onclick = function () { go(pos + 1); };
  document.getElementById("prev-turn").onclick = function () { turnStep(-1); };
  document.getElementById("next-turn").onclick = function () { turnStep(1); };
  document.getElementById("play").onclick = play;
  document.getElementById("speed").onchange = function () { if (timer) { play(); play(); } };
  slider.oninput = function () { go(+slider.value); };
  document.addEventListener("keydown", function (ev) {
    if (ev.target && ev.target.tagName === "SELECT") return;
    var keys = {ArrowRight: function () { go(pos + 1); }, ArrowLeft: function () { go(pos - 1); },
                PageDown: function () { turnStep(1); }, PageUp: function () { turnStep(-1); },
                Home: function () { go(0); }, End: function () { go(steps.length - 1); }, " ": play};
    if (keys[ev.key]) { ev.preventDefault(); keys[ev.key](); }
  });
  fitLabels();
  // #event=N opens event N (from 1, as the page counts); also when the address changes later
  function fromAddress() { var m = /event=(\d+)/.exec(location.hash); return m ? +m[1] - 1 : 0; }
  window.addEventListener("hashchange", function () { go(fromAddress()); });
  go(fromAddress());
  window.replayViewer = {go: go, steps: steps, turnSteps: turnSteps, events: N};
  window.viewerReadyMs = performance.now();
  document.body.setAttribute("data-ready", "1");
})();
