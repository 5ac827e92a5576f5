/*
 * lab.js - the bankscope lab's page: the form, the bank maps and the
 * state in the URL (the datasets tab: web/datasets.js).  Every text that comes from the
 * user, a file or the URL reaches the page through textContent and
 * attributes set one by one, never as markup.
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

	/* ---- the bank map ------------------------------------------------------- */

	var TOP = 18;

	/*
	 * The map of prediction r: banks across, the wavefronts of each phase
	 * down; a cell shows the lowest lane it serves (+ when others share
	 * its word).  Red: a wavefront beyond the phase's ideal.
	 */
	var FILL = { idle: "#f1f1f1", one: "#cfe3f6", multi: "#bfe8c6",
		     extra: "#f6c6c0" };

	/*
	 * Drawn on a canvas: a map of 32 wavefronts is a thousand cells, and
	 * as elements their layout alone took more than a frame.  Hover
	 * finds the cell from the pointer's position.
	 */
	/*
	 * A remote kind (another CTA's shared memory): no banks, but the
	 * 32-byte sectors it moves, as a table: one row a 128-byte line,
	 * its four sectors, the lanes whose bytes fall in each.
	 */
	function drawSectors(box, r, id) {
		/* the model's sectors, ascending, in the cells' place */
		var lines = {}, order = [];
		r.cell.forEach(function (c) {
			var ln = Math.floor(c.word / 4);
			if (!lines[ln]) {
				lines[ln] = [0, 0, 0, 0];
				order.push(ln);
			}
			lines[ln][c.word % 4] = c.lanes;
		});
		clear(box);
		box.parentNode.style.maxWidth = "";
		var head = el("tr", {}, [el("th", {}, ["line (byte)"])]);
		for (var k = 0; k < 4; k++)
			head.appendChild(el("th", {}, ["sector " + k]));
		var tb = el("tbody");
		order.forEach(function (ln) {
			var tr = el("tr", {}, [el("th", {}, [ln + " (" +
				ln * 128 + ")"])]);
			lines[ln].forEach(function (lanes) {
				tr.appendChild(el("td", lanes ?
					{ "class": "moved" } : {},
					[lanes ? "lanes " + laneList(lanes) : ""]));
			});
			tb.appendChild(tr);
		});
		box.appendChild(el("table", { "class": "sectors",
			"data-map": id }, [el("thead", {}, [head]), tb]));
		box.appendChild(el("p", { "class": "legend" }, [
			r.sectors + " sectors moved over " + r.lines +
			" lines: a shaded cell is a 32-byte sector the access " +
			"moves; the remote SM's banks are not this SM's to pay"]));
	}

	function drawMap(box, r, id, small) {
		if (r.remote)
			return drawSectors(box, r, id);
		var rows = [], dpr = window.devicePixelRatio || 1;
		var CELL = small ? 16 : 22, LEFT = small ? 52 : 64;
		r.phase.forEach(function (f, pi) {
			if (!f.active)
				return;
			rows.push({ label: "phase " + pi + " (lanes " +
				    laneList(f.lanes) + ")" });
			var ideal = Math.max(1, Math.ceil(f.words / r.banks));
			for (var wv = 0; wv < f.slots; wv++)
				rows.push({ wave: wv, cells: [], ideal: ideal });
			for (var i = 0; i < f.ncells; i++) {
				var ci = f.first_cell + i, c = r.cell[ci];
				rows[rows.length - f.slots + c.wave].cells[c.bank] = ci;
			}
		});
		var w = LEFT + r.banks * CELL + 4, h = TOP + rows.length * CELL + 4;
		/* one canvas a box, kept: a new one costs a new context */
		var cv = box.querySelector("canvas");
		if (!cv) {
			clear(box);
			cv = el("canvas", { "data-map": id });
			box.appendChild(cv);
			box.appendChild(el("p", { "class": "legend" }, [
				el("span", { style: "background:" + FILL.one }),
				"one lane",
				el("span", { style: "background:" + FILL.multi }),
				"lanes sharing a word",
				el("span", { style: "background:" + FILL.extra }),
				"a wavefront beyond the ideal"]));
			cv.addEventListener("mousemove", function (ev) {
				if (cv.hover)
					cv.hover(ev);
			});
			cv.addEventListener("mouseleave", hideTip);
		}
		box.parentNode.style.maxWidth = w + "px";
		cv.width = Math.ceil(w * dpr);
		cv.height = Math.ceil(h * dpr);
		cv.style.width = w + "px";
		cv.style.height = h + "px";
		/* hl: a lane whose cells are outlined (the lanes' table) */
		function paint(hl) {
		var g = cv.getContext("2d"), y = TOP;
		g.setTransform(dpr, 0, 0, dpr, 0, 0);
		g.clearRect(0, 0, w, h);
		g.font = "10px ui-monospace, monospace";
		g.textBaseline = "middle";
		g.fillStyle = "#1b1b1b";
		for (var b = 0; b < r.banks; b++)
			g.fillText(String(b), LEFT + b * CELL + 4, 9);
		rows.forEach(function (row) {
			if (row.label) {
				g.font = "bold 10px ui-monospace, monospace";
				g.fillStyle = "#20323f";
				g.fillText(row.label, 2, y + CELL / 2);
				g.font = "10px ui-monospace, monospace";
				y += CELL;
				return;
			}
			g.fillStyle = "#1b1b1b";
			g.fillText("wave " + row.wave, 2, y + CELL / 2);
			for (var b = 0; b < r.banks; b++) {
				var ci = row.cells[b], x = LEFT + b * CELL;
				if (ci === undefined) {
					g.fillStyle = FILL.idle;
					g.fillRect(x, y, CELL - 2, CELL - 2);
					continue;
				}
				var c = r.cell[ci], n = popcount(c.lanes);
				var extra = row.wave >= row.ideal && !r.copy;
				g.fillStyle = extra ? FILL.extra : n > 1 ? FILL.multi
					: FILL.one;
				g.fillRect(x, y, CELL - 2, CELL - 2);
				g.strokeStyle = extra ? "#c0392b" : "#7a9cb8";
				g.strokeRect(x + 0.5, y + 0.5, CELL - 3, CELL - 3);
				var low = 0;
				while (!(c.lanes >>> low & 1) && low < 31)
					low++;
				g.fillStyle = "#1b1b1b";
				/* small cells: the colour says the word is shared */
				g.fillText(low + (n > 1 && !small ? "+" : ""), x + 2,
					   y + CELL / 2);
				if (hl >= 0 && c.lanes >>> hl & 1) {
					g.lineWidth = 3;
					g.strokeStyle = "#000";
					g.strokeRect(x + 1.5, y + 1.5, CELL - 5, CELL - 5);
					g.lineWidth = 1;
				}
			}
			y += CELL;
		});
		}
		paint(-1);
		cv.paint = paint;
		cv.hover = function (ev) {
			var rc = cv.getBoundingClientRect();
			var row = rows[Math.floor((ev.clientY - rc.top - TOP) / CELL)];
			var b = Math.floor((ev.clientX - rc.left - LEFT) / CELL);
			var ci = row && row.cells && b >= 0 ? row.cells[b] : undefined;
			if (ci === undefined)
				return hideTip();
			var c = r.cell[ci], lanes = [];
			for (var l = 0; l < 32; l++)
				if (c.lanes >>> l & 1)
					lanes.push("lane " + l + " at " + r.addr[l] + " (" +
						   hex(r.addr[l]) + ")");
			showTip(ev, "bank " + c.bank + ", word " + c.word +
				" (byte " + c.word * r.bank_bytes + "), phase " +
				c.phase + ", wave " + c.wave + "\n" + lanes.join("\n"));
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

	function drawLanes(r) {
		var t = el("table", { "class": "lanes" }), box = clear($("lanes"));
		t.appendChild(el("tr", {}, [el("th", {}, "lane"),
			el("th", {}, "address"), el("th", {}, "hex"),
			el("th", {}, "bank"), el("th", {}, "word"),
			el("th", {}, "phase.wave")]));
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
					words.push("sector " + c.word);
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
		return what + ": arch " + r.profile + ", " + r.width + "-byte " +
			r.kind_name + ", " + r.wavefronts + " wavefront" +
			(r.wavefronts === 1 ? "" : "s") + ", ideal " + r.ideal +
			(r.packed ? ", packed" : "");
	}

	/* ---- the redraw ---------------------------------------------------------- */

	var lastMs = 0, pendingHash = null;

	function fail(text) {
		$("error").textContent = text;
		show($("error"), true);
		show($("result"), false);
		/* no stale result: every number and map is emptied */
		document.querySelectorAll("#result td[id]").forEach(function (t) {
			t.textContent = "";
		});
		["map", "map-textbook", "map-fix", "lanes", "passes"].forEach(
			function (id) { clear($(id)); });
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

	function redraw(s, keepUrl) {
		var t0 = performance.now();
		s = s || readForm();
		if (!keepUrl) {
			var h = toHash(s);
			$("permalink").href = h;
			$("permalink").textContent = location.href.replace(/#.*$/, "")
				.replace(/^.*\//, "") + h;
			/*
			 * The address bar after the frame: the browser throttles
			 * history changes, and typing should not wait on them.
			 */
			if (pendingHash === null)
				setTimeout(function () {
					history.replaceState(null, "", pendingHash);
					pendingHash = null;
				}, 0);
			pendingHash = h;
		}
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
		$("out-wavefronts").textContent = r.wavefronts;
		$("out-ideal").textContent = r.ideal;
		$("out-conflicts").textContent = r.conflicts;
		$("out-max_way").textContent = r.max_way + "-way";
		$("out-phases").textContent = r.phases;
		$("out-packed").textContent = r.packed ? "yes" : "no";
		$("out-active_lanes").textContent = r.active_lanes;
		$("out-latency").textContent = isNaN(r.latency) ? "not modeled"
			: r.latency.toFixed(2) + " cycles";
		$("out-throughput").textContent = throughput(r);
		if (r.remote)
			$("out-note").textContent = "another CTA's shared " +
				"memory: " + r.sectors + " sectors of 32 bytes " +
				"moved" + (r.passes ? " (" + r.passes + " passes, " +
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
		drawMap($("map"), r, "main", tb);
		show($("fig-textbook"), tb);
		if (!tb)
			clear($("map-textbook"));
		else {
			var t = model.predict(2, 1);
			if (!t.error) {
				$("cap-textbook").textContent = caption(t, "the textbook " +
					"picture") + (t.wavefronts !== r.wavefronts ?
					" (the measured model: " + r.wavefronts + ")" : "");
				drawMap($("map-textbook"), t, "textbook", true);
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
			$("fix-code").textContent = f.changed ? f.declaration +
				(f.index ? "\n" + f.index : "") : "";
			$("fix-note").textContent = f.changed ? f.note +
				(f.warning ? " warning: " + f.warning : "") : "";
			if (f.after)
				drawMap($("map-fix"), f.after, "fix");
			else
				clear($("map-fix"));
		}
		show($("result"), true);
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

	function tab(which) {
		show($("lab"), which === "lab");
		show($("data"), which === "data");
		$("tab-lab").classList.toggle("on", which === "lab");
		$("tab-data").classList.toggle("on", which === "data");
		if (which === "data" && !$("d-view").firstChild)
			data.draw();
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
			writeForm(fromHash(location.hash));
			redraw(null, true);
		});
		$("tab-lab").addEventListener("click", function () { tab("lab"); });
		$("tab-data").addEventListener("click", function () { tab("data"); });
		$("d-a").addEventListener("change", data.draw);
		$("d-b").addEventListener("change", data.draw);
		$("d-file").addEventListener("change", function () {
			var f = $("d-file").files[0];
			if (f)
				f.arrayBuffer().then(function (b) {
					data.open(f.name, new Uint8Array(b));
				});
		});
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
			var g = function (id) { return $("out-" + id).textContent; };
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
		kindsInit();
		data = BankscopeData.init({ model: model, $: $, el: el, svg: svg,
			clear: clear, show: show, kinds: kinds });
		wire();
		show($("loading"), false);
		show($("lab"), true);
		var s = fromHash(location.hash);
		writeForm(Object.keys(s).length ? s : { kind: "ld", width: "4",
			expr: "lane * 2" });
		redraw(null, !location.hash);
		if (s.tab === "data")
			tab("data");
		if (window.BS_SELFTEST)
			selftest(window.BS_SELFTEST);
	}

	start();
})();
