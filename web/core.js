/*
 * core.js - the bankscope model in the page: web/lab.c and the library,
 * compiled to WebAssembly, behind plain JavaScript calls.  Results are
 * read from the module's arrays (lab.c's WR_* and WD_* layout), never
 * parsed from printed text.  No DOM here: index.html's lab.js draws.
 */
"use strict";

var Bankscope = (function () {
	/* lab.c's indices */
	var WR = {
		OK: 0, ACTIVE_LANES: 1, WAVEFRONTS: 2, IDEAL: 3, CONFLICTS: 4,
		MAX_WAY: 5, PHASES: 6, PACKED: 7, PASSES: 8, LOAD_WF: 9,
		CAS_WF: 10, BANKS: 11, BANK_BYTES: 12, WIDTH: 13, KIND: 14,
		ACTIVE: 15, NPHASES: 16, NCELLS: 17, COPY: 18, SERIAL: 19,
		PIPE_CLOCKS: 20, NPASSES: 21, REMOTE: 22, SECTORS: 23,
		LINES: 24, MIN_SECTORS: 25, ADDR: 32, PHASE: 64, PASS: 288,
		CELL: 448, SIZE: 448 + 5 * 512
	};
	var WS = {
		ERROR: 0, NAME: 1, KIND: 2, PROFILE: 3, WARNING: 4,
		FIX_LABEL: 5, FIX_DECL: 6, FIX_INDEX: 7, FIX_NOTE: 8,
		FIX_WARNING: 9, FIX_SUMMARY: 10
	};
	/* the keys of an access, the CLI's options without dashes */
	var KEYS = ["expr", "active", "warp", "tile", "pad", "access",
		"index", "swizzle", "elem", "column", "struct", "field",
		"width", "kind", "base", "name", "addrs"];
	var enc = new TextEncoder(), dec = new TextDecoder();

	function base64(s) {
		var bin = atob(s), out = new Uint8Array(bin.length);
		for (var i = 0; i < bin.length; i++)
			out[i] = bin.charCodeAt(i);
		return out;
	}

	/* gzip bytes to bytes, offline (the browser's own decompressor) */
	function gunzip(bytes) {
		var s = new Blob([bytes]).stream()
			.pipeThrough(new DecompressionStream("gzip"));
		return new Response(s).arrayBuffer()
			.then(function (b) { return new Uint8Array(b); });
	}

	function Model(instance) {
		this.x = instance.exports;
		if (this.x._initialize)
			this.x._initialize();
	}

	Model.prototype.mem = function () {
		return new Uint8Array(this.x.memory.buffer);
	};
	Model.prototype.cstr = function (ptr) {
		var m = this.mem(), e = ptr;
		if (!ptr)
			return null;
		while (m[e])
			e++;
		return dec.decode(m.subarray(ptr, e));
	};
	/* Put text (a string or bytes) into buffer i; its length in bytes. */
	Model.prototype.put = function (i, text) {
		var b = typeof text === "string" ? enc.encode(text) : text;
		var p = this.x.web_buf(i, b.length);
		if (!p)
			throw new Error("out of memory");
		this.mem().set(b, p);
		return b.length;
	};
	Model.prototype.str = function (i) {
		return this.cstr(this.x.web_str(i));
	};
	Model.prototype.error = function () {
		return this.str(WS.ERROR);
	};

	Model.prototype.kinds = function () {
		var out = [], n = this.x.web_kind_count();
		for (var k = 0; k < n; k++) {
			var wm = this.x.web_kind_widths(k), w = [];
			[1, 2, 4, 8, 16].forEach(function (v, i) {
				if (wm >> i & 1)
					w.push(v);
			});
			out.push({ id: k, name: this.cstr(this.x.web_kind_name(k)),
				   widths: w,
				   what: this.cstr(this.x.web_kind_what(k)) });
		}
		return out;
	};

	/*
	 * Build the access of spec (an object of KEYS): null, or the error
	 * text.  A value with a line break is refused here (one field a line).
	 */
	Model.prototype.build = function (spec) {
		var lines = [];
		for (var i = 0; i < KEYS.length; i++) {
			var v = spec[KEYS[i]];
			if (v === undefined || v === null || v === "")
				continue;
			v = String(v);
			if (/[\r\n\0]/.test(v))
				return "option --" + KEYS[i] + ": holds a line break";
			lines.push(KEYS[i] + "=" + v);
		}
		this.put(0, lines.join("\n"));
		return this.x.web_build() < 0 ? this.error() : null;
	};

	/* The prediction in slot, as an object (arrays copied out). */
	Model.prototype.result = function (slot) {
		var r = new Uint32Array(this.x.memory.buffer,
					this.x.web_res(slot), WR.SIZE);
		var d = new Float64Array(this.x.memory.buffer,
					 this.x.web_num(slot), 8);
		var o = {
			active_lanes: r[WR.ACTIVE_LANES],
			wavefronts: r[WR.WAVEFRONTS], ideal: r[WR.IDEAL],
			conflicts: r[WR.CONFLICTS], max_way: r[WR.MAX_WAY],
			phases: r[WR.PHASES], packed: r[WR.PACKED],
			passes: r[WR.PASSES], load_wf: r[WR.LOAD_WF],
			cas_wf: r[WR.CAS_WF], banks: r[WR.BANKS],
			bank_bytes: r[WR.BANK_BYTES], width: r[WR.WIDTH],
			kind: r[WR.KIND], active: r[WR.ACTIVE] >>> 0,
			copy: r[WR.COPY], serial: r[WR.SERIAL],
			pipe_clocks: r[WR.PIPE_CLOCKS],
			remote: r[WR.REMOTE], sectors: r[WR.SECTORS],
			lines: r[WR.LINES], min_sectors: r[WR.MIN_SECTORS],
			latency: d[0], tp_rule: d[1], lat_base: d[2],
			lat_slope: d[3],
			addr: Array.from(r.subarray(WR.ADDR, WR.ADDR + 32)),
			phase: [], pass: [], cell: []
		};
		for (var i = 0; i < r[WR.NPHASES]; i++) {
			var p = WR.PHASE + 7 * i;
			o.phase.push({ lanes: r[p] >>> 0, active: r[p + 1] >>> 0,
				slots: r[p + 2], wavefronts: r[p + 3],
				words: r[p + 4], first_cell: r[p + 5],
				ncells: r[p + 6] });
		}
		for (i = 0; i < r[WR.NPASSES]; i++) {
			p = WR.PASS + 5 * i;
			o.pass.push({ pending: r[p] >>> 0, done: r[p + 1] >>> 0,
				load_wf: r[p + 2], cas_phases: r[p + 3],
				cas_wf: r[p + 4] });
		}
		for (i = 0; i < r[WR.NCELLS]; i++) {
			p = WR.CELL + 5 * i;
			o.cell.push({ phase: r[p], bank: r[p + 1],
				wave: r[p + 2], word: r[p + 3],
				lanes: r[p + 4] >>> 0 });
		}
		return o;
	};

	/* arch: 0 sm_90, 1 textbook, 2 the opened arch file */
	Model.prototype.predict = function (slot, arch) {
		if (this.x.web_predict(slot, arch) < 0)
			return { error: this.error() };
		var o = this.result(slot);
		o.profile = this.str(WS.PROFILE);
		o.name = this.str(WS.NAME);
		o.kind_name = this.str(WS.KIND);
		o.warning = this.str(WS.WARNING);
		return o;
	};

	Model.prototype.fix = function (slot, arch) {
		var rc = this.x.web_fix(slot, arch), self = this;
		if (rc < 0)
			return { error: this.error() };
		function s(k) { return self.str(WS[k]); }
		return { changed: rc === 1, label: s("FIX_LABEL"),
			 declaration: s("FIX_DECL"), index: s("FIX_INDEX"),
			 note: s("FIX_NOTE"), warning: s("FIX_WARNING"),
			 summary: s("FIX_SUMMARY"),
			 after: rc === 1 ? this.result(slot) : null };
	};

	/*
	 * The tile of the access built: { rows, cols, pad, elem }, or null
	 * when it is not a tile; tile(r0, nr, c0, nc): the byte address of
	 * each element of that window, row by row (null past the tile).
	 */
	Model.prototype.tileShape = function () {
		var x = this.x;
		return x.web_tile_shape(3) ? { rows: x.web_tile_shape(0),
			cols: x.web_tile_shape(1), pad: x.web_tile_shape(2),
			elem: x.web_tile_shape(3) } : null;
	};
	Model.prototype.tile = function (r0, nr, c0, nc) {
		var n = this.x.web_tile(r0, nr, c0, nc);
		return n < 0 ? null : new Uint32Array(this.x.memory.buffer,
			this.x.web_tile_addr(), n).slice();
	};

	/* An arch file's text: null, or the error. */
	Model.prototype.profile = function (name, text) {
		this.put(1, name);
		this.put(0, text);
		return this.x.web_profile() < 0 ? this.error() : null;
	};

	/*
	 * A dataset's bytes into slot id: { rows, count, profile (the architecture), meta, row[] }
	 * or { error }.
	 */
	Model.prototype.dataset = function (id, name, bytes) {
		this.put(1, name);
		var len = this.put(0, bytes);
		var n = this.x.web_dataset(id, len);
		if (n < 0)
			return { error: this.cstr(this.x.web_data_error()) };
		this.x.web_data_sum(id);
		var s = new Uint32Array(this.x.memory.buffer,
					this.x.web_res(2), 8);
		var out = { name: name, rows: s[0],
			count: { agree: s[1], disagree: s[2], skipped: s[3],
				 timing: s[4], not_modeled: s[5] },
			profile: this.cstr(this.x.web_data_profile(id)),
			meta: {}, row: [] };
		for (var i = 0; i < s[6]; i++)
			out.meta[this.cstr(this.x.web_data_meta(id, i, 0))] =
				this.cstr(this.x.web_data_meta(id, i, 1));
		var r = new Uint32Array(this.x.memory.buffer,
					this.x.web_res(3), 6);
		var v = new Float64Array(this.x.memory.buffer,
					 this.x.web_num(3), 9);
		for (i = 0; i < n; i++) {
			var nm = this.cstr(this.x.web_data_row(id, i));
			out.row.push({ name: nm,
				probe: this.cstr(this.x.web_data_probe(id, i)),
				line: r[0], kind: r[1], width: r[2], active: r[3],
				verdict: r[4], packed: r[5],
				wf_m: v[0], conf_m: v[1], wf_p: v[2], ideal_p: v[3],
				conf_p: v[4], lat_p: v[5], cycles: v[6],
				tp_bytes: v[7], tp_wf: v[8] });
		}
		return out;
	};

	/* WASI calls the library never makes in the page: stubs. */
	var wasi = {
		fd_close: function () { return 8; },
		fd_seek: function () { return 8; },
		fd_write: function () { return 8; }
	};

	/*
	 * Synchronous: the lab is drawn while the page loads, so that it
	 * shows at once (and a headless browser's dump, taken at the load
	 * event, holds it).
	 */
	function load(bytes) {
		var m = new WebAssembly.Module(bytes);
		return new Model(new WebAssembly.Instance(m,
			{ wasi_snapshot_preview1: wasi }));
	}

	return { load: load, base64: base64, gunzip: gunzip, KEYS: KEYS };
})();

if (typeof module !== "undefined")
	module.exports = Bankscope;
