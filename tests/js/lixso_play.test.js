// The play page's logic (solver/lixso/web/play.js) under node's test runner:
//   node --test tests/js/
// tests/test_lixso_html.py runs it, with LIXSO_PLAY_CASES naming a file of cases made by the
// Python side (scrambled answers, and full grids with the rule checker's verdict).
"use strict";
const test = require("node:test");
const assert = require("node:assert");
const fs = require("node:fs");
const path = require("node:path");
const L = require(path.join(__dirname, "..", "..", "solver", "lixso", "web", "play.js"));

const cells = (rows) => rows.join("").split("");

test("three cells of one colour in an L are a tile; a line of three or four touching are not", () => {
  const grid = cells(["II.X", "I..X", "...X"]);
  const found = L.tiles(grid, 3, 4);
  assert.deepStrictEqual(found, [{ colour: "I", cells: [0, 1, 4] }]);
  assert.strictEqual(L.isL([3, 7, 11], 4), false);
  // two L shapes touching at a corner are one group of six: no outline
  assert.deepStrictEqual(L.tiles(cells(["II..", "I...", ".II.", ".I.."]), 4, 4), []);
  // an L whose fourth corner holds another colour is still a tile
  assert.deepStrictEqual(L.tiles(cells(["II..", "IS..", "...."]), 3, 4).map((t) => t.cells), [[0, 1, 4]]);
});

test("the rules name a group too big, a shape that is not an L, and the supply", () => {
  const big = L.ruleProblems(cells(["III.", "I...", "...."]), 3, 4, 4);
  assert.strictEqual(big.length, 1);
  assert.match(big[0].words, /more than three I cells touch/);
  const line = L.ruleProblems(cells(["XXX.", "....", "...."]), 3, 4, 4);
  assert.match(line[0].words, /not an L/);
  const supply = L.ruleProblems(cells(["SS.SS", "S...S"]), 2, 5, 1);
  assert.match(supply[0].words, /2 S tiles, but the supply is 1/);
});

test("undo and redo replay strokes in order", () => {
  const grid = cells(["...."]);
  const history = new L.History();
  grid[0] = "I"; grid[1] = "I";
  history.record([[0, ".", "I"], [1, ".", "I"]]);
  grid[1] = "X";
  history.record([[1, "I", "X"]]);
  assert.ok(history.undo(grid));
  assert.deepStrictEqual(grid.join(""), "II..");
  assert.ok(history.undo(grid));
  assert.deepStrictEqual(grid.join(""), "....");
  assert.strictEqual(history.undo(grid), false);
  assert.ok(history.redo(grid));
  assert.deepStrictEqual(grid.join(""), "II..");
  history.record([[3, ".", "O"]]);  // a new stroke forgets what was undone
  assert.strictEqual(history.redo(grid), false);
});

test("pencil marks toggle in IXSO order and undo with the colours, apart from them", () => {
  assert.strictEqual(L.togglePencil("", "O"), "O");
  assert.strictEqual(L.togglePencil("O", "I"), "IO");
  assert.strictEqual(L.togglePencil("IXO", "X"), "IO");
  const grid = cells(["..."]);
  const pencil = ["", "", ""];
  const history = new L.History();
  pencil[0] = "IS";
  history.record([[0, "", "IS", true]]);
  grid[1] = "X";
  history.record([[1, ".", "X"]]);
  assert.ok(history.undo(grid, pencil));
  assert.deepStrictEqual([grid.join(""), pencil], ["...", ["IS", "", ""]]);
  assert.ok(history.undo(grid, pencil));
  assert.deepStrictEqual([grid.join(""), pencil], ["...", ["", "", ""]]);
  assert.ok(history.redo(grid, pencil));
  assert.deepStrictEqual(pencil, ["IS", "", ""]);
});

test("a hint names wrong cells first, then the first step not on the grid", () => {
  const secret = {
    solution: ["IIX", "IXX"],
    hints: [
      { fact: "r1c3 is not I", level: 3, why: "w0", cells: [[1, 3]], target: { cells: [[1, 3]], colour: "I", value: false } },
      { fact: "an X tile lies on r1c3 r2c2 r2c3", level: 1, why: "w1", cells: [[1, 3]], target: { cells: [[1, 3], [2, 2], [2, 3]], colour: "X", value: true } },
      { fact: "an I tile lies on r1c1 r1c2 r2c1", level: 1, why: "w2", cells: [[1, 1]], target: { cells: [[1, 1], [1, 2], [2, 1]], colour: "I", value: true } },
    ],
    hintsEnd: "solved",
  };
  const shown = new Set();
  let found = L.nextHint(secret, cells(["S..", "..."]), 3, shown);
  assert.deepStrictEqual(found, { kind: "wrong", cells: [0] });
  assert.strictEqual(L.hintWords(found, 3, cells(["S..", "..."])), "some of your cells are wrong; fix them first: r1c1 (S is not right there)");
  found = L.nextHint(secret, cells(["...", "..."]), 3, shown);
  assert.strictEqual(found.number, 1);
  assert.strictEqual(L.hintWords(found, 3, cells(["...", "..."])), "1. [level 3] r1c3 is not I: w0");
  shown.add(0);  // a "cannot be" cannot be written on the grid: once shown, it is known
  assert.strictEqual(L.nextHint(secret, cells(["...", "..."]), 3, shown).number, 2);
  // the player placed the X tile on their own: the next hint is the I tile
  assert.strictEqual(L.nextHint(secret, cells(["..X", ".XX"]), 3, new Set()).number, 3);
  found = L.nextHint(secret, cells(["IIX", "IXX"]), 3, shown);
  assert.deepStrictEqual(found, { kind: "end", end: "solved" });
  assert.match(L.hintWords({ kind: "end", end: "budget" }, 3, []), /no more hints prepared/);
});

const cases = process.env.LIXSO_PLAY_CASES;
test("the page reads answers scrambled by Python, and judges grids as the rule checker does", { skip: !cases && "LIXSO_PLAY_CASES not set (tests/test_lixso_html.py sets it)" }, () => {
  const data = JSON.parse(fs.readFileSync(cases, "utf-8"));
  assert.deepStrictEqual(L.unscramble(data.scrambled, data.key), data.secret);
  for (const { rows, perColour, valid } of data.grids) {
    const problems = L.ruleProblems(cells(rows), rows.length, rows[0].length, perColour);
    assert.strictEqual(problems.length === 0, valid, rows.join("/") + ": " + JSON.stringify(problems));
    assert.strictEqual(L.solved(cells(rows), rows.length, rows[0].length, perColour, null), valid);
  }
});
