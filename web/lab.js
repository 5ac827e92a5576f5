/*
 * lab.js - the bankscope lab's page: the form, the tile, the bank maps,
 * the predict-first mode, the tabs and the state in the URL (the datasets
 * tab: web/datasets.js).  Every text that comes from the user, a file or
 * the URL reaches the page through textContent and attributes set one by
 * one, never as markup.  What a map shows under the pointer it also shows
 * to the keyboard (arrow keys on the focused map), in a line of text
 * below it.
 */
"use strict";

(function () {
	var model, kinds = [], $ = function (id) {
		return document.getElementById(id);
	};
	var SVGNS = "http://www.w3.org/2000/svg";
	var WIDTHS = [1, 2, 4, 8, 16];
	var FIELDS = ["expr", "active", "warp", "tile", "pad", "elem", "access",
		"index", "column", "struct", "field", "addrs", "base", "name"];
	var MODE_FIELDS = {
		expr: ["expr", "active", "warp"],
		tile: ["tile", "pad", "elem", "access", "index", "column",
			"swizzle"],
		struct: ["struct", "field"],
		addrs: ["addrs"]
	};

	/* el("td", {class: "x"}, "text" or [children]) */
	function el(tag, attrs, kids, ns) {
		var e = ns ? document.createElementNS(ns, tag)
			: document.createElement(tag);
		for (var k in attrs || {})
			e.setAttribute(k, attrs[k]);
		if (kids === undefined || kids === null)
			return e;
		if (!Array.isArray(kids))
			kids = [kids];
		kids.forEach(function (c) {
			e.appendChild(typeof c === "object" ? c
				: document.createTextNode(String(c)));
		});
		return e;
	}
	function svg(tag, attrs, kids) {
		return el(tag, attrs, kids, SVGNS);
	}
	function clear(e) {
		while (e.firstChild)
			e.removeChild(e.firstChild);
		return e;
	}
	function show(e, on) {
		e.hidden = !on;
	}
	function fmt(v, d) {
		return isNaN(v) ? "not modeled" : v.toFixed(d === undefined ? 2 : d);
	}
	function hex(v) {
		return "0x" + (v >>> 0).toString(16);
	}
	function laneList(m) {
		var out = [];
		for (var l = 0; l < 32; l++) {
			if (!(m >>> l & 1))
				continue;
			var e = l;
			while (e + 1 < 32 && (m >>> (e + 1) & 1))
				e++;
			out.push(e === l ? "" + l : l + "-" + e);
			l = e;
		}
		return out.length ? out.join(",") : "none";
	}
	function popcount(m) {
		var n = 0;
		for (; m; m >>>= 1)
			n += m & 1;
		return n;
	}

	/* ---- state: the form <-> an object <-> the URL ------------------- */

	function mode() {
		var r = document.querySelector("input[name=mode]:checked");
		return r ? r.value : "expr";
	}

	function swizzleValue() {
		var k = $("f-swizzle-kind").value;
		if (k !== "cute")
			return k;
		return "cute:" + $("f-cute-b").value.trim() + "," +
			$("f-cute-m").value.trim() + "," + $("f-cute-s").value.trim();
	}

	/* The form as a state object: only the fields of its mode. */
	function readForm() {
		var s = { kind: $("f-kind").value, width: $("f-width").value,
			  mode: mode() };
		var own = MODE_FIELDS[s.mode];
		FIELDS.forEach(function (f) {
			if (own.indexOf(f) < 0 && f !== "base" && f !== "name")
				return;
			var v = $("f-" + f).value.trim();
			if (v !== "")
				s[f] = v;
		});
		if (s.mode === "tile" && swizzleValue())
			s.swizzle = swizzleValue();
		s.arch = $("f-arch").value;
		if ($("f-textbook").checked)
			s.textbook = "1";
		if ($("f-fix").checked)
			s.fix = "1";
		if ($("f-predict").checked)
			s.predict = "1";
		return s;
	}

	function setSwizzle(v) {
		var m = /^cute:([^,]*),([^,]*),(.*)$/.exec(v || "");
		if (m) {
			$("f-swizzle-kind").value = "cute";
			$("f-cute-b").value = m[1];
			$("f-cute-m").value = m[2];
			$("f-cute-s").value = m[3];
		} else {
			$("f-swizzle-kind").value = v || "";
			/* a value the list lacks: kept, so the model names it */
			if (v && $("f-swizzle-kind").value !== v) {
				$("f-swizzle-kind").appendChild(el("option", {}, v));
				$("f-swizzle-kind").value = v;
			}
		}
	}

	/* A state object into the form (fields it lacks are emptied). */
	function writeForm(s) {
		var m = s.mode || (s.tile ? "tile" : s.struct ? "struct"
				   : s.addrs ? "addrs" : "expr");
		document.querySelectorAll("input[name=mode]").forEach(function (r) {
			r.checked = r.value === m;
		});
		setKind(s.kind || "ld", s.width);
		FIELDS.forEach(function (f) {
			var own = MODE_FIELDS[m].indexOf(f) >= 0 || f === "base" ||
				f === "name";
			if (own || s[f] !== undefined)
				$("f-" + f).value = s[f] !== undefined ? s[f] : "";
		});
		setSwizzle(s.swizzle);
		/* an arch file is not in the URL: sm_90 until one is opened */
		$("f-arch").value = s.arch === "1" || (s.arch === "2" &&
			$("arch-name").textContent) ? s.arch : "0";
		$("f-textbook").checked = s.textbook === "1";
		$("f-fix").checked = s.fix === "1";
		$("f-predict").checked = s.predict === "1";
		showMode();
	}

	function toHash(s) {
		var p = new URLSearchParams();
		Object.keys(s).forEach(function (k) {
			if (s[k] !== undefined && s[k] !== "")
				p.set(k, s[k]);
		});
		return "#" + p.toString();
	}

	function fromHash(h) {
		var s = {}, p = new URLSearchParams(h.replace(/^#/, ""));
		p.forEach(function (v, k) { s[k] = v; });
		return s;
	}

	/* The same access in the shell. */
	function shellQuote(v) {
		return /^[A-Za-z0-9_.,:+\/=-]+$/.test(v) ? v
			: "'" + v.replace(/'/g, "'\\''") + "'";
	}
	function cliLine(s) {
		var a = ["bankscope", s.fix ? "fix" : "predict"];
		if (s.arch === "1")
			a.push("--arch", "textbook");
		if (s.mode === "addrs")
			return a.concat(["PATTERN-FILE  # one line: " +
				(s.name || "lab") + " " + s.width + " " + s.kind +
				" " + (s.addrs || "")]).join(" ");
		["kind", "width"].concat(MODE_FIELDS[s.mode], ["base", "name"])
			.forEach(function (k) {
				if (s[k] !== undefined)
					a.push("--" + k, shellQuote(s[k]));
			});
		return a.join(" ");
	}

	/* ---- the kind and width lists ---------------------------------------- */

	function setKind(name, width) {
		var sel = $("f-kind");
		sel.value = name;
		if (sel.value !== name) {
			/* not a kind: kept as typed, the model says so */
			sel.appendChild(el("option", {}, name));
			sel.value = name;
		}
		var k = kinds.filter(function (x) { return x.name === name; })[0];
		var ws = k ? k.widths : WIDTHS, wsel = clear($("f-width"));
		ws.forEach(function (w) {
			wsel.appendChild(el("option", { value: w }, w + " bytes"));
		});
		if (width !== undefined && ws.indexOf(+width) < 0 && width !== "")
			wsel.appendChild(el("option", { value: width }, width));
		wsel.value = width !== undefined && width !== "" ? width
			: ws.indexOf(4) >= 0 ? "4" : String(ws[0]);
		$("kind-what").textContent = k ? k.what : "";
	}

	function showMode() {
		var m = mode();
		document.querySelectorAll(".mode").forEach(function (d) {
			d.hidden = d.getAttribute("data-mode") !== m;
		});
		var cute = $("f-swizzle-kind").value === "cute";
		document.querySelectorAll("label.cute").forEach(function (l) {
			l.hidden = !cute;
		});
	}

	/* A canvas's size, set only when it changes: setting it reallocates. */
	function size(cv, w, h, dpr) {
		var W = Math.ceil(w * dpr), H = Math.ceil(h * dpr);
		if (cv.width !== W || cv.height !== H) {
			cv.width = W;
			cv.height = H;
			cv.style.width = w + "px";
			cv.style.height = h + "px";
		}
	}

	/* ---- the bank map ------------------------------------------------------- */

	var TOP = 18;

	/*
	 * The map's fills, from the style sheet's custom properties (one
	 * source: tests/web_ui.js judges the same ones).  A shared word is
	 * also hatched and marked +; a wavefront beyond the phase's ideal
	 * also has a thick border and a corner mark: neither rests on colour.
	 */
	var FILL = {}, hatch = null;

	function readFills() {
		var cs = getComputedStyle(document.documentElement);
		["idle", "one", "multi", "extra"].forEach(function (k) {
			FILL[k] = cs.getPropertyValue("--fill-" + k).trim();
		});
		FILL.ink = cs.getPropertyValue("--ink").trim();
		FILL.mark = cs.getPropertyValue("--mark").trim();
	}

	function hatchPattern(g) {
		if (!hatch) {
			var t = document.createElement("canvas");
			t.width = t.height = 6;
			var c = t.getContext("2d");
			c.strokeStyle = "#7d9db0";
			c.lineWidth = 1;
			c.beginPath();
			c.moveTo(0, 6);
			c.lineTo(6, 0);
			c.stroke();
			hatch = t;
		}
		return g.createPattern(hatch, "repeat");
	}

	/* The map's figure: its axis line, a scrolling box, legend, details. */
	function mapParts(box, id) {
		if (box.firstChild && box.getAttribute("data-kind") === id)
			return { axis: box.children[0], scroll: box.children[1],
				 legend: box.children[2], detail: box.children[3] };
		clear(box);
		box.setAttribute("data-kind", id);
		var p = { axis: el("p", { "class": "axis" }),
			  scroll: el("div", { "class": "scroll" }),
			  legend: el("p", { "class": "legend" }),
			  detail: el("p", { "class": "cell-detail",
				  id: box.id + "-cell", "aria-live": "polite" }) };
		[p.axis, p.scroll, p.legend, p.detail].forEach(function (e) {
			box.appendChild(e);
		});
		return p;
	}

	/*
	 * A remote kind (another CTA's shared memory): no banks, but the
	 * 32-byte sectors it moves, as a table: one row a 128-byte line, its
	 * four sectors, each named by its number from address 0 (as the
	 * lanes' table names them) with the lanes whose bytes fall in it.
	 */
	function drawSectors(box, r, id) {
		var lines = {}, order = [];
		r.cell.forEach(function (c) {
			var ln = Math.floor(c.word / 4);
			if (!lines[ln]) {
				lines[ln] = [0, 0, 0, 0];
				order.push(ln);
			}
			lines[ln][c.word % 4] = c.lanes;
		});
		var p = mapParts(box, "sectors");
		box.parentNode.style.maxWidth = "";
		p.axis.textContent = "128-byte lines down, their four 32-byte " +
			"sectors across; a sector is numbered from address 0, " +
			"as the lanes' table numbers it";
		var head = el("tr", {}, [el("th", {}, ["line (bytes)"])]);
		for (var k = 0; k < 4; k++)
			head.appendChild(el("th", {}, ["bytes " + 32 * k + "-" +
				(32 * k + 31) + " of the line"]));
		var tb = el("tbody");
		order.forEach(function (ln) {
			var tr = el("tr", {}, [el("th", {}, ["line " + ln + " (" +
				ln * 128 + "-" + (ln * 128 + 127) + ")"])]);
			lines[ln].forEach(function (lanes, k) {
				var sec = ln * 4 + k;
				tr.appendChild(el("td", lanes ? { "class": "moved",
					"data-sector": sec } : { "data-sector": sec },
					["sector " + sec + (lanes ? ": lanes " +
					 laneList(lanes) : ": not moved")]));
			});
			tb.appendChild(tr);
		});
		clear(p.scroll).appendChild(el("table", { "class": "sectors",
			"data-map": id }, [el("thead", {}, [head]), tb]));
		p.legend.textContent = r.sectors + " sectors moved over " +
			r.lines + " lines (the fewest that hold its bytes: " +
			r.min_sectors + "): a shaded cell is a 32-byte sector the " +
			"access moves; the remote SM's banks are not this SM's to pay";
		p.detail.textContent = "";
	}

	/* The words of a cell, for the pointer and the keyboard alike. */
	function cellText(r, c, extra) {
		var lanes = [], n = popcount(c.lanes);
		for (var l = 0; l < 32; l++)
			if (c.lanes >>> l & 1)
				lanes.push("lane " + l + " at " + r.addr[l] + " (" +
					   hex(r.addr[l]) + ")");
		return "bank " + c.bank + ", word " + c.word + " (byte " +
			c.word * r.bank_bytes + "), phase " + c.phase + ", wave " +
			c.wave + ": " + (n > 1 ? n + " lanes sharing the word"
			: "one lane") + (extra ? ", a wavefront beyond the ideal"
			: "") + "\n" + lanes.join("\n");
	}

	/*
	 * The map of prediction r: banks across, the wavefronts of each phase
	 * down; a cell shows the lowest lane it serves (+ when others share
	 * its word).  Drawn on a canvas: a map of 32 wavefronts is a thousand
	 * cells, and as elements their layout alone took more than a frame.
	 * The pointer and the arrow keys find a cell from the rows kept here.
	 * cell: the cell size in pixels (16 to 22).
	 */
	function drawMap(box, r, id, cell) {
		if (r.remote)
			return drawSectors(box, r, id);
		var rows = [], dpr = window.devicePixelRatio || 1;
		var CELL = cell, small = CELL < 20, LEFT = small ? 52 : 64;
		var nwaves = 0;
		r.phase.forEach(function (f, pi) {
			if (!f.active)
				return;
			rows.push({ label: "phase " + pi + " (lanes " +
				    laneList(f.lanes) + ")" });
			var ideal = Math.max(1, Math.ceil(f.words / r.banks));
			for (var wv = 0; wv < f.slots; wv++)
				rows.push({ wave: wv, cells: [], ideal: ideal });
			nwaves += f.slots;
			for (var i = 0; i < f.ncells; i++) {
				var ci = f.first_cell + i, c = r.cell[ci];
				rows[rows.length - f.slots + c.wave].cells[c.bank] = ci;
			}
		});
		var w = LEFT + r.banks * CELL + 4, h = TOP + rows.length * CELL + 4;
		var p = mapParts(box, "banks"), cv = p.scroll.firstChild;
		/* one canvas a box, kept: a new one costs a new context */
		if (!cv) {
			cv = el("canvas", { "data-map": id, tabindex: "0",
				role: "img", "aria-describedby": p.detail.id });
			p.scroll.appendChild(cv);
			p.legend.appendChild(document.createTextNode("cells: "));
			[["one", "7", "one lane"],
			 ["multi", "7+", "lanes sharing a word (hatched, +)"],
			 ["extra", "7", "a wavefront beyond the ideal (thick " +
			  "border, corner mark)"]].forEach(function (x) {
				p.legend.appendChild(el("span", { "class": "sw " +
					x[0], "aria-hidden": "true" }, x[1]));
				p.legend.appendChild(document.createTextNode(x[2]));
			});
			cv.addEventListener("mousemove", function (ev) {
				if (cv.hover)
					cv.hover(ev);
			});
			cv.addEventListener("mouseleave", hideTip);
			cv.addEventListener("keydown", function (ev) {
				if (cv.key && cv.key(ev.key))
					ev.preventDefault();
			});
			cv.addEventListener("focus", function () {
				if (cv.key)
					cv.key("");
			});
		}
		p.axis.textContent = "banks 0-" + (r.banks - 1) + " across, " +
			"each phase's wavefronts down; a cell holds the lowest " +
			"lane its bank serves in that wavefront";
		cv.setAttribute("aria-label", "bank map: " + r.banks +
			" banks across, " + nwaves + " wavefront" + (nwaves === 1 ?
			"" : "s") + " down in " + r.phases + " phase" +
			(r.phases === 1 ? "" : "s") + " (ideal " + r.ideal + "); " +
			"arrow keys move from cell to cell, the lanes' table " +
			"lists every lane's bank and word");
		box.parentNode.style.maxWidth = "min(100%, " + w + "px)";
		size(cv, w, h, dpr);
		var at = null;          /* the keyboard's cell: {row, bank} */
		var font = (small ? 9 : 10) + "px ui-monospace, monospace";
		/* hl: a lane whose cells are outlined (the lanes' table) */
		function paint(hl) {
		var g = cv.getContext("2d"), y = TOP, hp = null;
		g.setTransform(dpr, 0, 0, dpr, 0, 0);
		g.clearRect(0, 0, w, h);
		g.font = font;
		g.textBaseline = "middle";
		g.fillStyle = FILL.ink;
		g.fillText("bank", 2, 9);
		for (var b = 0; b < r.banks; b++)
			g.fillText(String(b), LEFT + b * CELL + 2, 9, CELL - 2);
		rows.forEach(function (row, ri) {
			if (row.label) {
				g.font = "bold " + font;
				g.fillStyle = "#20323f";
				g.fillText(row.label, 2, y + CELL / 2);
				g.font = font;
				y += CELL;
				return;
			}
			g.fillStyle = FILL.ink;
			g.fillText("wave " + row.wave, 2, y + CELL / 2);
			for (var b = 0; b < r.banks; b++) {
				var ci = row.cells[b], x = LEFT + b * CELL;
				if (ci === undefined) {
					g.fillStyle = FILL.idle;
					g.fillRect(x, y, CELL - 2, CELL - 2);
				} else {
					var c = r.cell[ci], n = popcount(c.lanes);
					var extra = row.wave >= row.ideal && !r.copy;
					g.fillStyle = extra ? FILL.extra : n > 1 ?
						FILL.multi : FILL.one;
					g.fillRect(x, y, CELL - 2, CELL - 2);
					if (n > 1) {
						g.fillStyle = hp || (hp = hatchPattern(g));
						g.fillRect(x, y, CELL - 2, CELL - 2);
					}
					if (extra) {
						g.lineWidth = 2;
						g.strokeStyle = FILL.mark;
						g.strokeRect(x + 1, y + 1, CELL - 4, CELL - 4);
						g.fillStyle = FILL.mark;
						g.beginPath();
						g.moveTo(x + CELL - 9, y);
						g.lineTo(x + CELL - 2, y);
						g.lineTo(x + CELL - 2, y + 7);
						g.fill();
						g.lineWidth = 1;
					} else {
						g.strokeStyle = "#7a8c99";
						g.strokeRect(x + 0.5, y + 0.5, CELL - 3, CELL - 3);
					}
					var low = 0;
					while (!(c.lanes >>> low & 1) && low < 31)
						low++;
					g.fillStyle = FILL.ink;
					g.fillText(low + (n > 1 ? "+" : ""), x + 2,
						   y + CELL / 2, CELL - 5);
					if (hl >= 0 && c.lanes >>> hl & 1) {
						g.lineWidth = 3;
						g.strokeStyle = "#000";
						g.strokeRect(x + 1.5, y + 1.5, CELL - 5, CELL - 5);
						g.lineWidth = 1;
					}
				}
				if (at && at.row === ri && at.bank === b) {
					g.lineWidth = 2;
					g.strokeStyle = "#0072b2";
					g.setLineDash([3, 2]);
					g.strokeRect(x - 1, y - 1, CELL, CELL);
					g.setLineDash([]);
					g.lineWidth = 1;
				}
			}
			y += CELL;
		});
		}
		function describe(ri, b) {
			var row = rows[ri], ci = row && row.cells ? row.cells[b]
				: undefined;
			if (ci === undefined)
				return row && row.cells ? "bank " + b + ", wave " +
					row.wave + ": idle" : null;
			return cellText(r, r.cell[ci], row.wave >= row.ideal &&
					!r.copy);
		}
		paint(-1);
		cv.paint = paint;
		p.detail.textContent = "";
		cv.hover = function (ev) {
			var rc = cv.getBoundingClientRect();
			var ri = Math.floor((ev.clientY - rc.top - TOP) / CELL);
			var b = Math.floor((ev.clientX - rc.left - LEFT) / CELL);
			var row = rows[ri];
			var ci = row && row.cells && b >= 0 ? row.cells[b] : undefined;
			if (ci === undefined)
				return hideTip();
			var t = describe(ri, b);
			p.detail.textContent = t;
			showTip(ev, t);
		};
		/* the arrow keys: banks across, wavefronts down */
		cv.key = function (k) {
			var wave = [];
			rows.forEach(function (row, i) {
				if (row.cells)
					wave.push(i);
			});
			if (!wave.length)
				return false;
			if (!at) {
				at = { row: wave[0], bank: 0 };
				for (var b = 0; b < r.banks; b++)
					if (rows[wave[0]].cells[b] !== undefined) {
						at.bank = b;
						break;
					}
			} else {
				var wi = wave.indexOf(at.row);
				if (k === "ArrowRight")
					at.bank = Math.min(r.banks - 1, at.bank + 1);
				else if (k === "ArrowLeft")
					at.bank = Math.max(0, at.bank - 1);
				else if (k === "ArrowDown")
					at.row = wave[Math.min(wave.length - 1, wi + 1)];
				else if (k === "ArrowUp")
					at.row = wave[Math.max(0, wi - 1)];
				else if (k === "Home")
					at.bank = 0;
				else if (k === "End")
					at.bank = r.banks - 1;
				else if (k !== "")
					return false;
			}
			paint(-1);
			p.detail.textContent = describe(at.row, at.bank);
			return true;
		};
	}

	function showTip(ev, text) {
		var t = $("tip");
		t.textContent = text;
		t.style.left = ev.clientX + 14 + "px";
		t.style.top = ev.clientY + 10 + "px";
		t.hidden = false;
	}
	function hideTip() {
		$("tip").hidden = true;
	}

	/* ---- the tile itself ------------------------------------------------------ */

	var TILE_ROWS = 32, TILE_COLS = 64;     /* drawn at most */

	/* a bank's colour: 32 hues round the wheel, light; read: deeper */
	function bankColour(b, banks, read) {
		return "hsl(" + Math.round(b * 360 / banks) + "," +
			(read ? "85%,62%)" : "60%,86%)");
	}

	/*
	 * Every bank's cell, drawn once (unread, read, padding): a tile of
	 * two thousand cells is then copied, not written, which keeps its
	 * redraw inside a frame.
	 */
	var sprites = null;
	function tileSprites(banks, CW, RH, dpr) {
		var key = banks + "/" + dpr;
		if (sprites && sprites.key === key)
			return sprites.sheet;
		var sheet = document.createElement("canvas");
		sheet.width = Math.ceil(banks * CW * dpr);
		sheet.height = Math.ceil(3 * RH * dpr);
		var g = sheet.getContext("2d");
		g.setTransform(dpr, 0, 0, dpr, 0, 0);
		g.textBaseline = "middle";
		for (var b = 0; b < banks; b++)
			for (var k = 0; k < 3; k++) {
				var x = b * CW, y = k * RH;
				g.fillStyle = k === 2 ? "#f4f4f4" : bankColour(b, banks, k);
				g.fillRect(x, y, CW - 1, RH - 1);
				g.fillStyle = k === 2 ? "#888" : k ? "#000" : "#444";
				g.font = (k === 1 ? "bold " : "") + "9px ui-monospace, monospace";
				g.fillText(String(b), x + 2, y + RH / 2, CW - 3);
			}
		sprites = { key: key, sheet: sheet };
		return sheet;
	}

	/*
	 * The tile as rows and columns of elements (the padding after them),
	 * each coloured and numbered by the bank of its first word (a wider
	 * element: one cell a word), the elements the lanes read outlined.
	 * Up to 32 rows and 64 columns are drawn: the window starts at the
	 * row (column) the access names.
	 */
	function drawTile(s, r) {
		var box = $("tile"), shape = s.mode === "tile" ? model.tileShape()
			: null;
		show($("fig-tile"), !!shape);
		if (!shape) {
			clear(box);
			return;
		}
		var dir = s.access || (/^(ld|st)sm/.test(r.kind_name) ? "stack"
			: "col");
		var idx = +(s.index || 0), col = +(s.column || 0);
		var ncol = shape.cols + shape.pad;
		var nr = Math.min(shape.rows, TILE_ROWS), nc = Math.min(ncol, TILE_COLS);
		var r0 = Math.max(0, Math.min(dir === "col" ? 0 : idx,
					      shape.rows - nr));
		var c0 = Math.max(0, Math.min(dir === "col" ? idx : /stack|side|mma/
			.test(dir) ? col : 0, ncol - nc));
		var addr = model.tile(r0, nr, c0, nc);
		if (!addr) {
			clear(box);
			show($("fig-tile"), false);
			return;
		}
		/* who reads each element: lane by address */
		var readers = new Map(), nread = 0, banksRead = {};
		for (var l = 0; l < 32; l++) {
			if (!(r.active >>> l & 1))
				continue;
			for (var k = 0; k < r.width; k += shape.elem) {
				var m = readers.get(r.addr[l] + k) || 0;
				readers.set(r.addr[l] + k, m | 1 << l);
			}
		}
		var words = Math.max(1, shape.elem / 4), CW = 16, RH = 16;
		var EW = CW * words, LEFT = 30, TOPM = 16;
		var w = LEFT + nc * EW + 2, h = TOPM + nr * RH + 2;
		/* element i: its lanes (a mask, 0 unread) and its kind of cell */
		var lanesOf = new Uint32Array(addr.length);
		var kindOf = new Uint8Array(addr.length);
		addr.forEach(function (a, i) {
			var ln = readers.get(a) || 0;
			lanesOf[i] = ln;
			kindOf[i] = c0 + i % nc >= shape.cols ? 2 : ln ? 1 : 0;
			if (ln) {
				nread++;
				for (var k = 0; k < words; k++)
					banksRead[Math.floor((a + 4 * k) / r.bank_bytes) %
						  r.banks] = 1;
			}
		});
		var cv = box.firstChild;
		if (!cv) {
			cv = el("canvas", { tabindex: "0", role: "img",
				"aria-describedby": "tile-cell" });
			box.appendChild(cv);
			cv.addEventListener("mousemove", function (ev) {
				if (cv.hover)
					cv.hover(ev);
			});
			cv.addEventListener("mouseleave", hideTip);
			cv.addEventListener("keydown", function (ev) {
				if (cv.key && cv.key(ev.key))
					ev.preventDefault();
			});
			cv.addEventListener("focus", function () {
				if (cv.key)
					cv.key("");
			});
		}
		var dpr = window.devicePixelRatio || 1;
		size(cv, w, h, dpr);
		var nb = Object.keys(banksRead).length;
		$("cap-tile").textContent = "The tile: " + shape.rows + " x " +
			shape.cols + (shape.pad ? " + " + shape.pad + " padding" : "") +
			" elements of " + shape.elem + " byte" + (shape.elem === 1 ?
			"" : "s") + (s.swizzle ? ", swizzle " + s.swizzle : "");
		$("tile-axis").textContent = "columns " + c0 + "-" + (c0 + nc - 1) +
			" across" + (ncol > nc ? " (of " + ncol + ")" : "") +
			", rows " + r0 + "-" + (r0 + nr - 1) + " down" +
			(shape.rows > nr ? " (of " + shape.rows + ")" : "") +
			"; a cell is coloured and numbered by its bank" +
			(words > 1 ? " (one cell a 4-byte word)" : "") +
			", outlined where a lane reads it: " + nread + " element" +
			(nread === 1 ? "" : "s") + " read, in " + nb + " bank" +
			(nb === 1 ? "" : "s") + (r.remote ? " of the CTA that owns " +
			"it (this access pays sectors, not banks)" : "");
		cv.setAttribute("aria-label", $("cap-tile").textContent + "; " +
			$("tile-axis").textContent + "; arrow keys move from " +
			"element to element");
		var at = null;
		function bankOf(a) {
			return Math.floor(a / r.bank_bytes) % r.banks;
		}
		function paint() {
			var g = cv.getContext("2d");
			g.setTransform(dpr, 0, 0, dpr, 0, 0);
			g.clearRect(0, 0, w, h);
			g.textBaseline = "middle";
			g.font = "9px ui-monospace, monospace";
			g.fillStyle = FILL.ink;
			for (var c = 0; c < nc; c += nc > 16 ? 4 : 1)
				g.fillText(String(c0 + c), LEFT + c * EW + 1, 8);
			for (var rr = 0; rr < nr; rr += nr > 16 ? 4 : 1)
				g.fillText(String(r0 + rr), 2, TOPM + rr * RH + RH / 2);
			var sheet = tileSprites(r.banks, CW, RH, dpr);
			var sw = CW * dpr, sh = RH * dpr;
			/* the cells, then the read ones' outlines as one path */
			g.beginPath();
			for (var i = 0; i < addr.length; i++) {
				var x = LEFT + (i % nc) * EW, y = TOPM + Math.floor(i / nc) * RH;
				for (var k = 0; k < words; k++)
					g.drawImage(sheet, bankOf(addr[i] + 4 * k) * sw,
						    kindOf[i] * sh, sw, sh, x + k * CW, y, CW, RH);
				if (lanesOf[i])
					g.rect(x + 1, y + 1, EW - 3, RH - 3);
			}
			g.lineWidth = 2;
			g.strokeStyle = "#000";
			g.stroke();
			if (at !== null) {
				g.strokeStyle = "#0072b2";
				g.setLineDash([3, 2]);
				g.strokeRect(LEFT + (at % nc) * EW - 1, TOPM +
					     Math.floor(at / nc) * RH - 1, EW + 1, RH + 1);
				g.setLineDash([]);
			}
			g.lineWidth = 1;
		}
		function describe(i) {
			var a = addr[i], ln = lanesOf[i], b = [];
			var row = r0 + Math.floor(i / nc), col = c0 + i % nc;
			for (var k = 0; k < words; k++)
				b.push(bankOf(a + 4 * k));
			return (kindOf[i] === 2 ? "padding of row " : "row ") + row +
				", column " + col + ": byte " + a + " (" + hex(a) +
				"), bank" + (words > 1 ? "s " + b.join(" ") : " " + b[0]) +
				"; " + (ln ? "read by lane" + (popcount(ln) > 1 ? "s " : " ") +
				laneList(ln) : "not read");
		}
		paint();
		$("tile-cell").textContent = "";
		cv.hover = function (ev) {
			var rc = cv.getBoundingClientRect();
			var i = Math.floor((ev.clientY - rc.top - TOPM) / RH);
			var j = Math.floor((ev.clientX - rc.left - LEFT) / EW);
			if (i < 0 || j < 0 || i >= nr || j >= nc)
				return hideTip();
			var t = describe(i * nc + j);
			$("tile-cell").textContent = t;
			showTip(ev, t);
		};
		cv.key = function (k) {
			if (at === null) {
				at = 0;
				for (var i = 0; i < addr.length; i++)
					if (lanesOf[i]) {
						at = i;
						break;
					}
			} else if (k === "ArrowRight" && at % nc < nc - 1)
				at++;
			else if (k === "ArrowLeft" && at % nc > 0)
				at--;
			else if (k === "ArrowDown" && at + nc < addr.length)
				at += nc;
			else if (k === "ArrowUp" && at >= nc)
				at -= nc;
			else if (k === "Home")
				at -= at % nc;
			else if (k === "End")
				at += nc - 1 - at % nc;
			else if (!/^Arrow/.test(k) && k !== "")
				return false;
			paint();
			$("tile-cell").textContent = describe(at);
			return true;
		};
	}

	function drawLanes(r) {
		var t = el("table", { "class": "lanes" }), box = clear($("lanes"));
		t.appendChild(el("tr", {}, [el("th", {}, "lane"),
			el("th", {}, "address"), el("th", {}, "hex"),
			el("th", {}, "bank"), el("th", {}, r.remote ? "sector (line)"
			: "word"), el("th", {}, "phase.wave")]));
		for (var l = 0; l < 32; l++) {
			var on = r.active >>> l & 1, tr;
			if (!on) {
				t.appendChild(el("tr", {}, [el("td", {}, l),
					el("td", { colspan: 5 }, "inactive")]));
				continue;
			}
			var banks = [], words = [], waves = [];
			r.cell.forEach(function (c) {
				if (!(c.lanes >>> l & 1))
					return;
				if (r.remote) {     /* a remote kind's cells: sectors */
					words.push(c.word + " (" + Math.floor(c.word / 4) +
						   ")");
					return;
				}
				banks.push(c.bank);
				words.push(c.word);
				waves.push(c.phase + "." + c.wave);
			});
			tr = el("tr", {}, [el("td", {}, l), el("td", {}, r.addr[l]),
				el("td", {}, hex(r.addr[l])),
				el("td", {}, banks.join(" ")),
				el("td", {}, words.join(" ")),
				el("td", {}, waves.join(" "))]);
			tr.setAttribute("data-lane", l);
			t.appendChild(tr);
		}
		/* a lane's row outlines its cells in the map */
		function lane(ev, on) {
			var row = ev.target.closest && ev.target.closest("tr[data-lane]");
			var cv = $("map").querySelector("canvas");
			if (cv && cv.paint)
				cv.paint(on && row ? +row.getAttribute("data-lane") : -1);
		}
		t.addEventListener("mouseover", function (ev) { lane(ev, true); });
		t.addEventListener("mouseleave", function (ev) { lane(ev, false); });
		box.appendChild(t);
	}

	function drawPasses(r) {
		var box = clear($("passes"));
		if (!r.pass.length)
			return;
		var t = el("table", { "class": "rows" });
		t.appendChild(el("tr", {}, ["pass", "load wavefronts",
			"CAS phases", "CAS wavefronts", "pending lanes",
			"lanes done"].map(function (h) { return el("th", {}, h); })));
		r.pass.forEach(function (p, i) {
			t.appendChild(el("tr", {}, [i + 1, p.load_wf, p.cas_phases,
				p.cas_wf, laneList(p.pending), laneList(p.done)]
				.map(function (v) { return el("td", {}, v); })));
		});
		box.appendChild(el("h2", {}, "The retry loop, pass by pass"));
		box.appendChild(el("p", { "class": "note" }, "Each pass the " +
			"pending lanes load their words (LDS), then the lowest " +
			"pending lane of every bank (group) tries its " +
			"compare-and-store (ATOMS.CAST.SPIN); the map above is " +
			"pass 1's load."));
		box.appendChild(t);
	}

	/* bytes asked for per clock per SM, by the pipe rule (model.md) */
	function throughput(r) {
		if (!r.pipe_clocks)
			return "not modeled";
		return (r.active_lanes * r.width / r.pipe_clocks).toFixed(2) +
			" B/clk/SM";
	}

	function caption(r, what) {
		if (r.remote)
			return what + ": arch " + r.profile + ", " + r.width +
				"-byte " + r.kind_name + ", " + r.sectors + " sector" +
				(r.sectors === 1 ? "" : "s") + " moved, the fewest " +
				r.min_sectors;
		return what + ": arch " + r.profile + ", " + r.width + "-byte " +
			r.kind_name + ", " + r.wavefronts + " wavefront" +
			(r.wavefronts === 1 ? "" : "s") + ", ideal " + r.ideal +
			(r.packed ? ", packed" : "");
	}

	/* ---- the numbers ------------------------------------------------------------ */

	function put(id, text, value, bad) {
		var e = $("out-" + id);
		e.textContent = text;
		/* a cell whose words replace the CLI's number keeps it */
		if (value === undefined)
			e.removeAttribute("data-value");
		else
			e.setAttribute("data-value", value);
		e.classList.toggle("bad", !!bad);
	}

	/*
	 * A bank kind: the CLI's numbers.  A remote kind pays sectors, not
	 * banks: the sectors moved against the fewest that hold its bytes
	 * come first (red when more), and the bank columns say there are none.
	 */
	function numbers(r) {
		var rem = !!r.remote, more = r.sectors - r.min_sectors;
		show($("row-sectors"), rem);
		show($("row-min_sectors"), rem);
		$("lbl-wavefronts").textContent = rem ? "dshared wavefronts"
			: "wavefronts";
		$("lbl-ideal").textContent = rem ? "dshared ideal" : "ideal";
		if (rem) {
			put("sectors", r.sectors + (more > 0 ? " (" + more +
				" more than the fewest: " + +(r.sectors /
				r.min_sectors).toFixed(1) + "x)" : " (the fewest)"),
				undefined, more > 0);
			put("min_sectors", r.min_sectors);
		}
		put("wavefronts", r.wavefronts);
		put("ideal", r.ideal);
		put("conflicts", rem ? "none: no bank is paid remotely"
			: r.conflicts, rem ? r.conflicts : undefined);
		put("max_way", rem ? "none: sectors, not banks" : r.max_way +
			"-way", rem ? r.max_way : undefined);
		put("phases", r.phases);
		put("packed", r.packed ? "yes" : "no");
		put("active_lanes", r.active_lanes);
		put("latency", isNaN(r.latency) ? "not modeled"
			: r.latency.toFixed(2) + " cycles");
		put("throughput", throughput(r));
	}

	/* ---- predict first ------------------------------------------------------------ */

	/*
	 * With predict=1 the numbers, maps and lanes of an access stay hidden
	 * until the student commits a whole number: wavefronts, or sectors
	 * for a remote kind.  Another access hides them again.
	 */
	var guess = { key: null, answer: null, revealed: false };

	function accessKey(s) {
		return JSON.stringify(spec(s)) + "|" + (s.arch || "0");
	}

	function verdict(n, r) {
		var what = r.remote ? "sector" : "wavefront";
		var truth = r.remote ? r.sectors : r.wavefronts;
		var d = truth - n;
		return "You predicted " + n + " " + what + (n === 1 ? "" : "s") +
			"; the model says " + truth + (d === 0 ? ": right." : d > 0 ?
			": " + d + " more than you predicted." : ": " + -d +
			" fewer than you predicted.");
	}

	function predictPanel(s, r) {
		var on = s.predict === "1", key = accessKey(s);
		if (guess.key !== key) {
			guess = { key: key, answer: null, revealed: false };
			$("predict-answer").value = "";
			$("predict-msg").textContent = "";
		}
		show($("predict"), on);
		if (!on)
			return false;
		$("predict-q").textContent = r.remote ? "How many 32-byte " +
			"sectors will this access move?" : "How many wavefronts " +
			"will this access take?";
		$("predict-answer").disabled = guess.revealed;
		$("predict-reveal").disabled = guess.revealed;
		$("predict-msg").textContent = guess.revealed ?
			verdict(guess.answer, r) : $("predict-msg").textContent;
		return !guess.revealed;
	}

	function reveal() {
		var v = $("predict-answer").value.trim();
		if (!/^[0-9]+$/.test(v)) {
			$("predict-msg").textContent = "Enter a whole number first: " +
				"the numbers stay hidden until you commit one.";
			return;
		}
		guess.answer = +v;
		guess.revealed = true;
		redraw(null, true);
	}

	/* ---- the redraw ---------------------------------------------------------- */

	var lastMs = 0, pendingHash = null;

	function fail(text) {
		$("error").textContent = text;
		show($("error"), true);
		show($("result"), false);
		show($("predict"), false);
		show($("fig-tile"), false);
		/* no stale result: every number and map is emptied */
		document.querySelectorAll("#result dd[id]").forEach(function (t) {
			t.textContent = "";
		});
		["map", "map-textbook", "map-fix", "lanes", "passes", "tile"]
			.forEach(function (id) { clear($(id)); });
	}

	/* The spec lab.c takes: the state's access keys. */
	function spec(s) {
		var o = {};
		Bankscope.KEYS.forEach(function (k) {
			if (s[k] !== undefined)
				o[k] = s[k];
		});
		return o;
	}

	/*
	 * The whole state in the URL: the case, the tab, and the datasets
	 * when they are not the first two (b=none: no second).  The link on
	 * the page always; the address bar unless keepUrl.
	 */
	function saveState(s, keepUrl) {
		var v = Object.assign({}, s || readForm(), data ? data.state() : {});
		v.tab = tabNow;
		var h = toHash(v);
		$("permalink").href = h;
		$("permalink").textContent = location.href.replace(/#.*$/, "")
			.replace(/^.*\//, "") + h;
		if (keepUrl)
			return;
		/*
		 * The address bar after the frame: the browser throttles
		 * history changes, and typing should not wait on them.
		 */
		if (pendingHash === null)
			setTimeout(function () {
				if (location.hash !== pendingHash)
					history.replaceState(null, "", pendingHash);
				pendingHash = null;
			}, 0);
		pendingHash = h;
	}

	/* the results column's width, read before the redraw writes */
	function mapCell(banks) {
		var avail = $("out").clientWidth;
		return Math.max(16, Math.min(22, Math.floor((avail - 68) / banks)));
	}

	function redraw(s, keepUrl) {
		var t0 = performance.now();
		s = s || readForm();
		var cellPx = mapCell(32);
		saveState(s, keepUrl);
		$("cli").textContent = cliLine(s);
		var arch = +(s.arch || 0);
		var e = model.build(spec(s));
		if (e)
			return fail(e), done(t0);
		var r = model.predict(0, arch);
		if (r.error)
			return fail(r.error), done(t0);
		show($("error"), false);
		$("warning").textContent = r.warning ? "warning: " + r.warning : "";
		show($("warning"), !!r.warning);
		drawTile(s, r);
		var hide = predictPanel(s, r);
		show($("result"), !hide);
		if (hide) {
			["map", "map-textbook", "map-fix", "lanes", "passes"]
				.forEach(function (id) { clear($(id)); });
			return done(t0);
		}
		numbers(r);
		if (r.remote)
			$("out-note").textContent = "another CTA's shared " +
				"memory: " + r.sectors + " sectors of 32 bytes " +
				"moved where " + r.min_sectors + " would hold its " +
				"bytes" + (r.passes ? " (" + r.passes + " passes, " +
				"a read and a write each)" : "") + ", " + r.lines +
				" lines of 128 bytes; the wavefronts are the " +
				"target's dshared wavefronts. No bank is paid for " +
				"remotely: padding or a swizzle cannot lower this, " +
				"fewer sectors can. latency: " +
				(isNaN(r.lat_base) ? "not modeled" : fmt(r.lat_base) +
				 " + " + fmt(r.lat_slope) + " x sectors") + ".";
		else
		$("out-note").textContent = (r.passes ? "a retry loop: " +
			r.passes + " passes, loads " + r.load_wf +
			" wavefronts, compare-and-stores " + r.cas_wf + ". " : "") +
			(r.copy ? "by lines (copy=lines): a phase per source " +
			 "line, lane l copying from base + 16 l. " : "") +
			"latency: " + (isNaN(r.lat_base) ? "not modeled" :
			fmt(r.lat_base) + " + " + fmt(r.lat_slope) +
			" x wavefronts") + "; throughput: the pipe holds each " +
			"phase one clock a wavefront, at least one (measured, " +
			"not in the arch file); conflict-free " + (isNaN(r.tp_rule)
			? "not measured" : fmt(r.tp_rule) + " B/clk/SM") + ".";
		$("cap-main").textContent = caption(r, r.name);
		var tb = s.textbook === "1" && arch !== 1;
		drawMap($("map"), r, "main", tb ? 16 : cellPx);
		show($("fig-textbook"), tb);
		if (!tb)
			clear($("map-textbook"));
		else {
			var t = model.predict(2, 1);
			if (!t.error) {
				$("cap-textbook").textContent = caption(t, "the textbook " +
					"picture") + (t.wavefronts !== r.wavefronts ?
					" (the measured model: " + r.wavefronts + ")" : "");
				drawMap($("map-textbook"), t, "textbook", 16);
			} else {
				$("cap-textbook").textContent = "textbook: " + t.error;
			}
		}
		drawPasses(r);
		drawLanes(r);
		show($("fix"), s.fix === "1");
		if (s.fix !== "1")
			clear($("map-fix"));
		else {
			var f = model.fix(1, arch);
			$("fix-summary").textContent = f.error || f.summary;
			/* nothing to change: no code and no "after" to show */
			show($("fix-code"), !!f.changed);
			show($("fig-fix"), !!f.after);
			$("fix-code").textContent = f.changed ? f.declaration +
				(f.index ? "\n" + f.index : "") : "";
			$("fix-note").textContent = f.changed ? f.note +
				(f.warning ? " warning: " + f.warning : "") : "";
			if (f.after)
				drawMap($("map-fix"), f.after, "fix", cellPx);
			else
				clear($("map-fix"));
		}
		return done(t0);
	}

	function done(t0) {
		/* the layout too, so the time is what a frame pays */
		void document.body.offsetHeight;
		lastMs = performance.now() - t0;
		return lastMs;
	}

	/* ---- datasets: web/datasets.js (BankscopeData) --------------------------- */

	var data;

	/*
	 * An arch file: the architecture from now on, or its first bad
	 * line shown (and sm_90 kept).
	 */
	function openArch(name, text) {
		var e = model.profile(name, text);
		$("arch-name").textContent = e ? "" : name;
		$("f-arch").value = e ? "0" : "2";
		if (e)
			fail(e);
		else
			redraw();
		return e;
	}

	/* ---- tabs, events, start ---------------------------------------------------- */

	var tabNow = "lab";

	/*
	 * The tabs are an ARIA tablist: the one shown is selected and the
	 * only one in the tab order; the arrow keys, Home and End move
	 * between them.  quiet: the URL is left alone (it is being read).
	 */
	function tab(which, quiet) {
		tabNow = which;
		show($("lab"), which === "lab");
		show($("data"), which === "data");
		["lab", "data"].forEach(function (t) {
			var b = $("tab-" + t), on = t === which;
			b.classList.toggle("on", on);
			b.setAttribute("aria-selected", on ? "true" : "false");
			b.tabIndex = on ? 0 : -1;
		});
		if (which === "data" && !$("d-view").firstChild)
			data.draw();
		if (!quiet)
			saveState();
	}

	function tabKeys(ev) {
		var order = ["lab", "data"], i = order.indexOf(tabNow), n = i;
		if (ev.key === "ArrowRight")
			n = (i + 1) % order.length;
		else if (ev.key === "ArrowLeft")
			n = (i + order.length - 1) % order.length;
		else if (ev.key === "Home")
			n = 0;
		else if (ev.key === "End")
			n = order.length - 1;
		else
			return;
		ev.preventDefault();
		tab(order[n]);
		$("tab-" + order[n]).focus();
	}

	/* The tab and datasets of a state read from the URL. */
	function applyView(s) {
		if (data.setState(s) && s.tab === "data")
			data.draw();
		tab(s.tab === "data" ? "data" : "lab", true);
	}

	/*
	 * The labs' links, put in the page by build.sh (BS_LABS): each is the
	 * part of the URL after #, so that it opens in any copy of the page,
	 * wherever it was saved.
	 */
	function labsList() {
		var box = $("labs-list");
		(typeof BS_LABS === "undefined" ? [] : BS_LABS).forEach(function (lab) {
			var ul = el("ul");
			lab.links.forEach(function (k) {
				var st = fromHash(k.hash);
				ul.appendChild(el("li", {}, [el("a", { href: "#" + k.hash },
					k.part + ": " + (st.name || describe(st)))]));
			});
			box.appendChild(el("h3", {}, lab.title));
			box.appendChild(ul);
		});
	}

	/* a case in a few words, for a link without a name */
	function describe(st) {
		var w = (st.width || "") + "-byte " + (st.kind || "ld");
		return w + (st.tile ? " tile " + st.tile + (st.pad ? " pad " + st.pad
			: "") + (st.access ? " " + st.access : "") + (st.swizzle ?
			" " + st.swizzle : "") : st.struct ? " struct " + st.struct
			: st.expr ? " " + st.expr : "");
	}

	/* The words of the numbers: each label tells what it means. */
	function glossary() {
		document.querySelectorAll(".nums dt[data-term]").forEach(function (d) {
			var g = $("g-" + d.getAttribute("data-term"));
			d.setAttribute("title", g.textContent);
			d.setAttribute("aria-describedby", g.id);
		});
	}

	function wire() {
		var form = $("form");
		form.addEventListener("input", function (ev) {
			if (ev.target.id === "f-kind")
				setKind($("f-kind").value);
			if (ev.target.id === "f-arch")
				return;
			showMode();
			redraw();
		});
		form.addEventListener("submit", function (ev) { ev.preventDefault(); });
		$("f-arch").addEventListener("change", function () {
			if ($("f-arch").value === "2")
				$("f-arch-file").click();
			else
				redraw();
		});
		$("f-arch-file").addEventListener("change", function () {
			var f = $("f-arch-file").files[0];
			if (!f)
				return;
			f.text().then(function (text) {
				openArch(f.name, text);
			});
		});
		window.addEventListener("hashchange", function () {
			var s = withCase(fromHash(location.hash));
			writeForm(s);
			applyView(s);
			redraw(null, true);
		});
		$("tab-lab").addEventListener("click", function () { tab("lab"); });
		$("tab-data").addEventListener("click", function () { tab("data"); });
		document.querySelector("[role=tablist]").addEventListener("keydown",
									  tabKeys);
		["d-a", "d-b"].forEach(function (id) {
			$(id).addEventListener("change", function () {
				data.draw();
				saveState();
			});
		});
		$("d-file").addEventListener("change", function () {
			var f = $("d-file").files[0];
			if (f)
				f.arrayBuffer().then(function (b) {
					data.open(f.name, new Uint8Array(b));
				});
		});
		$("predict-reveal").addEventListener("click", reveal);
		$("predict-answer").addEventListener("keydown", function (ev) {
			if (ev.key === "Enter")
				reveal();
		});
	}

	/* A state without an access (#tab=data): the first case the page shows. */
	function withCase(s) {
		if (Bankscope.KEYS.some(function (k) { return s[k] !== undefined; }))
			return s;
		return Object.assign({ kind: "ld", width: "4", expr: "lane * 2" }, s);
	}

	/* ---- the browser test's mode (tests/web_test.sh) ---------------------------- */

	/* "--kind ld --expr lane*2": options as the CLI takes them. */
	function parseArgs(line) {
		var a = line.trim().split(/\s+/), s = {};
		for (var i = 0; i < a.length; i += 2)
			s[a[i].replace(/^--/, "")] = a[i + 1];
		return s;
	}

	function caseState(c, t) {
		var s;
		if (c.charAt(0) === "@") {
			/* @NAME WIDTH KIND A0 ... A31: a pattern line */
			var f = c.slice(1).trim().split(/\s+/);
			s = { mode: "addrs", name: f[0], width: f[1], kind: f[2],
			      addrs: f.slice(3).join(" ") };
		} else {
			s = parseArgs(c);
		}
		s.arch = t.arch || "0";
		return s;
	}

	/*
	 * The fastest of n draws of case c: on a busy machine a draw may
	 * include time the page was not running, which the fastest of
	 * several leaves out.
	 */
	function timeCase(c, t, n) {
		var ms = Infinity;
		writeForm(caseState(c, t));
		for (var k = 0; k < n; k++)
			ms = Math.min(ms, redraw());
		return ms;
	}

	function selftest(t) {
		var out = [], times = [], FRAME = 16;
		tab("lab");
		/* the first draw compiles the code: not counted */
		timeCase(t.cases[0], t, 1);
		t.cases.forEach(function (c, i) {
			times.push(timeCase(c, t, 5));
			var err = $("error").hidden ? "" : $("error").textContent;
			if (err) {
				out.push("ERROR " + err + (!$("result").hidden ||
					$("map").firstChild ? " (and a result shown)" : ""));
				return;
			}
			var g = function (id) {
				var e = $("out-" + id);
				return e.hasAttribute("data-value") ?
					e.getAttribute("data-value") : e.textContent;
			};
			var lat = g("latency");
			/* predict --format csv's columns 4-11, as the page shows them */
			out.push([g("active_lanes"), g("phases"),
				  g("packed") === "yes" ? 1 : 0, g("wavefronts"),
				  g("ideal"), g("conflicts"), parseInt(g("max_way"), 10),
				  lat === "not modeled" ? "" : parseFloat(lat).toFixed(2)
				 ].join(","));
		});
		/* a case over the frame is drawn again, twenty times, at the end */
		var again = 0;
		times.forEach(function (ms, i) {
			if (ms >= FRAME) {
				again++;
				times[i] = Math.min(ms, timeCase(t.cases[i], t, 20));
			}
		});
		var slow = times.map(function (ms, i) { return [ms, t.cases[i]]; });
		slow.sort(function (a, b) { return b[0] - a[0]; });
		slow.slice(0, 3).forEach(function (x) {
			out.push("SLOWEST " + x[0].toFixed(2) + " ms: " + x[1]);
		});
		var sorted = times.slice().sort(function (a, b) { return a - b; });
		out.push("TIMING n=" + times.length + " max=" + slow[0][0].toFixed(2) +
			 " median=" + sorted[sorted.length >> 1].toFixed(2) +
			 " redrawn=" + again);
		/* arch files: a bad one's message, then accesses under a good one */
		(t.profiles || []).forEach(function (p) {
			var e = openArch(p.name, p.text);
			if (e) {
				out.push("PROFILE " + p.name + " ERROR " + e);
				return;
			}
			p.cases.forEach(function (c) {
				var s = caseState(c, { arch: "2" });
				writeForm(s);
				redraw();
				var g = function (id) { return $("out-" + id).textContent; };
				out.push("PROFILE " + p.name + " " + (!$("error").hidden ?
					"ERROR " + $("error").textContent : [g("phases"),
					g("wavefronts"), g("ideal"), g("conflicts")].join(",")));
			});
		});
		/* with the textbook picture and the fix on (reported, not bound) */
		(t.extras || []).forEach(function (c) {
			var st = caseState(c, t), ms = Infinity;
			writeForm(st);
			for (var k = 0; k < 3; k++)
				ms = Math.min(ms, redraw());
			out.push("EXTRA " + ms.toFixed(2) + " ms: " + c + " (" +
				 $("fix-summary").textContent + ")");
		});
		(t.datasets || []).forEach(function (d) {
			var p = data.open(d.name, Bankscope.base64(d.b64));
			out.push("DATASET " + d.name + " " + (p.error ? "ERROR " +
				p.error : data.verdictLine(p)));
		});
		var mk = document.querySelectorAll("#lab img, #data img, " +
			"#lab script, #data script, [onerror], [onload]");
		out.push("MARKUP " + mk.length + " title=" + document.title);
		$("selftest").textContent = out.join("\n");
		$("selftest").hidden = false;
	}

	/* the kind is the only field whose width list depends on it */
	function kindsInit() {
		var sel = $("f-kind");
		kinds = model.kinds();
		kinds.forEach(function (k) {
			sel.appendChild(el("option", { value: k.name }, k.name));
		});
	}

	function start() {
		try {
			model = Bankscope.load(Bankscope.base64(BS_WASM));
		} catch (e) {
			$("loading").textContent = "The model did not load: " + e;
			return;
		}
		$("version").textContent = "bankscope " +
			model.cstr(model.x.web_version());
		readFills();
		kindsInit();
		data = BankscopeData.init({ model: model, $: $, el: el, svg: svg,
			clear: clear, show: show, kinds: kinds, tip: showTip,
			untip: hideTip, onState: function () { saveState(); } });
		glossary();
		labsList();
		wire();
		show($("loading"), false);
		var s = withCase(fromHash(location.hash));
		writeForm(s);
		applyView(s);
		/* the URL gets the whole state, the default case's too */
		redraw();
		if (window.BS_SELFTEST)
			selftest(window.BS_SELFTEST);
	}

	start();
})();
