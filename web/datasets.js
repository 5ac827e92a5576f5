/*
 * datasets.js - the bankscope lab's datasets tab: the built-in and the
 * opened datasets, their verdict and charts, and two side by side.
 * BankscopeData.init(ctx) takes what it shares with lab.js (the model and
 * the page's small DOM helpers) and returns { draw, open, verdictLine }.
 * Every text that comes from a file reaches the page through textContent
 * and attributes set one by one, never as markup.
 */
"use strict";

var BankscopeData = (function () {
	var model, $, el, svg, clear, show, kinds, tip, untip, onState;
	var datasets = [], drawn = 0;

	/*
	 * Series colours (Okabe and Ito's, yellow replaced by a darker one)
	 * and, turning with them, five marker shapes: series k and k + 8
	 * never look alike, and none is told by colour alone.
	 */
	var COLORS = ["#0072b2", "#e69f00", "#009e73", "#d55e00", "#cc79a7",
		"#56b4e9", "#1b1b1b", "#8c6d00"];
	var SHAPES = ["circle", "square", "triangle", "diamond", "down"];

	function marker(k, x, y, r) {
		var c = COLORS[k % COLORS.length], shape = SHAPES[k % SHAPES.length];
		x = Math.round(x * 10) / 10;
		y = Math.round(y * 10) / 10;
		var a = { fill: c, "data-series": k };
		if (shape === "circle")
			return svg("circle", Object.assign(a, { cx: x, cy: y, r: r }));
		if (shape === "square")
			return svg("rect", Object.assign(a, { x: x - r, y: y - r,
				width: 2 * r, height: 2 * r }));
		var p = shape === "triangle" ? [[0, -1.2], [1.1, 0.9], [-1.1, 0.9]]
			: shape === "down" ? [[0, 1.2], [1.1, -0.9], [-1.1, -0.9]]
			: [[0, -1.3], [1.3, 0], [0, 1.3], [-1.3, 0]];
		return svg("polygon", Object.assign(a, { points: p.map(function (q) {
			return (x + q[0] * r).toFixed(1) + "," + (y + q[1] * r).toFixed(1);
		}).join(" ") }));
	}

	/*
	 * Ticks at 1, 2 or 5 times a power of ten, three to eight of them,
	 * covering lo..hi: the step whose last tick passes hi the least (on a
	 * tie, the one nearer five ticks).
	 */
	function niceTicks(lo, hi) {
		if (!(hi > lo))
			hi = lo + 1;
		var p = Math.pow(10, Math.floor(Math.log10(hi - lo)) - 1), best = null;
		[1, 2, 5, 10, 20, 50, 100].forEach(function (m) {
			var step = m * p, a = Math.floor(lo / step + 1e-9);
			var b = Math.ceil(hi / step - 1e-9), n = b - a + 1;
			if (n < 3 || n > 8)
				return;
			var over = b * step - hi, c = { a: a, b: b, step: step,
				over: over, off: Math.abs(n - 5) };
			if (!best || over < best.over - 1e-9 || (over < best.over +
			    1e-9 && c.off < best.off))
				best = c;
		});
		var out = [];
		for (var i = best.a; i <= best.b; i++)
			out.push(+(i * best.step).toFixed(9));
		return out;
	}

	/* A logarithmic axis of strides: 0 and the powers of two. */
	function strideTicks(hi) {
		var out = [0, 1];
		while (out[out.length - 1] < hi)
			out.push(out[out.length - 1] * 2);
		return out;
	}

	/*
	 * A scatter chart: series [{name, pts: [[x, y, row name]]}], in a
	 * figure with its legend below it (never over the points), and the
	 * point under the pointer, or the one the arrow keys reach, named in
	 * a tooltip and in a line of text below.
	 */
	function scatter(title, xl, yl, series, logx) {
		var W = 520, H = 290, L = 52, B = 40, T = 26, R = 18;
		var fig = el("figure", { "class": "chart" });
		var xs = [], ys = [];
		series.forEach(function (s) {
			s.pts.forEach(function (p) { xs.push(p[0]); ys.push(p[1]); });
		});
		var g = svg("svg", { width: W, height: H, viewBox: "0 0 " + W +
				     " " + H, role: "img", tabindex: "0" });
		fig.appendChild(g);
		g.appendChild(svg("text", { x: L, y: 14, "font-weight": "bold" },
				  title));
		if (!xs.length) {
			g.setAttribute("aria-label", title + ": no rows");
			g.appendChild(svg("text", { x: L, y: 60 }, "no rows"));
			return fig;
		}
		var xt = logx ? strideTicks(Math.max.apply(null, xs))
			: niceTicks(Math.min(0, Math.min.apply(null, xs)),
				    Math.max.apply(null, xs));
		var yt = niceTicks(0, Math.max.apply(null, ys));
		var tx = function (v) { return logx ? Math.log2(v + 1) : v; };
		var x0 = tx(xt[0]), x1 = tx(xt[xt.length - 1]);
		var y0 = yt[0], y1 = yt[yt.length - 1];
		var px = function (v) { return L + (tx(v) - x0) / (x1 - x0) * (W - L - R); };
		var py = function (v) { return H - B - (v - y0) / (y1 - y0) * (H - B - T); };
		g.appendChild(svg("rect", { x: L, y: T, width: W - L - R,
			height: H - B - T, fill: "none", "class": "plot" }));
		yt.forEach(function (v) {
			g.appendChild(svg("line", { x1: L, y1: py(v), x2: W - R, y2: py(v),
				"class": "grid" }));
			g.appendChild(svg("text", { x: L - 4, y: py(v) + 3,
				"text-anchor": "end", "class": "tick-y" }, String(v)));
		});
		xt.forEach(function (v) {
			g.appendChild(svg("line", { x1: px(v), y1: T, x2: px(v), y2: H - B,
				"class": "grid" }));
			g.appendChild(svg("text", { x: px(v), y: H - B + 13,
				"text-anchor": "middle", "class": "tick-x" }, String(v)));
		});
		g.appendChild(svg("line", { x1: L, y1: H - B, x2: W - R, y2: H - B, "class": "axis" }));
		g.appendChild(svg("line", { x1: L, y1: T, x2: L, y2: H - B, "class": "axis" }));
		g.appendChild(svg("text", { x: L + (W - L - R) / 2, y: H - 6,
			"text-anchor": "middle" }, xl + (logx ? " (log scale)" : "")));
		g.appendChild(svg("text", { x: 12, y: T + (H - B - T) / 2,
			"text-anchor": "middle", transform: "rotate(-90 12 " +
			(T + (H - B - T) / 2) + ")" }, yl));
		var legend = el("ul", { "class": "chart-legend" });
		var all = [];           /* every point: [series, x, y, px, py, name] */
		series.forEach(function (s, k) {
			var grp = svg("g", { "fill-opacity": "0.75" });
			s.pts.forEach(function (p) {
				var cx = px(p[0]), cy = py(p[1]);
				grp.appendChild(marker(k, cx, cy, 3));
				all.push([k, p[0], p[1], cx, cy, p[2]]);
			});
			g.appendChild(grp);
			var m = svg("svg", { width: 12, height: 12, "aria-hidden": "true" });
			m.appendChild(marker(k, 6, 6, 4));
			legend.appendChild(el("li", {}, [m, s.name + " (" + s.pts.length +
				")"]));
		});
		fig.appendChild(legend);
		var detail = el("p", { "class": "cell-detail", "aria-live": "polite" });
		fig.appendChild(detail);
		g.setAttribute("aria-label", title + ": " + series.length +
			" series, " + all.length + " points; arrow keys step through " +
			"the points (left and right along a series, up and down " +
			"between series)");
		var ring = svg("circle", { r: 6, "class": "focus", visibility: "hidden" });
		g.appendChild(ring);
		/* each series' points by x, for the keyboard */
		var bySeries = series.map(function (s, k) {
			return all.filter(function (a) { return a[0] === k; })
				.sort(function (a, b) { return a[1] - b[1] || a[2] - b[2]; });
		});
		var at = null;
		function say(a) {
			ring.setAttribute("cx", a[3]);
			ring.setAttribute("cy", a[4]);
			ring.setAttribute("visibility", "visible");
			var t = series[a[0]].name + ": " + a[5] + ", " + xl + " " +
				a[1] + ", " + yl + " " + a[2];
			detail.textContent = t;
			return t;
		}
		g.addEventListener("mousemove", function (ev) {
			var rc = g.getBoundingClientRect(), sc = W / rc.width;
			var mx = (ev.clientX - rc.left) * sc, my = (ev.clientY - rc.top) * sc;
			var best = null, bd = 100;
			all.forEach(function (a) {
				var d = (a[3] - mx) * (a[3] - mx) + (a[4] - my) * (a[4] - my);
				if (d < bd) {
					bd = d;
					best = a;
				}
			});
			if (!best)
				return untip();
			tip(ev, say(best));
		});
		g.addEventListener("mouseleave", untip);
		g.addEventListener("keydown", function (ev) {
			var k = at ? at[0] : 0, list = bySeries[k], i = at ?
				list.indexOf(at) : -1;
			if (!at && /^(Arrow|Home|End)/.test(ev.key)) {
				at = bySeries.filter(function (l) { return l.length; })[0][0];
			} else if (ev.key === "ArrowRight") {
				at = list[Math.min(list.length - 1, i + 1)];
			} else if (ev.key === "ArrowLeft") {
				at = list[Math.max(0, i - 1)];
			} else if (ev.key === "ArrowDown" || ev.key === "ArrowUp") {
				var n = series.length, d = ev.key === "ArrowDown" ? 1 : n - 1;
				for (var j = (k + d) % n; j !== k; j = (j + d) % n)
					if (bySeries[j].length)
						break;
				var x = at[1];
				at = bySeries[j].reduce(function (m, a) {
					return Math.abs(a[1] - x) < Math.abs(m[1] - x) ? a : m;
				});
			} else if (ev.key === "Home") {
				at = list[0];
			} else if (ev.key === "End") {
				at = list[list.length - 1];
			} else {
				return;
			}
			ev.preventDefault();
			say(at);
		});
		return fig;
	}

	function kindName(k) {
		return kinds[k] ? kinds[k].name : "?";
	}

	function median(v) {
		if (!v.length)
			return NaN;
		v = v.slice().sort(function (a, b) { return a - b; });
		var m = v.length >> 1;
		return v.length & 1 ? v[m] : (v[m - 1] + v[m]) / 2;
	}

	/* least squares y = a + b x */
	function fit(pts) {
		var n = pts.length, sx = 0, sy = 0, sxx = 0, sxy = 0;
		pts.forEach(function (p) {
			sx += p[0]; sy += p[1]; sxx += p[0] * p[0]; sxy += p[0] * p[1];
		});
		var d = n * sxx - sx * sx;
		if (n < 2 || Math.abs(d) < 1e-12)
			return null;
		var b = (n * sxy - sx * sy) / d;
		return { a: (sy - b * sx) / n, b: b, n: n };
	}

	/*
	 * Per kind and width: the measured rows, a latency line over the
	 * unpacked timed rows (cycles against measured wavefronts) and the
	 * median throughput of the full-warp conflict-free unpacked rows.
	 */
	function groups(d) {
		var g = {};
		d.row.forEach(function (r) {
			var key = kindName(r.kind) + " " + r.width;
			var o = g[key] = g[key] || { kind: r.kind, width: r.width,
				n: 0, lat: [], tp: [], wf: {} };
			/* rows with a note are skipped, as check and report do */
			if (isNaN(r.wf_m) || r.verdict === 2)
				return;
			o.n++;
			o.wf[r.probe + "/" + r.name] = r.wf_m;
			if (!r.packed && !isNaN(r.cycles))
				o.lat.push([r.wf_m, r.cycles]);
			if (!r.packed && r.active === 32 && r.wf_m === r.ideal_p &&
			    !isNaN(r.tp_bytes))
				o.tp.push(r.tp_bytes);
		});
		Object.keys(g).forEach(function (k) {
			g[k].fit = fit(g[k].lat);
			g[k].tpm = median(g[k].tp);
		});
		return g;
	}

	function verdictLine(d) {
		var c = d.count, measured = c.agree + c.disagree;
		var word = !measured ? "NOT CHECKED" : c.disagree ? "DISAGREES"
			: "AGREES";
		return word + ": " + d.rows + " rows, " + measured + " measured, " +
			c.agree + " agree, " + c.disagree + " disagree, " +
			c.skipped + " skipped, " + c.timing + " timing only" +
			(c.not_modeled ? ", " + c.not_modeled + " not modeled" : "") +
			" (arch " + (d.profile || "none") + ")";
	}

	function lineText(f) {
		return f ? f.a.toFixed(2) + " + " + f.b.toFixed(3) + " x wf" : "-";
	}

	function drawDataset(d, box) {
		box.appendChild(el("h2", {}, d.name + (d.meta.gpu ? ": " + d.meta.gpu
						       : "")));
		box.appendChild(el("p", { "class": "verdict" + (d.count.disagree ?
			" bad" : ""), id: "d-verdict" }, verdictLine(d)));
		var meta = ["compute_capability", "date", "sm_clock_mhz_measured",
			"driver_version"].filter(function (k) { return d.meta[k]; })
			.map(function (k) { return k + ": " + d.meta[k]; });
		box.appendChild(el("p", { "class": "note" }, meta.join("; ")));
		var bad = d.row.filter(function (r) { return r.verdict === 1; });
		if (bad.length) {
			var t = el("table", { "class": "rows", id: "d-disagree" });
			t.appendChild(el("tr", {}, ["line", "probe", "name", "width",
				"kind", "measured wf", "predicted wf",
				"measured conflicts", "predicted conflicts"].map(
				function (h) { return el("th", {}, h); })));
			bad.slice(0, 200).forEach(function (r) {
				t.appendChild(el("tr", {}, [r.line, r.probe, r.name,
					r.width, kindName(r.kind), r.wf_m, r.wf_p,
					isNaN(r.conf_m) ? "" : r.conf_m, r.conf_p].map(
					function (v) { return el("td", {}, v); })));
			});
			box.appendChild(el("h3", {}, "Rows that disagree" +
				(bad.length > 200 ? " (the first 200 of " + bad.length +
				 ")" : "")));
			box.appendChild(t);
		}
		var charts = el("div", { "class": "charts" });
		/* stride: f32 and others by stride, from the stride probe */
		var byw = {};
		d.row.forEach(function (r) {
			var m = /_s(\d+)$/.exec(r.name);
			if (r.probe !== "stride" || !m || isNaN(r.wf_m))
				return;
			var k = r.width + "-byte " + kindName(r.kind);
			(byw[k] = byw[k] || []).push([+m[1], r.wf_m, r.name]);
		});
		charts.appendChild(scatter("stride: wavefronts measured",
			"stride (elements)", "wavefronts",
			Object.keys(byw).map(function (k) {
				return { name: k, pts: byw[k] };
			}), true));
		/* latency: cycles against wavefronts, by width (loads) */
		var lat = {};
		d.row.forEach(function (r) {
			if (isNaN(r.cycles) || isNaN(r.wf_m) || r.kind !== 0)
				return;
			var k = r.width + "-byte ld" + (r.packed ? " packed" : "");
			(lat[k] = lat[k] || []).push([r.wf_m, r.cycles, r.name]);
		});
		charts.appendChild(scatter("latency: loads", "wavefronts measured",
			"cycles", Object.keys(lat).sort().map(function (k) {
				return { name: k, pts: lat[k] };
			})));
		/* throughput: bytes per clock against wavefronts */
		var tp = {};
		d.row.forEach(function (r) {
			if (isNaN(r.tp_bytes) || isNaN(r.wf_m) || r.kind > 1)
				return;
			var k = r.width + "-byte " + kindName(r.kind);
			(tp[k] = tp[k] || []).push([r.wf_m, r.tp_bytes, r.name]);
		});
		charts.appendChild(scatter("throughput: loads and stores",
			"wavefronts measured", "B/clk/SM", Object.keys(tp).sort()
				.map(function (k) { return { name: k, pts: tp[k] }; })));
		/* kinds: cycles against wavefronts, the matrix kinds, then the
		   atomics and cp.async (every kind: no series is left out) */
		[["kinds: ldmatrix and stmatrix", function (k) {
			return /^(ld|st)sm/.test(k);
		}], ["kinds: atomics and cp.async", function (k) {
			return /^(atom|red|cp)/.test(k);
		}]].forEach(function (c) {
			var kd = {};
			d.row.forEach(function (r) {
				var k = kindName(r.kind);
				if (!c[1](k) || isNaN(r.cycles) || isNaN(r.wf_m))
					return;
				(kd[k] = kd[k] || []).push([r.wf_m, r.cycles, r.name]);
			});
			charts.appendChild(scatter(c[0], "wavefronts measured",
				"cycles", Object.keys(kd).map(function (k) {
					return { name: k, pts: kd[k] };
				})));
		});
		box.appendChild(charts);
	}

	function drawCompare(a, b, box) {
		var ga = groups(a), gb = groups(b);
		var keys = Object.keys(ga).concat(Object.keys(gb).filter(
			function (k) { return !ga[k]; }));
		keys.sort(function (x, y) {
			var p = (ga[x] || gb[x]), q = (ga[y] || gb[y]);
			return p.kind - q.kind || p.width - q.width;
		});
		var t = el("table", { "class": "rows", id: "d-compare" });
		t.appendChild(el("tr", {}, ["kind", "width", "rows A", "rows B",
			"rows both", "wavefronts differ", "latency A", "latency B",
			"throughput A", "throughput B"].map(function (h) {
				return el("th", {}, h);
			})));
		var differ = [];
		keys.forEach(function (k) {
			var x = ga[k], y = gb[k], both = 0, diff = 0;
			if (x && y)
				Object.keys(x.wf).forEach(function (n) {
					if (y.wf[n] === undefined)
						return;
					both++;
					if (Math.abs(y.wf[n] - x.wf[n]) > 1e-6) {
						diff++;
						if (differ.length < 50)
							differ.push(k + ": " + n + ": " + x.wf[n] +
								    " vs " + y.wf[n]);
					}
				});
			var g = x || y;
			t.appendChild(el("tr", {}, [kindName(g.kind), g.width,
				x ? x.n : "-", y ? y.n : "-", both, diff,
				x ? lineText(x.fit) : "-", y ? lineText(y.fit) : "-",
				x && !isNaN(x.tpm) ? x.tpm.toFixed(2) : "-",
				y && !isNaN(y.tpm) ? y.tpm.toFixed(2) : "-"].map(
				function (v) { return el("td", {}, v); })));
		});
		box.appendChild(el("h2", {}, "Side by side: A " + (a.meta.gpu ||
			a.name) + ", B " + (b.meta.gpu || b.name)));
		box.appendChild(el("p", { id: "d-rules" }, differ.length ?
			"The bank rules differ: rows of one probe and name that " +
			"measured other wavefronts: " + differ.join("; ") :
			"The bank rules agree: every row both measured gives the " +
			"same wavefronts on both GPUs."));
		box.appendChild(el("p", { "class": "note" }, "latency: a " +
			"least-squares line of cycles over measured wavefronts, " +
			"unpacked timed rows; throughput: the median bytes per " +
			"clock per SM of the full-warp, conflict-free, unpacked " +
			"rows."));
		box.appendChild(t);
	}

	function datasetOptions() {
		["d-a", "d-b"].forEach(function (id, k) {
			var sel = $(id), v = sel.value;
			clear(sel);
			if (k)
				sel.appendChild(el("option", { value: "" }, "none"));
			datasets.forEach(function (d, i) {
				sel.appendChild(el("option", { value: i }, d.label));
			});
			if (v !== "" && +v < datasets.length)
				sel.value = v;
		});
	}

	function loadDataset(i) {
		var d = datasets[i];
		if (d.parsed)
			return Promise.resolve(d.parsed);
		return d.bytes().then(function (bytes) {
			d.parsed = model.dataset(0, d.name, bytes);
			return d.parsed;
		});
	}

	/*
	 * The view of A (and B beside it).  The built-in datasets unpack
	 * after a promise: a draw asked for meanwhile wins, and the older one
	 * draws nothing.
	 */
	function drawData() {
		var box = clear($("d-view")), a = $("d-a").value,
			b = $("d-b").value, me = ++drawn;
		show($("d-error"), false);
		if (a === "")
			return Promise.resolve();
		return loadDataset(+a).then(function (da) {
			if (me !== drawn)
				return;
			if (da.error)
				return dataError(da.error);
			drawDataset(da, box);
			if (b === "" || b === a)
				return;
			return loadDataset(+b).then(function (db) {
				if (me !== drawn)
					return;
				if (db.error)
					return dataError(db.error);
				drawCompare(da, db, box);
				drawDataset(db, box);
			});
		});
	}

	/*
	 * The datasets chosen, for the URL: a and b when they are not the
	 * first two (b=none: no second).  setState: a URL's choice (one the
	 * page does not hold leaves the first two); true when it changed.
	 */
	function defaultB() {
		return datasets.length > 1 ? "1" : "";
	}
	function state() {
		var o = {}, a = $("d-a").value, b = $("d-b").value;
		if (a !== "0")
			o.a = a;
		if (b !== defaultB())
			o.b = b === "" ? "none" : b;
		return o;
	}
	function setState(s) {
		var ok = function (v) {
			return /^[0-9]+$/.test(v || "") && +v < datasets.length;
		};
		var a = ok(s.a) ? s.a : "0";
		var b = s.b === "none" ? "" : ok(s.b) ? s.b : defaultB();
		var changed = a !== $("d-a").value || b !== $("d-b").value;
		$("d-a").value = a;
		$("d-b").value = b;
		return changed;
	}

	function dataError(text) {
		$("d-error").textContent = text;
		show($("d-error"), true);
	}

	/*
	 * A dataset from bytes (a file the user opened, or a test's): read
	 * now, so that a bad one is named at once and never listed.
	 */
	function openDataset(name, bytes) {
		var p = model.dataset(0, name, bytes);
		if (p.error) {
			clear($("d-view"));
			dataError(p.error);
			return p;
		}
		datasets.push({ label: name, name: name, parsed: p });
		datasetOptions();
		$("d-a").value = String(datasets.length - 1);
		drawData();
		onState();
		return p;
	}

	function init(ctx) {
		model = ctx.model;
		$ = ctx.$;
		el = ctx.el;
		svg = ctx.svg;
		clear = ctx.clear;
		show = ctx.show;
		kinds = ctx.kinds;
		tip = ctx.tip;
		untip = ctx.untip;
		onState = ctx.onState || function () {};
		BS_DATA.forEach(function (d) {
			datasets.push({ label: d.label, name: d.name,
				bytes: function () {
					return Bankscope.gunzip(Bankscope.base64(d.gz));
				} });
		});
		datasetOptions();
		if (datasets.length > 1)
			$("d-b").value = "1";
		return { draw: drawData, open: openDataset,
			 verdictLine: verdictLine, state: state,
			 setState: setState };
	}

	return { init: init };
})();
