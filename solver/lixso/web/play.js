// Lixso play page: the rules a person's grid is checked by, the hint order, and the page itself.
// Plain JavaScript, no library; inlined into the page by solver/lixso/web/page.py. The logic
// half (no DOM) is exported for node's test runner: tests/js/play.test.js.
"use strict";
(function () {
  const COLOURS = "IXSO";
  const EMPTY = ".";

  function cellName(i, width) {
    return "r" + (Math.floor(i / width) + 1) + "c" + ((i % width) + 1);
  }

  // The page's answers are JSON, XORed with the puzzle's key and written in base64
  // (solver/lixso/web/page.py: scramble): hidden from a glance at the source, no more.
  function unscramble(text, keyText) {
    const data = bytesOf(text);
    const key = bytesOf(keyText);
    for (let n = 0; n < data.length; n++) data[n] ^= key[n % key.length];
    return JSON.parse(new TextDecoder("utf-8").decode(data));
  }

  function bytesOf(base64) {
    const binary = atob(base64);
    const bytes = new Uint8Array(binary.length);
    for (let n = 0; n < binary.length; n++) bytes[n] = binary.charCodeAt(n);
    return bytes;
  }

  // Same-coloured cells connected through sides and corners: in a solution each such group
  // is exactly one tile, since tiles of one colour never touch (seeds/lixso.md).
  function colourGroups(cells, height, width) {
    const seen = new Array(cells.length).fill(false);
    const groups = [];
    for (let start = 0; start < cells.length; start++) {
      if (seen[start] || cells[start] === EMPTY) continue;
      const colour = cells[start];
      const group = [];
      const stack = [start];
      seen[start] = true;
      while (stack.length) {
        const i = stack.pop();
        group.push(i);
        const r = Math.floor(i / width), c = i % width;
        for (let dr = -1; dr <= 1; dr++) {
          for (let dc = -1; dc <= 1; dc++) {
            const rr = r + dr, cc = c + dc;
            if (rr < 0 || rr >= height || cc < 0 || cc >= width) continue;
            const j = rr * width + cc;
            if (!seen[j] && cells[j] === colour) {
              seen[j] = true;
              stack.push(j);
            }
          }
        }
      }
      group.sort((a, b) => a - b);
      groups.push({ colour: colour, cells: group });
    }
    return groups;
  }

  // Three cells filling three quarters of a 2x2 block.
  function isL(group, width) {
    if (group.length !== 3) return false;
    const rows = group.map((i) => Math.floor(i / width));
    const cols = group.map((i) => i % width);
    return Math.max(...rows) - Math.min(...rows) === 1 && Math.max(...cols) - Math.min(...cols) === 1;
  }

  // The tiles to outline: every group of three cells of one colour forming an L.
  function tiles(cells, height, width) {
    return colourGroups(cells, height, width).filter((g) => isL(g.cells, width));
  }

  // Cells the person coloured that the solution colours otherwise.
  function wrongCells(cells, solution) {
    const flat = solution.join("");
    const wrong = [];
    cells.forEach((v, i) => {
      if (v !== EMPTY && v !== flat[i]) wrong.push(i);
    });
    return wrong;
  }

  // What the rules say against a grid without looking at any answer: a group of one colour
  // too big or of the wrong shape, a colour used for more tiles than its supply, and once
  // every cell is coloured, groups too small to be a tile.
  function ruleProblems(cells, height, width, perColour) {
    const problems = [];
    const full = cells.every((v) => v !== EMPTY);
    const count = {};
    for (const g of colourGroups(cells, height, width)) {
      const names = g.cells.map((i) => cellName(i, width)).join(" ");
      if (g.cells.length > 3) {
        problems.push({ cells: g.cells, words: names + ": more than three " + g.colour + " cells touch, but tiles of one colour never touch" });
      } else if (g.cells.length === 3 && !isL(g.cells, width)) {
        problems.push({ cells: g.cells, words: names + ": three " + g.colour + " cells that are not an L" });
      } else if (g.cells.length < 3 && full) {
        problems.push({ cells: g.cells, words: names + ": " + g.colour + " cells that are not a whole tile" });
      } else if (g.cells.length === 3) {
        count[g.colour] = (count[g.colour] || 0) + 1;
      }
    }
    for (const colour of COLOURS) {
      if ((count[colour] || 0) > perColour) {
        const all = [];
        cells.forEach((v, i) => { if (v === colour) all.push(i); });
        problems.push({ cells: all, words: (count[colour]) + " " + colour + " tiles, but the supply is " + perColour });
      }
    }
    return problems;
  }

  function solved(cells, height, width, perColour, solution) {
    if (cells.some((v) => v === EMPTY)) return false;
    if (solution) return wrongCells(cells, solution).length === 0;
    return ruleProblems(cells, height, width, perColour).length === 0;
  }

  // Whether a hint step is already on the person's grid: its cells have its colour (a fact
  // "is"), or its cells are all coloured or the step was shown (a fact "is not", which the
  // grid cannot hold).
  function stepDone(step, cells, width, shown) {
    const where = step.target.cells.map(([r, c]) => (r - 1) * width + (c - 1));
    if (step.target.value) return where.every((i) => cells[i] === step.target.colour);
    return shown.has(step.index) || where.every((i) => cells[i] !== EMPTY);
  }

  // The next hint for the person's grid: wrong cells first; else the first step (in the
  // engine's order) not yet on the grid. Every step before it is on the grid, and a step
  // rests only on the clues and the steps before it, so its reason holds for this grid.
  function nextHint(secret, cells, width, shown) {
    const wrong = wrongCells(cells, secret.solution);
    if (wrong.length) return { kind: "wrong", cells: wrong };
    for (let n = 0; n < secret.hints.length; n++) {
      const step = Object.assign({ index: n }, secret.hints[n]);
      if (!stepDone(step, cells, width, shown)) return { kind: "step", step: step, number: n + 1 };
    }
    return { kind: "end", end: secret.hintsEnd };
  }

  const END_WORDS = {
    "solved": "nothing left to deduce: the hints have filled in every cell",
    "level 6": "no further step by the rules up to level 5: from here it needs nested trials (level 6)",
    "budget": "no more hints prepared: the time for hints ran out when this page was written",
  };

  // The hint's words, as `placesat lixso hint` says them (`--state` for wrong cells).
  function hintWords(found, width, cells) {
    if (found.kind === "wrong") {
      return "some of your cells are wrong; fix them first: " +
        found.cells.map((i) => cellName(i, width) + " (" + cells[i] + " is not right there)").join(", ");
    }
    if (found.kind === "end") return END_WORDS[found.end] || END_WORDS.budget;
    const step = found.step;
    return found.number + ". [level " + step.level + "] " + step.fact + ": " + step.why;
  }

  // Undo and redo over strokes: a stroke is a list of [cell, before, after], or
  // [cell, before, after, true] for a change of the cell's pencil marks (``pencil``).
  class History {
    constructor() { this.done = []; this.undone = []; }
    record(stroke) {
      if (!stroke.length) return;
      this.done.push(stroke);
      this.undone = [];
    }
    undo(cells, pencil) {
      const stroke = this.done.pop();
      if (!stroke) return false;
      for (let n = stroke.length - 1; n >= 0; n--) (stroke[n][3] ? pencil : cells)[stroke[n][0]] = stroke[n][1];
      this.undone.push(stroke);
      return true;
    }
    redo(cells, pencil) {
      const stroke = this.undone.pop();
      if (!stroke) return false;
      for (const [i, , after, marks] of stroke) (marks ? pencil : cells)[i] = after;
      this.done.push(stroke);
      return true;
    }
  }

  // A cell's pencil marks with ``colour`` noted or taken off: the letters in the order IXSO.
  function togglePencil(marks, colour) {
    const held = new Set(marks.split(""));
    if (held.has(colour)) held.delete(colour); else held.add(colour);
    return COLOURS.split("").filter((c) => held.has(c)).join("");
  }

  const logic = { COLOURS, EMPTY, cellName, unscramble, colourGroups, isL, tiles, wrongCells, ruleProblems, solved, stepDone, nextHint, hintWords, History, togglePencil };

  if (typeof module !== "undefined" && module.exports) module.exports = logic;
  if (typeof document !== "undefined" && document.getElementById("lixso-data")) startPage(logic);

  // ------------------------------------------------------------------ the page

  function startPage(L) {
    const data = JSON.parse(document.getElementById("lixso-data").textContent);
    const SVG = "http://www.w3.org/2000/svg";
    const CELL = 40;
    const INK = { I: "#000", X: "#fff", S: "#000", O: "#fff" };
    const STORE = "lixso-play:";
    const $ = (id) => document.getElementById(id);
    const board = $("board");

    let current = null;  // {puzzle, cells, pencil, clue, secret, history, seconds, solved, shown, marks}
    let tool = "I";
    let pencilMode = false;  // colours then note candidates in a cell instead of painting it
    const LABEL = 26;  // room for the row labels (r1, r2, ...) on the left and the column labels above
    let cursor = 0;
    let stroke = null;  // the drag or key press being made: {value, changes}

    function load(key) {
      try { return JSON.parse(localStorage.getItem(STORE + key)); } catch (e) { return null; }
    }
    function save(key, value) {
      try { localStorage.setItem(STORE + key, JSON.stringify(value)); } catch (e) { /* private mode: play on */ }
    }

    function saveCurrent() {
      if (!current) return;
      save(current.puzzle.id, {
        cells: current.cells.join(""), pencil: current.pencil, seconds: current.seconds, solved: current.solved, shown: Array.from(current.shown),
      });
    }

    function open(index) {
      saveCurrent();
      const puzzle = data.puzzles[index];
      const clues = puzzle.rows.join("");
      const stored = load(puzzle.id) || {};
      const cells = clues.split("");
      if (typeof stored.cells === "string" && stored.cells.length === cells.length) {
        stored.cells.split("").forEach((v, i) => {
          if (clues[i] === L.EMPTY && (L.COLOURS.includes(v) || v === L.EMPTY)) cells[i] = v;
        });
      }
      const pencil = cells.map((_, i) => {
        const kept = Array.isArray(stored.pencil) && typeof stored.pencil[i] === "string" ? stored.pencil[i] : "";
        return clues[i] === L.EMPTY ? L.COLOURS.split("").filter((c) => kept.includes(c)).join("") : "";
      });
      current = {
        index: index, puzzle: puzzle, cells: cells, pencil: pencil, clue: clues.split("").map((v) => v !== L.EMPTY),
        height: puzzle.rows.length, width: puzzle.rows[0].length,
        secret: puzzle.secret ? L.unscramble(puzzle.secret, puzzle.key) : null,
        history: new L.History(), seconds: stored.seconds | 0, solved: !!stored.solved,
        shown: new Set(Array.isArray(stored.shown) ? stored.shown : []), marks: null,
      };
      cursor = Math.max(0, current.clue.indexOf(false));
      save("last", puzzle.id);
      $("name").textContent = puzzle.name;
      const level = $("level");
      level.textContent = puzzle.level ? "level " + puzzle.level : "level ?";
      level.style.background = data.levelColours[puzzle.level] || "#777";
      $("supply").textContent = puzzle.perColour + " of each colour";
      $("hint").disabled = !current.secret;
      $("check").title = current.secret ? "Name wrong cells" : "Name cells that break the rules (this page holds no answers)";
      say(current.solved ? "Solved in " + clock(current.seconds) + "." : "");
      const cut = current.secret && current.secret.hintsEnd === "budget";
      const note = $("hint-note");
      note.hidden = !cut;
      note.textContent = cut ? "Hints for this puzzle stop before the end: the time for hints (placesat lixso html --hint-time) ran out when this page was written." : "";
      document.querySelectorAll("#puzzles button").forEach((b, n) => b.setAttribute("aria-current", n === index ? "true" : "false"));
      draw();
      tick(0);
    }

    function say(text, tone) {
      const status = $("status");
      status.textContent = text;
      status.className = tone || "";
    }

    function clock(seconds) {
      const h = Math.floor(seconds / 3600), m = Math.floor(seconds / 60) % 60, s = seconds % 60;
      return (h ? h + ":" + String(m).padStart(2, "0") : m) + ":" + String(s).padStart(2, "0");
    }

    function tick(step) {
      if (!current) return;
      if (step && !current.solved && document.visibilityState === "visible") {
        current.seconds += step;
        if (current.seconds % 5 === 0) saveCurrent();
      }
      $("timer").textContent = clock(current.seconds);
    }

    function el(name, attrs, text) {
      const node = document.createElementNS(SVG, name);
      for (const k in attrs) node.setAttribute(k, attrs[k]);
      if (text !== undefined) node.textContent = text;
      return node;
    }

    function draw() {
      const { height, width, cells, clue } = current;
      const symbols = document.body.classList.contains("symbols");
      board.setAttribute("viewBox", -LABEL + " " + -LABEL + " " + (width * CELL + LABEL + 3) + " " + (height * CELL + LABEL + 3));
      board.replaceChildren();
      // row and column labels, as the hints name cells: r3c4 is row 3, column 4
      for (let c = 0; c < width; c++) {
        board.appendChild(el("text", { x: c * CELL + CELL / 2, y: -8, "text-anchor": "middle", class: "label" }, "c" + (c + 1)));
      }
      for (let r = 0; r < height; r++) {
        board.appendChild(el("text", { x: -5, y: r * CELL + CELL / 2 + 4, "text-anchor": "end", class: "label" }, "r" + (r + 1)));
      }
      for (let i = 0; i < cells.length; i++) {
        const x = (i % width) * CELL, y = Math.floor(i / width) * CELL;
        const v = cells[i];
        const fill = v !== L.EMPTY && !symbols ? data.fills[v] : "#fff";
        board.appendChild(el("rect", { x: x, y: y, width: CELL, height: CELL, fill: fill, class: "cell", "data-cell": cellNameOf(i) }));
        if (v === L.EMPTY && current.pencil[i]) {
          // pencil marks: each colour in its own corner (I top left, X top right, S, O below)
          for (const colour of current.pencil[i]) {
            const k = L.COLOURS.indexOf(colour);
            board.appendChild(el("text", {
              x: x + (k % 2 ? CELL - 9 : 9), y: y + (k < 2 ? 13 : CELL - 5), "text-anchor": "middle",
              class: "pencil", "data-pencil": cellNameOf(i),
            }, colour));
          }
        }
        if (v !== L.EMPTY) {
          board.appendChild(el("text", {
            x: x + CELL / 2, y: y + CELL / 2 + (clue[i] ? 8 : 6), "text-anchor": "middle",
            class: clue[i] ? "clue" : "mine", fill: symbols ? (clue[i] ? "#000" : "#333") : INK[v],
          }, v));
        }
      }
      // tile outlines: a side of a tile's cell that no cell of the same tile shares
      const edges = [];
      for (const g of L.tiles(cells, height, width)) {
        const inside = new Set(g.cells);
        for (const i of g.cells) {
          const x = (i % width) * CELL, y = Math.floor(i / width) * CELL, c = i % width;
          if (!inside.has(i - width)) edges.push([x, y, x + CELL, y]);
          if (!inside.has(i + width)) edges.push([x, y + CELL, x + CELL, y + CELL]);
          if (c === 0 || !inside.has(i - 1)) edges.push([x, y, x, y + CELL]);
          if (c === width - 1 || !inside.has(i + 1)) edges.push([x + CELL, y, x + CELL, y + CELL]);
        }
      }
      const outline = el("path", { class: "tile", d: edges.map((e) => "M" + e[0] + " " + e[1] + "L" + e[2] + " " + e[3]).join("") });
      board.appendChild(outline);
      board.appendChild(el("rect", { x: 0, y: 0, width: width * CELL, height: height * CELL, class: "frame" }));
      if (current.marks) {
        for (const [i, kind] of current.marks) {
          const x = (i % width) * CELL, y = Math.floor(i / width) * CELL;
          board.appendChild(el("rect", { x: x + 3, y: y + 3, width: CELL - 6, height: CELL - 6, class: "mark " + kind, "data-mark": kind, "data-cell": cellNameOf(i) }));
        }
      }
      board.appendChild(el("rect", { x: (cursor % width) * CELL + 1.5, y: Math.floor(cursor / width) * CELL + 1.5, width: CELL - 3, height: CELL - 3, class: "cursor" }));
      board.setAttribute("aria-label", "Grid " + height + " by " + width + ", at " + cellNameOf(cursor) +
        (cells[cursor] === L.EMPTY ? " (empty)" : " (" + cells[cursor] + (clue[cursor] ? " clue)" : ")")));
    }

    function cellNameOf(i) { return L.cellName(i, current.width); }

    // Note or take off a candidate colour in an empty cell, as a stroke of its own.
    function pencil(i, colour) {
      if (current.clue[i] || current.cells[i] !== L.EMPTY) return;
      const after = colour === L.EMPTY ? "" : L.togglePencil(current.pencil[i], colour);
      if (after === current.pencil[i]) return;
      current.history.record([[i, current.pencil[i], after, true]]);
      current.pencil[i] = after;
      saveCurrent();
      draw();
    }

    // Change cells as one undoable stroke, then see whether the grid is done.
    function paint(i, value) {
      if (current.clue[i] || current.cells[i] === value) return;
      stroke.changes.push([i, current.cells[i], value]);
      current.cells[i] = value;
    }

    function begin(value) { stroke = { value: value, changes: [] }; }

    function end() {
      if (!stroke) return;
      const changed = stroke.changes.length > 0;
      current.history.record(stroke.changes);
      stroke = null;
      if (changed) changedGrid();
      else draw();
    }

    function changedGrid() {
      current.marks = null;
      const { cells, height, width, secret } = current;
      if (L.solved(cells, height, width, current.puzzle.perColour, secret ? secret.solution : null)) {
        if (!current.solved) {
          current.solved = true;
          listMark(current.index);
        }
        say("Solved in " + clock(current.seconds) + "! Every cell is right.", "good");
      } else if ($("status").className !== "") {
        say("");
      }
      saveCurrent();
      draw();
    }

    function cellAt(event) {
      const box = board.getBoundingClientRect();
      const view = board.viewBox.baseVal;
      const scale = Math.min(box.width / view.width, box.height / view.height);
      const left = box.left + (box.width - view.width * scale) / 2, top = box.top + (box.height - view.height * scale) / 2;
      const x = (event.clientX - left) / scale + view.x, y = (event.clientY - top) / scale + view.y;
      const c = Math.floor(x / CELL), r = Math.floor(y / CELL);
      if (r < 0 || r >= current.height || c < 0 || c >= current.width) return -1;
      return r * current.width + c;
    }

    board.addEventListener("pointerdown", (event) => {
      const i = cellAt(event);
      if (i < 0) return;
      event.preventDefault();
      board.focus({ preventScroll: true });
      cursor = i;
      if (current.clue[i]) { draw(); return; }
      if (pencilMode) { pencil(i, tool); draw(); return; }
      board.setPointerCapture(event.pointerId);
      // a cell that already has the colour is emptied, and so is the rest of the drag
      begin(tool !== L.EMPTY && current.cells[i] === tool ? L.EMPTY : tool);
      paint(i, stroke.value);
      draw();
    });
    board.addEventListener("pointermove", (event) => {
      if (!stroke) return;
      const i = cellAt(event);
      if (i < 0 || i === cursor) return;
      cursor = i;
      paint(i, stroke.value);
      draw();
    });
    board.addEventListener("pointerup", end);
    board.addEventListener("pointercancel", end);

    function move(dr, dc) {
      const r = Math.min(current.height - 1, Math.max(0, Math.floor(cursor / current.width) + dr));
      const c = Math.min(current.width - 1, Math.max(0, (cursor % current.width) + dc));
      cursor = r * current.width + c;
      draw();
    }

    function setCell(value) {
      if (pencilMode) { pencil(cursor, value); return; }
      begin(value);
      paint(cursor, value);
      end();
    }

    board.addEventListener("keydown", (event) => {
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      const key = event.key;
      const arrows = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
      let handled = true;
      if (arrows[key]) move(...arrows[key]);
      else if ("IXSOixso".includes(key) && key.length === 1) setCell(key.toUpperCase());
      else if ("1234".includes(key) && key.length === 1) setCell(L.COLOURS[Number(key) - 1]);
      else if (key === "Backspace" || key === "Delete" || key === "0" || key === ".") setCell(L.EMPTY);
      else if (key === " " || key === "Enter") setCell(!pencilMode && tool !== L.EMPTY && current.cells[cursor] === tool ? L.EMPTY : tool);
      else if (key === "p" || key === "P") setPencil(!pencilMode);
      else handled = false;
      if (handled) event.preventDefault();
    });

    document.addEventListener("keydown", (event) => {
      const typing = event.target instanceof HTMLInputElement && event.target.type !== "checkbox";
      if (typing) return;
      const key = event.key.toLowerCase();
      if ((event.ctrlKey || event.metaKey) && key === "z") { event.preventDefault(); event.shiftKey ? redo() : undo(); }
      else if ((event.ctrlKey || event.metaKey) && key === "y") { event.preventDefault(); redo(); }
      else if (!event.ctrlKey && !event.metaKey && !event.altKey && key === "h") hint();
      else if (!event.ctrlKey && !event.metaKey && !event.altKey && key === "c" && event.target === board) check();
    });

    function undo() { if (current.history.undo(current.cells, current.pencil)) changedGrid(); }
    function redo() { if (current.history.redo(current.cells, current.pencil)) changedGrid(); }

    function setPencil(on) {
      pencilMode = on;
      const button = $("pencil");
      button.setAttribute("aria-pressed", String(on));
      button.textContent = on ? "Pencil: on" : "Pencil";
      document.body.classList.toggle("pencil-mode", on);
    }

    function clear() {
      begin(L.EMPTY);
      current.cells.forEach((_, i) => paint(i, L.EMPTY));
      current.pencil.forEach((marks, i) => { if (marks) stroke.changes.push([i, marks, "", true]); });
      current.pencil = current.pencil.map(() => "");
      end();
      say("Cleared (Undo brings it back).");
    }

    function check() {
      const { cells, width, height, secret } = current;
      if (L.solved(cells, height, width, current.puzzle.perColour, secret ? secret.solution : null)) {
        say("Solved in " + clock(current.seconds) + "! Every cell is right.", "good");
        return;
      }
      const left = cells.filter((v) => v === L.EMPTY).length;
      let wrong;
      let words;
      if (secret) {
        wrong = L.wrongCells(cells, secret.solution);
        words = wrong.length ? "Wrong: " + wrong.map(cellNameOf).join(", ") + "." : "No mistakes so far; " + left + " cell(s) to go.";
      } else {
        const problems = L.ruleProblems(cells, height, width, current.puzzle.perColour);
        wrong = [].concat(...problems.map((p) => p.cells));
        words = problems.length ? "Against the rules: " + problems.map((p) => p.words).join("; ") + "." : "Nothing against the rules so far; " + left + " cell(s) to go.";
      }
      current.marks = wrong.map((i) => [i, "wrong"]);
      say(words, wrong.length ? "bad" : "");
      draw();
    }

    function hint() {
      const { cells, width, secret } = current;
      if (!secret) { say("This page holds no answers, so it has no hints."); return; }
      if (L.solved(cells, current.height, width, current.puzzle.perColour, secret.solution)) { check(); return; }
      const found = L.nextHint(secret, cells, width, current.shown);
      const words = L.hintWords(found, width, cells);
      if (found.kind === "wrong") {
        current.marks = found.cells.map((i) => [i, "wrong"]);
      } else if (found.kind === "step") {
        const step = found.step;
        const index = (rc) => (rc[0] - 1) * width + rc[1] - 1;
        const target = new Set(step.target.cells.map(index));
        current.marks = step.cells.map(index).filter((i) => !target.has(i)).map((i) => [i, "reason"])
          .concat(Array.from(target).map((i) => [i, "fact"]));
        if (!step.target.value) current.shown.add(step.index);
        cursor = Array.from(target)[0];
        saveCurrent();
      } else {
        current.marks = null;
      }
      say(words, found.kind === "wrong" ? "bad" : "hint");
      draw();
    }

    function listMark(index) {
      const button = document.querySelectorAll("#puzzles button")[index];
      if (button) button.classList.add("solved");
    }

    document.querySelectorAll("#palette button").forEach((button) => {
      button.addEventListener("click", () => choose(button.dataset.tool));
    });
    function choose(value) {
      tool = value;
      document.querySelectorAll("#palette button").forEach((b) => b.setAttribute("aria-checked", String(b.dataset.tool === value)));
    }
    $("undo").addEventListener("click", undo);
    $("redo").addEventListener("click", redo);
    $("clear").addEventListener("click", clear);
    $("check").addEventListener("click", check);
    $("hint").addEventListener("click", hint);
    $("pencil").addEventListener("click", () => setPencil(!pencilMode));

    const symbols = $("symbols");
    symbols.checked = load("symbols") === true;
    document.body.classList.toggle("symbols", symbols.checked);
    symbols.addEventListener("change", () => {
      document.body.classList.toggle("symbols", symbols.checked);
      save("symbols", symbols.checked);
      draw();
    });

    // palette swatches take the tile colours (their letters stay for symbols mode)
    document.querySelectorAll("#palette button").forEach((b) => {
      if (data.fills[b.dataset.tool]) b.style.setProperty("--swatch", data.fills[b.dataset.tool]);
      if (INK[b.dataset.tool]) b.style.setProperty("--ink", INK[b.dataset.tool]);
    });

    const list = $("puzzles");
    data.puzzles.forEach((puzzle, n) => {
      const item = document.createElement("li");
      const button = document.createElement("button");
      button.type = "button";
      const badge = document.createElement("span");
      badge.className = "level";
      badge.textContent = puzzle.level || "?";
      badge.title = "level " + (puzzle.level || "unknown");
      badge.style.background = data.levelColours[puzzle.level] || "#777";
      const name = document.createElement("span");
      name.className = "pname";
      name.textContent = puzzle.name;
      button.append(badge, name);
      const stored = load(puzzle.id);
      if (stored && stored.solved) button.classList.add("solved");
      button.addEventListener("click", () => { open(n); board.focus({ preventScroll: true }); });
      item.appendChild(button);
      list.appendChild(item);
    });

    document.addEventListener("visibilitychange", saveCurrent);
    window.addEventListener("pagehide", saveCurrent);
    setInterval(() => tick(1), 1000);
    choose("I");
    const last = load("last");
    const start = data.puzzles.findIndex((p) => p.id === last);
    open(start >= 0 ? start : 0);
  }
})();
