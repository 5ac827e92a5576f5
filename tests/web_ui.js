/*
 * web_ui.js - the lab page as a user meets it, for tests/web_test.sh.
 *
 * web_test.sh puts this script at the end of a copy of the page and opens
 * that copy in iframes of fixed sizes (390 x 844, 1024 x 768, ...), one a
 * scenario named by the query (page.html?w390#kind=...).  The scenario
 * drives the page as a user would (window sizes, scrolling, clicks, keys,
 * the pointer) and writes what the page then shows, one "what: value"
 * line each, into the parent's <pre id="ui-NAME">; web_test.sh compares
 * the lines with the values they must have.  Nothing here is part of the
 * page a user gets.
 */
"use strict";

(function () {
	var S = location.search.slice(1), out = [];
	var $ = function (id) { return document.getElementById(id); };

	function say(k, v) {
		out.push(k + ": " + v);
	}
	function finish() {
		var t = parent.document.getElementById("ui-" + S);
		if (t)
			t.textContent = out.join("\n") + "\nEND\n";
	}
	function wait(ms) {
		return new Promise(function (r) { setTimeout(r, ms || 50); });
	}
	function shown(e) {
		return !!e && e.getClientRects().length > 0 ? "yes" : "no";
	}
	function key(e, k) {
		e.dispatchEvent(new KeyboardEvent("keydown", { key: k,
			bubbles: true, cancelable: true }));
	}
	function move(e, x, y) {
		var r = e.getBoundingClientRect();
		e.dispatchEvent(new MouseEvent("mousemove", { clientX: r.left + x,
			clientY: r.top + y, bubbles: true }));
	}
	function text(e) {
		return e ? e.textContent.replace(/\s+/g, " ").trim() : "(none)";
	}

	/*
	 * Can a user bring point (x, y) of e into view and see e there?  Each
	 * box that scrolls across is scrolled to it, as a user would, and the
	 * window too; then the element at that point must be e.
	 */
	function reach(e, x, y) {
		if (!e)
			return "no (no element)";
		e.scrollIntoView({ block: "center", inline: "nearest" });
		for (var a = e.parentElement; a; a = a.parentElement) {
			var ox = getComputedStyle(a).overflowX;
			if (ox !== "auto" && ox !== "scroll")
				continue;
			var px = e.getBoundingClientRect().left + x;
			var ar = a.getBoundingClientRect();
			if (px > ar.left + a.clientWidth - 2)
				a.scrollLeft += px - (ar.left + a.clientWidth) + 8;
		}
		var r = e.getBoundingClientRect();
		if (r.left + x > innerWidth - 2)
			scrollBy(r.left + x - innerWidth + 8, 0);
		r = e.getBoundingClientRect();
		var hit = document.elementFromPoint(r.left + x, r.top + y);
		return hit === e || e.contains(hit) ? "yes" : "no (" + (hit ?
			hit.tagName.toLowerCase() + (hit.id ? "#" + hit.id : "") :
			"nothing") + " at " + Math.round(r.left + x) + ")";
	}

	/* the main map's cell size and left margin, from its canvas */
	function geometry(cv) {
		var w = cv.clientWidth, left = (w - 4 - 64) / 32 >= 20 ? 64 : 52;
		return { cell: (w - 4 - left) / 32, left: left, top: 18 };
	}

	/* ---- colours: sRGB, relative luminance, colour-blindness ---------------- */

	function rgb(c) {
		var m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(c.trim());
		return m ? [1, 2, 3].map(function (i) { return parseInt(m[i], 16); })
			: null;
	}
	function lin(v) {
		v /= 255;
		return v <= 0.04045 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4);
	}
	function unlin(v) {
		v = Math.max(0, Math.min(1, v));
		return 255 * (v <= 0.0031308 ? 12.92 * v
			      : 1.055 * Math.pow(v, 1 / 2.4) - 0.055);
	}
	/* WCAG 2 relative luminance and contrast ratio */
	function lum(c) {
		var x = rgb(c).map(lin);
		return 0.2126 * x[0] + 0.7152 * x[1] + 0.0722 * x[2];
	}
	function contrast(a, b) {
		var x = lum(a), y = lum(b);
		return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
	}
	/* Machado, Oliveira and Fernandes (2009), severity 1, on linear RGB */
	var CVD = {
		deutan: [[0.367322, 0.860646, -0.227968], [0.280085, 0.672501,
			0.047413], [-0.011820, 0.042940, 0.968881]],
		protan: [[0.152286, 1.052583, -0.204868], [0.114503, 0.786281,
			0.099216], [-0.003882, -0.048116, 1.051998]],
		tritan: [[1.255528, -0.076749, -0.178779], [-0.078411, 0.930809,
			0.147602], [0.004733, 0.691367, 0.303900]]
	};
	function seen(c, m) {
		var x = rgb(c).map(lin);
		return CVD[m].map(function (r) {
			return unlin(r[0] * x[0] + r[1] * x[1] + r[2] * x[2]);
		});
	}
	function dist(a, b) {
		return Math.sqrt(a.reduce(function (s, v, i) {
			return s + (v - b[i]) * (v - b[i]);
		}, 0));
	}
	function pairs(name, f) {
		var ks = ["one", "multi", "extra"];
		for (var i = 0; i < 3; i++)
			for (var j = i + 1; j < 3; j++) {
				var a = f[ks[i]], b = f[ks[j]];
				say(name + " " + ks[i] + "/" + ks[j], ["deutan", "protan",
					"tritan"].map(function (m) {
						return m + "=" + dist(seen(a, m),
							seen(b, m)).toFixed(1);
					}).join(" ") + " contrast=" + contrast(a, b).toFixed(2));
			}
	}
	function pixel(cv, x, y) {
		var d = cv.getContext("2d").getImageData(Math.round(x),
			Math.round(y), 1, 1).data;
		return d[0] + "," + d[1] + "," + d[2];
	}
	function rgbText(c) {
		return rgb(c).join(",");
	}

	/* ---- the scenarios ------------------------------------------------------ */

	var scenario = {};

	/* 1: at any width every part can be reached, nothing past the page */
	function layout(fits) {
		var cv = $("map").querySelector("canvas");
		say("page wider than the window", document.documentElement
			.scrollWidth > innerWidth ? "yes (" + document
			.documentElement.scrollWidth + " px)" : "no");
		if (fits)
			say("map fits its column", cv && cv.getBoundingClientRect()
			    .right <= $("out").getBoundingClientRect().right + 0.5 ?
			    "yes" : "no");
		var w = cv ? cv.clientWidth : 0, h = cv ? cv.clientHeight : 0;
		say("map bank 31 reachable", reach(cv, w - 8, h - 8));
		if (cv) {
			move(cv, w - 8, h - 8);
			say("map bank 31 shows", text($("map-cell")));
		}
		var th = document.querySelector("#lanes th:last-child");
		say("lanes' last column reachable", th ? reach(th,
			th.clientWidth - 4, th.clientHeight / 2) : "no (no table)");
		var out = [];
		document.querySelectorAll("#result [id^=out-]").forEach(function (d) {
			if (!d.getClientRects().length || d.id === "out-note")
				return;
			var r = d.getBoundingClientRect();
			if (r.left < 0 || r.right > innerWidth + 0.5)
				out.push(d.id);
		});
		say("numbers outside the window", out.length ? out.join(" ") : "none");
	}
	scenario.w1024 = function () { layout(true); };
	scenario.w390 = function () { layout(false); };

	/* 2: a remote kind shows its cost in the numbers */
	scenario.dsmem = function () {
		document.querySelectorAll(".nums > div").forEach(function (d) {
			if (d.getClientRects().length)
				say(text(d.querySelector("dt")), text(d.querySelector("dd")) +
				    (d.querySelector("dd.bad") ? " [marked]" : ""));
		});
		var lane8 = document.querySelector("#lanes tr[data-lane='8']");
		say("lanes' table, lane 8", lane8 ? text(lane8.children[4]) : "(none)");
		say("sector table, sector 33", text(document.querySelector(
			"#map td[data-sector='33']")));
		say("sector table, sector 34", text(document.querySelector(
			"#map td[data-sector='34']")));
		say("sectors shaded", document.querySelectorAll("#map td.moved").length);
		fixLines();
	};
	function fixLines() {
		say("fix", text($("fix-summary")));
		say("fix code shown", shown($("fix-code")) + " " + JSON.stringify(
			$("fix-code").textContent));
		say("after figure shown", shown($("fig-fix")));
	}
	scenario.fixnone = fixLines;
	scenario.fixpad = fixLines;

	/* 3: the tile, drawn, its read elements told by keyboard and pointer */
	function tileCells(moves) {
		say("caption", text($("cap-tile")));
		say("axis", text($("tile-axis")));
		var cv = $("tile").querySelector("canvas");
		say("tile canvas", cv ? cv.getAttribute("role") + ", tabindex " +
		    cv.getAttribute("tabindex") : "(none)");
		if (!cv)
			return;
		cv.focus();
		say("focused", text($("tile-cell")));
		moves.forEach(function (k) {
			key(cv, k);
			say(k, text($("tile-cell")));
		});
		return cv;
	}
	scenario.tilepad = function () {
		var cv = tileCells(["ArrowDown", "End"]);
		/* the pointer says what the keyboard says: row 2, column 6 */
		move(cv, 30 + 6 * 16 + 8, 16 + 2 * 16 + 8);
		say("pointer", text($("tile-cell")) + (text($("tip")) ===
			text($("tile-cell")) ? " (tooltip the same)" : " (tooltip: " +
			text($("tip")) + ")"));
	};
	scenario.tilecol = function () {
		var cv = tileCells([]);
		/* one bank, one colour: rows 0 and 31 of column 5 alike, and
		   unlike column 6 (a point inside each cell, clear of text) */
		var at = function (r, c) { return pixel(cv, 30 + c * 16 + 3,
			16 + r * 16 + 3); };
		say("column 5 row 0 = row 31", at(0, 5) === at(31, 5) ? "yes" : "no");
		say("column 5 row 0 = column 6 row 0", at(0, 5) === at(0, 6) ?
		    "yes" : "no");
		say("row 0 column 4 = row 1 column 4", at(0, 4) === at(1, 4) ?
		    "yes" : "no");
	};
	scenario.swizzle = function () {
		tileCells(["ArrowDown", "ArrowRight", "ArrowRight", "ArrowRight",
			   "ArrowRight", "ArrowRight", "ArrowRight", "ArrowRight",
			   "ArrowRight"]);
	};

	/* 3: predict before the numbers are revealed */
	scenario.predict = function () {
		var state = function (what) {
			say(what, "numbers " + shown($("out-wavefronts")) + ", map " +
			    shown($("map").querySelector("canvas")) + "; " +
			    JSON.stringify(text($("predict-msg"))));
		};
		say("question", text($("predict-q")));
		state("at first");
		$("predict-reveal").click();
		state("reveal without an answer");
		$("predict-answer").value = "1";
		$("predict-reveal").click();
		state("answer 1");
		say("wavefronts", text($("out-wavefronts")));
		$("f-expr").value = "lane";
		$("f-expr").dispatchEvent(new Event("input", { bubbles: true }));
		state("another access");
		say("answer box", JSON.stringify($("predict-answer").value));
		$("predict-answer").value = "1";
		key($("predict-answer"), "Enter");
		state("answer 1, Enter");
	};
	scenario.predictdsmem = function () {
		say("question", text($("predict-q")));
		$("predict-answer").value = "32";
		$("predict-reveal").click();
		say("answer 32", text($("predict-msg")));
	};

	/* 3: the words, the axis labels */
	scenario.words = function () {
		document.querySelectorAll(".nums dt").forEach(function (d) {
			if (!d.getClientRects().length)
				return;
			var g = d.getAttribute("aria-describedby");
			say(text(d), g ? g + (d.title === $(g).textContent ?
				" (title the same)" : " (title differs)") : "no words");
		});
		say("glossary", Array.prototype.map.call(document.querySelectorAll(
			"#glossary dt"), text).join(" | "));
		say("map axis", text(document.querySelector("#map .axis")));
		var cv = $("map").querySelector("canvas");
		say("map", cv.getAttribute("role") + ": " + cv.getAttribute("aria-label"));
		say("legend", Array.prototype.filter.call(document.querySelector(
			"#map .legend").childNodes, function (n) {
				return n.nodeType === 3;
			}).map(function (n) { return n.textContent.trim(); }).join(" | "));
	};

	/* 3: the labs' links, in a copy of the page saved elsewhere */
	scenario.labs = function () {
		var a = document.querySelectorAll("#labs-list a");
		say("page", decodeURIComponent(location.pathname.replace(/^.*\//, "")));
		say("lists", Array.prototype.map.call(document.querySelectorAll(
			"#labs-list h3"), text).join(" | "));
		a.forEach(function (x) {
			say("link", x.getAttribute("href"));
		});
		a[3].click();
		return wait(100).then(function () {
			say("clicked", text(a[3]) + ": " + text($("cap-main")));
			say("url", location.hash === a[3].getAttribute("href") ? "its link"
			    : location.hash);
		});
	};

	/* 4: tabs, the keyboard on the map, the colours */
	scenario.a11y = function () {
		var tl = document.querySelector("[role=tablist]");
		say("tablist", tl ? tl.getAttribute("aria-label") : "(none)");
		var tabs = function () {
			return ["lab", "data"].map(function (t) {
				var b = $("tab-" + t), p = $(t);
				return t + " " + b.getAttribute("role") + " selected=" +
					b.getAttribute("aria-selected") + " tabindex=" +
					b.getAttribute("tabindex") + " controls=" +
					b.getAttribute("aria-controls") + " panel=" +
					p.getAttribute("role") + "/" +
					p.getAttribute("aria-labelledby") + " shown=" + shown(p);
			}).join("; ") + "; focus " + (document.activeElement.id || "-");
		};
		say("tabs", tabs());
		$("tab-lab").focus();
		["ArrowRight", "ArrowLeft", "End", "Home", "ArrowLeft",
		 "ArrowRight"].forEach(
			function (k) {
				key(document.activeElement, k);
				say(k, tabs());
			});
		var cv = $("map").querySelector("canvas"), g = geometry(cv);
		cv.focus();
		say("map focused", text($("map-cell")));
		["ArrowDown", "ArrowRight", "ArrowLeft", "ArrowUp", "End"].forEach(
			function (k) {
				key(cv, k);
				say("map " + k, text($("map-cell")));
			});
		/* the pointer on bank 0, wave 1 (the third row: phase, 0, 1) */
		move(cv, g.left + g.cell / 2, g.top + 2 * g.cell + g.cell / 2);
		say("pointer", text($("map-cell")) + (text($("tip")) ===
			text($("map-cell")) ? " (tooltip the same)" : ""));
	};

	/* 4: the palette, by numbers, and the marks beside the colours */
	scenario.colours = function () {
		var cs = getComputedStyle(document.documentElement), f = {};
		["idle", "one", "multi", "extra", "ink", "mark"].forEach(function (k) {
			f[k] = cs.getPropertyValue("--" + (k === "ink" || k === "mark" ?
				"" : "fill-") + k).trim();
		});
		say("fills", ["idle", "one", "multi", "extra"].map(function (k) {
			return k + "=" + f[k];
		}).join(" "));
		pairs("PAIR", f);
		["idle", "one", "multi", "extra"].forEach(function (k) {
			say("TEXT " + k, contrast(f[k], f.ink).toFixed(2));
		});
		/* the fills the issue measured, by the same sums */
		pairs("OLD", { one: "#cfe3f6", multi: "#bfe8c6", extra: "#f6c6c0" });
		var cv = $("map").querySelector("canvas"), g = geometry(cv);
		var cell = function (b, row) {
			return { x: g.left + b * g.cell, y: g.top + row * g.cell };
		};
		/* rows: phase label, wave 0, wave 1 */
		var shared = cell(0, 1), one = cell(3, 1), extra = cell(0, 2);
		var fillOf = function (c) { return pixel(cv, c.x + g.cell - 6, c.y + 3); };
		say("one lane fill", fillOf(one) === rgbText(f.one) ? "--fill-one" :
		    fillOf(one));
		say("one lane corner", pixel(cv, one.x + g.cell - 4, one.y + 2) ===
		    rgbText(f.mark) ? "marked" : "unmarked");
		say("beyond the ideal corner", pixel(cv, extra.x + g.cell - 4,
			extra.y + 2) === rgbText(f.mark) ? "marked" : "unmarked");
		var hatched = function (c) {
			var n = 0;
			for (var i = 3; i < g.cell - 4; i++)
				if (pixel(cv, c.x + i, c.y + g.cell - 4) !== rgbText(f.multi) &&
				    pixel(cv, c.x + i, c.y + g.cell - 4) !== rgbText(f.one))
					n++;
			return n ? "hatched" : "plain";
		};
		say("shared word", hatched(shared));
		say("one lane", hatched(one));
		say("legend swatches", Array.prototype.map.call(document
			.querySelectorAll("#map .legend .sw"), function (s) {
				var st = getComputedStyle(s);
				return s.className.replace("sw ", "") + " '" + s.textContent +
					"' border " + st.borderTopWidth +
					(/gradient/.test(st.backgroundImage) ? " patterned" : "");
			}).join("; "));
	};

	/* 5: the charts: every series, nice ticks, legends apart, hover, keys */
	scenario.charts = function () {
		var tries = 0;
		return (function ready() {
			if (document.querySelectorAll("#d-view figure.chart").length ||
			    ++tries > 100)
				return Promise.resolve();
			return wait(100).then(ready);
		})().then(function () {
			var figs = document.querySelectorAll("#d-view figure.chart");
			say("charts", figs.length);
			figs.forEach(function (fig) {
				var g = fig.querySelector("svg");
				var title = text(g.querySelector("text"));
				var t = function (c) {
					return Array.prototype.map.call(g.querySelectorAll(
						"text." + c), text).join(" ");
				};
				say(title + ": x ticks", t("tick-x"));
				say(title + ": y ticks", t("tick-y"));
				say(title + ": legend", Array.prototype.map.call(
					fig.querySelectorAll(".chart-legend li"), text).join(" | "));
				var plot = g.querySelector("rect.plot").getBoundingClientRect();
				var over = Array.prototype.filter.call(fig.querySelectorAll(
					".chart-legend li"), function (li) {
						var r = li.getBoundingClientRect();
						return r.left < plot.right && r.right > plot.left &&
							r.top < plot.bottom && r.bottom > plot.top;
					}).length;
				say(title + ": legend entries over the plot", over);
			});
			/* the pointer on the latency chart's first point */
			var lat = figs[1], g = lat.querySelector("svg");
			var p = g.querySelector("g [data-series]");
			var pr = p.getBoundingClientRect(), gr = g.getBoundingClientRect();
			move(g, pr.left - gr.left + pr.width / 2, pr.top - gr.top +
			     pr.height / 2);
			var d = lat.querySelector(".cell-detail");
			say("pointer on the first latency point", text(d) + (text($("tip"))
				=== text(d) ? " (tooltip the same)" : ""));
			/* the keyboard on the stride chart */
			var st = figs[0], sg = st.querySelector("svg");
			say("stride chart", sg.getAttribute("role") + ", tabindex " +
			    sg.getAttribute("tabindex"));
			sg.focus();
			["ArrowRight", "ArrowRight", "End", "ArrowDown", "Home"].forEach(
				function (k) {
					key(sg, k);
					say("stride " + k, text(st.querySelector(".cell-detail")));
				});
		});
	};

	/* 6: the state in the URL */
	scenario.state = function () {
		say("permalink", $("permalink").getAttribute("href"));
		return wait(50).then(function () {
			say("address", location.hash);
			$("tab-data").click();
			return wait(50);
		}).then(function () {
			say("datasets tab", location.hash);
			$("d-b").value = "";
			$("d-b").dispatchEvent(new Event("change"));
			return wait(50);
		}).then(function () {
			say("no B", location.hash);
			say("permalink now", $("permalink").getAttribute("href"));
		});
	};
	scenario.restore = function () {
		var tries = 0;
		say("tabs", ["lab", "data"].map(function (t) {
			return t + " " + $("tab-" + t).getAttribute("aria-selected") +
				" " + shown($(t));
		}).join(", "));
		say("A and B", JSON.stringify($("d-a").value) + " " +
		    JSON.stringify($("d-b").value));
		return (function ready() {
			if ($("d-verdict") || ++tries > 100)
				return Promise.resolve();
			return wait(100).then(ready);
		})().then(function () {
			say("heading", text(document.querySelector("#d-view h2")));
			say("side by side", $("d-compare") ? "shown" : "none");
			say("kind", $("f-kind").value + " " + $("f-expr").value);
			say("permalink", $("permalink").getAttribute("href"));
		});
	};

	window.addEventListener("load", function () {
		var f = scenario[S];
		if (!f) {
			say("error", "no scenario " + S);
			return finish();
		}
		Promise.resolve().then(f).then(finish, function (e) {
			say("error", String(e && e.stack || e));
			finish();
		});
	});
})();
