# md2man.awk - a command's page in Markdown (docs/bankscope.md) as a man
# page: roff with the man macros, and tbl for tables.
#
#   awk -v version=VERSION -f scripts/md2man.awk docs/bankscope.md > bankscope.1
#
# The Markdown page stays the one source (the web copy and the man page
# cannot drift apart); this turns the subset it is written in into roff,
# in any POSIX awk (Debian's mawk included):
#
#   # NAME(S)              the title: .TH NAME S
#   ## TITLE, ### title    .SH, .SS
#   a paragraph            .PP, its lines joined as they are
#   - item                 .IP with a bullet; lines indented under it
#                          continue it
#   term                   .TP: a line followed by one that starts
#   : text                 with ": " is a term and its description
#   ```                    a fenced block: .EX/.EE, indented, verbatim
#   | a | b |              a table (header, |---| line, rows): .TP
#                          items for two columns, tbl for more
#   `code` **bold** *it*   \fB\% (not hyphenated), \fB, \fI; [text](link)
#                          keeps the text
#
# Backslashes become \e and every - becomes \- (options stay ASCII
# hyphen-minus when rendered, so they can be searched and pasted); a line
# that would start with . or ' is guarded with \&.  Nothing else of
# Markdown is understood: a page that needs more needs this file to grow.

function esc(s,    out, i, c) {
	out = ""
	for (i = 1; i <= length(s); i++) {
		c = substr(s, i, 1)
		if (c == "\\")
			out = out "\\e"
		else if (c == "-")
			out = out "\\-"
		else
			out = out c
	}
	return out
}

# s with each d...d pair replaced by on...off
function pairs(s, d, on, off,    out, i, j, n) {
	out = ""
	n = length(d)
	while ((i = index(s, d)) > 0) {
		j = index(substr(s, i + n), d)
		if (j == 0)
			break
		out = out substr(s, 1, i - 1) on substr(s, i + n, j - 1) off
		s = substr(s, i + n + j - 1 + n)
	}
	return out s
}

# prose: links keep their text, then escapes, then emphasis
function prose(s,    out, t) {
	out = ""
	while (match(s, /\[[^]]*\]\([^)]*\)/)) {
		t = substr(s, RSTART, RLENGTH)
		out = out substr(s, 1, RSTART - 1) substr(t, 2, index(t, "]") - 2)
		s = substr(s, RSTART + RLENGTH)
	}
	s = esc(out s)
	s = pairs(s, "**", "\\fB", "\\fR")
	return pairs(s, "*", "\\fI", "\\fR")
}

# inline markup of a text that may span lines: code spans first
function inline(s,    n, parts, i, out) {
	n = split(s, parts, "`")
	out = ""
	for (i = 1; i <= n; i++) {
		if (i % 2 == 1)
			out = out prose(parts[i])
		else if (i < n)
			out = out "\\fB\\%" esc(parts[i]) "\\fR"
		else
			out = out "`" prose(parts[i])
	}
	return out
}

# print roff text, one line per line, guarding leading . and '
function emit(s,    n, lines, i, l) {
	n = split(s, lines, "\n")
	for (i = 1; i <= n; i++) {
		l = lines[i]
		sub(/^[ \t]+/, "", l)
		if (l == "")
			continue
		if (l ~ /^[.']/)
			l = "\\&" l
		print l
	}
}

function trim(s) {
	sub(/^[ \t]+/, "", s)
	sub(/[ \t]+$/, "", s)
	return s
}

# A table of two columns becomes a list (.TP: the first column is the
# tag, as wide as the widest up to 24; the header row first, in bold),
# which reads well at any terminal width; a wider one goes to tbl, every
# cell a text block (T{ ... T}), the columns after the first expanded to
# the line (x), so that long cells wrap instead of overflowing.
function flush_table(    i, j, n, cells, fmt, head, t, w) {
	if (!nrows)
		return
	n = split(rows[1], cells, "|")
	if (!heading)
		print ".PP"
	heading = 0
	if (n == 4) {
		w = 0
		for (i = 1; i <= nrows; i++) {
			split(rows[i], cells, "|")
			t = trim(cells[2])
			gsub(/`/, "", t)
			if (length(t) > w)
				w = length(t)
		}
		w = w + 2 > 24 ? 24 : w + 2
		for (i = 1; i <= nrows; i++) {
			split(rows[i], cells, "|")
			print ".TP " w
			if (i == 1) {
				print "\\fB" inline(trim(cells[2])) "\\fR"
				print "\\fB" inline(trim(cells[3])) "\\fR"
			} else {
				emit(inline(trim(cells[2])))
				emit(inline(trim(cells[3])))
			}
		}
		nrows = 0
		return
	}
	print ".TS"
	head = ""
	fmt = ""
	for (j = 2; j < n; j++) {
		head = head (j > 2 ? " " : "") (j > 2 ? "lxB" : "lB")
		fmt = fmt (j > 2 ? " " : "") (j > 2 ? "lx" : "l")
	}
	print head
	print fmt "."
	for (i = 1; i <= nrows; i++) {
		n = split(rows[i], cells, "|")
		for (j = 2; j < n; j++)
			printf("%sT{\n%s\nT}", (j > 2) ? "\t" : "",
			       inline(trim(cells[j])))
		printf("\n")
	}
	print ".TE"
	nrows = 0
}

function flush() {
	flush_table()
	if (kind == "")
		return
	if (kind == "p" && !heading)
		print ".PP"
	else if (kind == "li")
		print ".IP \\(bu 2"
	else if (kind == "dd") {
		print ".TP 7"
		emit(inline(term))
	}
	emit(inline(para))
	kind = ""
	para = ""
	heading = 0
}

function add(line) {
	para = para (para == "" ? "" : "\n") line
}

BEGIN {
	print "'\\\" t"
	kind = ""
	para = ""
	nrows = 0
	code = 0
	if (version == "")
		version = "unknown"
}

code && /^```/ {
	print ".EE"
	print ".RE"
	code = 0
	next
}

code {
	line = esc($0)
	if (line ~ /^[.']/)
		line = "\\&" line
	print line
	next
}

/^```/ {
	flush()
	if (!heading)
		print ".PP"
	heading = 0
	print ".RS 4"
	print ".EX"
	code = 1
	next
}

/^# / {
	flush()
	t = substr($0, 3)
	name = t
	sect = "1"
	if (match(t, /\([0-9a-z]+\)$/)) {
		name = substr(t, 1, RSTART - 1)
		sect = substr(t, RSTART + 1, RLENGTH - 2)
	}
	printf ".TH %s %s \"\" \"%s %s\" \"%s manual\"\n", name, sect,
	    tolower(name), esc(version), tolower(name)
	next
}

/^## / {
	flush()
	print ".SH " inline(substr($0, 4))
	heading = 1
	next
}

/^### / {
	flush()
	print ".SS " inline(substr($0, 5))
	heading = 1
	next
}

/^\|/ {
	if (kind != "")
		flush()
	if ($0 !~ /^\|[- :|]+$/)
		rows[++nrows] = $0
	next
}

/^[ \t]*$/ {
	flush()
	next
}

/^- / {
	flush()
	kind = "li"
	add(substr($0, 3))
	next
}

/^: / {
	if (kind == "p" && index(para, "\n") == 0) {
		term = para
		para = ""
		kind = "dd"
		add(substr($0, 3))
		next
	}
}

{
	if (nrows)
		flush_table()
	if (kind == "")
		kind = "p"
	add($0)
}

END {
	if (code) {
		print ".EE"
		print ".RE"
	}
	flush()
}
