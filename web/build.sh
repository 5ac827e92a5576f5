#!/bin/sh
# build.sh OUT ARCHS_C DATASET... - the browser lab, one offline page.
#
# Compiles web/lab.c, web/data.c and the library's model (the files of
# WEB_LIB below, and ARCHS_C, the built-in architectures the Makefile
# generates) to WebAssembly with clang (--target=wasm32-wasi, wasi-libc,
# libclang-rt-14-dev-wasm32's builtins), and writes OUT/index.html: the
# template web/index.html with the style, the scripts, the module (base64),
# each DATASET (only the columns the page reads, gzip, base64) and the
# links of the labs (docs/labs/lab*.md: each link's part after #, with its
# lab and part, so that a copy of the page opens them anywhere) put
# inside it.  Nothing is fetched when the page runs: Chromium
# refuses file:// fetches, so even the module is inside the page.
# Environment: CLANG (clang), GIT_DESCRIBE (the version the page shows),
# WEB_MAX_BYTES (1000000: a larger page is an error).
set -eu
cd "$(dirname "$0")/.."
OUT=$1
ARCHS_C=$2
shift 2
CLANG=${CLANG:-clang}
MAX=${WEB_MAX_BYTES:-1000000}
WEB_LIB="base/util model/kinds base/lines base/grow model/arch input/pattern
input/expr input/shapes input/swizzle model/predict model/copy model/remote
model/gmma
fix/fix fix/candidates fix/describe base/version input/stats input/dataset
input/dsmem_csv"

# What is missing, said once, in the words of the packages to install.
missing=""
command -v "$CLANG" >/dev/null 2>&1 || missing="$missing clang"
command -v wasm-ld >/dev/null 2>&1 || command -v wasm-ld-14 >/dev/null 2>&1 ||
	missing="$missing lld"
[ -f /usr/include/wasm32-wasi/stdio.h ] || [ -n "${WASI_SYSROOT:-}" ] ||
	missing="$missing wasi-libc"
if command -v "$CLANG" >/dev/null 2>&1; then
	rt=$("$CLANG" --target=wasm32-wasi -print-libgcc-file-name 2>/dev/null || :)
	[ -n "$rt" ] && [ -f "$rt" ] || missing="$missing libclang-rt-14-dev-wasm32"
fi
if [ -n "$missing" ]; then
	echo "make web: the WebAssembly toolchain is missing:$missing (make deps-web installs it)" >&2
	exit 1
fi

T=$OUT/tmp
rm -rf "$T"
mkdir -p "$T"
src=""
for f in $WEB_LIB; do
	src="$src analyzer/$f.c"
done
# The page never writes a file: the dataset writer (input/dataset_write.c)
# is left out, and base/util.c's safe output, which needs umask, mkstemp
# and fchmod (WASI lacks them), is dropped by the linker.
"$CLANG" --target=wasm32-wasi ${WASI_SYSROOT:+--sysroot="$WASI_SYSROOT"} \
	-Os -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra \
	-Wno-implicit-function-declaration -Ianalyzer \
	-DBS_VERSION="\"${GIT_DESCRIBE:-unknown}\"" -mexec-model=reactor \
	-Wl,-z,stack-size=1048576 -Wl,--strip-all \
	-o "$T/lab.wasm" web/lab.c web/data.c $src "$ARCHS_C" -lm

# The columns the page reads, and the metadata it shows.
reduce() {
	awk -F, -v OFS=, '
	/^#/ {
		if ($0 ~ /^# (gpu|compute_capability|arch|profile|date|sm_clock_mhz_measured|driver_version|sm_count):/)
			print
		next
	}
	index($0, "\"") {
		print FILENAME ":" FNR ": a quoted field: build.sh reduces plain CSV only" > "/dev/stderr"
		exit 1
	}
	!ncol {
		want = "probe name width op active_lanes wavefronts_measured bank_conflicts_measured cycles_per_access_median tp_bytes_per_clk_per_sm tp_wavefronts_per_clk_per_sm note addresses"
		n = split(want, w, " ")
		for (i = 1; i <= NF; i++)
			col[$i] = i
		for (i = 1; i <= n; i++)
			if (w[i] in col)
				keep[++ncol] = col[w[i]]
		line = ""
	}
	{
		line = $(keep[1])
		for (i = 2; i <= ncol; i++)
			line = line "," $(keep[i])
		print line
	}' "$1"
}

b64() {
	gzip -9n <"$1" | base64 -w0
}

# A JavaScript string literal of plain text (labels, file names).
jsstr() {
	printf '"%s"' "$(printf '%s' "$1" | sed 's/[\\"]/\\&/g')"
}

{
	# plain base64: the module is compiled while the page loads
	printf 'var BS_WASM = "%s";\n' "$(base64 -w0 <"$T/lab.wasm")"
	printf 'var BS_DATA = [\n'
	i=0
	for d in "$@"; do
		i=$((i + 1))
		reduce "$d" >"$T/data$i.csv"
		gpu=$(sed -n 's/^# gpu: //p' "$d" | head -1)
		printf '{ label: %s, name: %s, gz: "%s" },\n' \
			"$(jsstr "${gpu:-dataset}: $(basename "$d")")" \
			"$(jsstr "$d")" "$(b64 "$T/data$i.csv")"
	done
	printf '];\n'
	# the labs' links: "# Lab N: title", "## Part ...", "index.html#STATE"
	printf 'var BS_LABS = [\n'
	for f in docs/labs/lab*.md; do
		awk '
		# a JavaScript string: \\ " and < escaped, one character at a time
		function js(s,   o, c, i) {
			o = ""
			for (i = 1; i <= length(s); i++) {
				c = substr(s, i, 1)
				o = o (c == "\\" || c == "\"" ? "\\" c : c == "<" ? "\\u003c" : c)
			}
			return "\"" o "\""
		}
		FNR == 1 { sub(/^# /, ""); title = $0; next }
		/^## / { part = $0; sub(/^## /, "", part); sub(/ \([0-9]+ min\)$/, "", part) }
		{
			line = $0
			while (match(line, /index\.html#[^)]*/)) {
				links = links (links == "" ? "" : ",\n") "  { part: " js(part) \
					", hash: " js(substr(line, RSTART + 11, RLENGTH - 11)) " }"
				line = substr(line, RSTART + RLENGTH)
			}
		}
		END {
			if (links != "")
				printf "{ title: %s, links: [\n%s] },\n", js(title), links
		}' "$f"
	done
	printf '];\n'
} >"$T/embed.js"

# The template's placeholders, each alone on its line.
awk -v T="$T" '
function put(f,   l) {
	while ((getline l < f) > 0)
		print l
	close(f)
}
/^\/\*@CSS@\*\/$/ { put("web/lab.css"); next }
/^\/\*@EMBED@\*\/$/ { put(T "/embed.js"); next }
/^\/\*@CORE@\*\/$/ { put("web/core.js"); next }
/^\/\*@DATA@\*\/$/ { put("web/datasets.js"); next }
/^\/\*@LAB@\*\/$/ { put("web/lab.js"); next }
{ print }' web/index.html >"$T/index.html"

size=$(wc -c <"$T/index.html")
wasm=$(wc -c <"$T/lab.wasm")
if [ "$size" -gt "$MAX" ]; then
	echo "make web: $OUT/index.html would be $size bytes, over $MAX" >&2
	exit 1
fi
mv -f "$T/index.html" "$OUT/index.html"
rm -rf "$T"
echo "web: $OUT/index.html, $size bytes (the model: $wasm bytes of WebAssembly)"
