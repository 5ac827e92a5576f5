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
	var model, $, el, svg, clear, show, kinds, datasets = [];

	var COLORS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
		"#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"];

	/* A scatter chart: series [{name, pts: [[x, y]]}] */
	function scatter(title, xl, yl, series, logx) {
		var W = 500, H = 300, L = 48, B = 36, T = 32, R = 160;
		var xs = [], ys = [];
		series.forEach(function (s) {
			s.pts.forEach(function (p) { xs.push(p[0]); ys.push(p[1]); });
		});
		var g = svg("svg", { width: W, height: H, viewBox: "0 0 " + W + " " + H });
		g.appendChild(svg("text", { x: L, y: 14, "font-weight": "bold" },
				  title));
		if (!xs.length) {
			g.appendChild(svg("text", { x: L, y: 60 }, "no rows"));
			return g;
		}
		var tx = function (v) { return logx ? Math.log2(v + 1) : v; };
		var x0 = Math.min.apply(null, xs.map(tx)), x1 = Math.max.apply(null, xs.map(tx));
		var y0 = 0, y1 = Math.max.apply(null, ys);
		if (x1 === x0) x1 = x0 + 1;
		if (y1 === y0) y1 = y0 + 1;
		var px = function (v) { return L + (tx(v) - x0) / (x1 - x0) * (W - L - R); };
		var py = function (v) { return H - B - (v - y0) / (y1 - y0) * (H - B - T); };
		g.appendChild(svg("line", { x1: L, y1: H - B, x2: W - R, y2: H - B, "class": "axis" }));
		g.appendChild(svg("line", { x1: L, y1: T, x2: L, y2: H - B, "class": "axis" }));
		for (var i = 0; i <= 4; i++) {
			var yv = y0 + (y1 - y0) * i / 4;
			g.appendChild(svg("text", { x: 2, y: py(yv) + 4 }, +yv.toFixed(1)));
			var xv = x0 + (x1 - x0) * i / 4;
			var lab = logx ? Math.round(Math.pow(2, xv) - 1) : +xv.toFixed(1);
			g.appendChild(svg("text", { x: L + (xv - x0) / (x1 - x0) * (W - L - R) - 6, y: H - B + 14 }, lab));
		}
		g.appendChild(svg("text", { x: L + 60, y: H - 4 }, xl));
		g.appendChild(svg("text", { x: 2, y: T - 8 }, yl));
		series.forEach(function (s, k) {
			var c = COLORS[k % COLORS.length];
			s.pts.forEach(function (p) {
				g.appendChild(svg("circle", { cx: px(p[0]), cy: py(p[1]), r: 2.5, fill: c, "fill-opacity": 0.7 }));
			});
			g.appendChild(svg("circle", { cx: W - R + 12, cy: T + 10 + k * 14, r: 4, fill: c }));
			g.appendChild(svg("text", { x: W - R + 20, y: T + 14 + k * 14 }, s.name + " (" + s.pts.length + ")"));
		});
		return g;
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
			(byw[k] = byw[k] || []).push([+m[1], r.wf_m]);
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
			(lat[k] = lat[k] || []).push([r.wf_m, r.cycles]);
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
			(tp[k] = tp[k] || []).push([r.wf_m, r.tp_bytes]);
		});
		charts.appendChild(scatter("throughput: loads and stores",
			"wavefronts measured", "B/clk/SM", Object.keys(tp).sort()
				.map(function (k) { return { name: k, pts: tp[k] }; })));
		/* kinds: cycles against wavefronts, the matrix kinds, then the
		   atomics and cp.async (10 series a chart at most) */
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
				(kd[k] = kd[k] || []).push([r.wf_m, r.cycles]);
			});
			charts.appendChild(scatter(c[0], "wavefronts measured",
				"cycles", Object.keys(kd).slice(0, 10).map(function (k) {
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

	function drawData() {
		var box = clear($("d-view")), a = $("d-a").value,
			b = $("d-b").value;
		show($("d-error"), false);
		if (a === "")
			return Promise.resolve();
		return loadDataset(+a).then(function (da) {
			if (da.error)
				return dataError(da.error);
			drawDataset(da, box);
			if (b === "" || b === a)
				return;
			return loadDataset(+b).then(function (db) {
				if (db.error)
					return dataError(db.error);
				drawCompare(da, db, box);
				drawDataset(db, box);
			});
		});
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
			 verdictLine: verdictLine };
	}

	return { init: init };
})();
