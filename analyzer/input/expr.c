/*
 * expr.c - index expressions: C integer expressions over lane, warp, tid.
 *
 * C's grammar and C's precedence and associativity, loosest first:
 *
 *   ?: (right to left)   ||   &&   |   ^   &   == !=   < <= > >=
 *   << >>   + -   * / %   unary - + ~ !   ( )
 *
 * Operands are decimal or 0x hex literals (no octal, no suffixes) and the
 * variables lane, warp and tid; blanks may separate tokens.  The text, at
 * most EXPR_MAX_BYTES long, is compiled once into postfix code whose
 * jumps make && || ?: short-circuit as in C; every instruction keeps the
 * 1-based column of its token.  Nesting (parentheses, unary operators,
 * ?: branches, operands waiting on the stack) is limited to
 * EXPR_MAX_DEPTH levels, so neither the parser's recursion nor the
 * evaluation stack can grow without bound.
 *
 * Evaluation runs the code on a fixed stack in int64_t.  Overflow of + -
 * * and unary -, division or modulo by zero, INT64_MIN / -1 and % -1,
 * shift counts outside 0..63, left shifts of a negative value or past 63
 * bits: each is an error naming the operator's column and the lane.  >> of
 * a negative value shifts arithmetically.  Errors carry the source given
 * to bs_expr_parse(), line 0 and the column.
 *
 * bs_access_from_expr() builds one warp's access: lane l, with
 * tid = warp*32 + l, takes part when the active expression is nonzero and
 * reads base + index*width, which must land in the 32-bit shared window.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "bs_input.h"

#define EXPR_MAX_BYTES 4096
#define EXPR_MAX_DEPTH 256
#define TOKEN_SHOWN 40       /* bytes of a token quoted in an error */

enum opcode {
	OP_NUM, OP_LANE, OP_WARP, OP_TID,
	OP_NEG, OP_NOT, OP_BNOT,
	OP_MUL, OP_DIV, OP_MOD, OP_ADD, OP_SUB, OP_SHL, OP_SHR,
	OP_LT, OP_LE, OP_GT, OP_GE, OP_EQ, OP_NE,
	OP_AND, OP_XOR, OP_OR,
	OP_BOOL,        /* top = top != 0 */
	OP_ANDJ,        /* top == 0: keep it and jump; else pop */
	OP_ORJ,         /* top != 0: make it 1 and jump; else pop */
	OP_JZ,          /* pop; jump when it was 0 */
	OP_JMP,
};

enum token {
	T_END, T_NUM, T_VAR, T_LP, T_RP, T_QUEST, T_COLON,
	T_TILDE, T_BANG, T_STAR, T_SLASH, T_PCT, T_PLUS, T_MINUS,
	T_SHL, T_SHR, T_LT, T_LE, T_GT, T_GE, T_EQ, T_NE,
	T_AMP, T_CARET, T_PIPE, T_ANDAND, T_OROR,
};

/* Spelling, binary precedence (0: not binary) and opcode of each token. */
static const struct {
	const char *text;
	int prec;
	enum opcode op;
} tokens[] = {
	[T_STAR] = { "*", 10, OP_MUL },   [T_SLASH] = { "/", 10, OP_DIV },
	[T_PCT] = { "%", 10, OP_MOD },    [T_PLUS] = { "+", 9, OP_ADD },
	[T_MINUS] = { "-", 9, OP_SUB },   [T_SHL] = { "<<", 8, OP_SHL },
	[T_SHR] = { ">>", 8, OP_SHR },    [T_LT] = { "<", 7, OP_LT },
	[T_LE] = { "<=", 7, OP_LE },      [T_GT] = { ">", 7, OP_GT },
	[T_GE] = { ">=", 7, OP_GE },      [T_EQ] = { "==", 6, OP_EQ },
	[T_NE] = { "!=", 6, OP_NE },      [T_AMP] = { "&", 5, OP_AND },
	[T_CARET] = { "^", 4, OP_XOR },   [T_PIPE] = { "|", 3, OP_OR },
	[T_ANDAND] = { "&&", 2, OP_ANDJ }, [T_OROR] = { "||", 1, OP_ORJ },
	[T_LP] = { "(", 0, OP_NUM },      [T_RP] = { ")", 0, OP_NUM },
	[T_QUEST] = { "?", 0, OP_NUM },   [T_COLON] = { ":", 0, OP_NUM },
	[T_TILDE] = { "~", 0, OP_BNOT },  [T_BANG] = { "!", 0, OP_NOT },
};

struct insn {
	enum opcode op;
	long col;
	int64_t arg;    /* the literal, or the jump target */
};

struct bs_expr {
	struct insn *code;
	size_t n;
	char source[256];
};

struct parser {
	const char *text;
	const char *source;
	bs_error *err;
	size_t pos;             /* next byte to lex */
	enum token tok;         /* the current token */
	size_t start, len;      /* its bytes */
	int64_t value;          /* T_NUM: its value; T_VAR: its opcode */
	int depth;              /* nesting of the parser's recursion */
	int sp;                 /* evaluation stack depth after the code so far */
	struct insn *code;
	size_t n, cap;
};

#define COL(at) ((long)(at) + 1)

static int perr(struct parser *p, size_t at, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int perr(struct parser *p, size_t at, const char *fmt, ...)
{
	char text[sizeof p->err->text];
	va_list ap;

	if (!p->err)
		return -1;
	va_start(ap, fmt);
	vsnprintf(text, sizeof text, fmt, ap);
	va_end(ap);
	return bs_error_set(p->err, p->source, 0, COL(at), "%s", text);
}

static int is_ident(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_';
}

static int lex_number(struct parser *p)
{
	const char *s = p->text + p->start;
	size_t n = p->len, i = 0;
	int shown = (int)(n < TOKEN_SHOWN ? n : TOKEN_SHOWN);
	uint64_t v = 0, base = 10;

	if (n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		i = 2;
	} else if (n > 1 && s[0] == '0') {
		for (i = 1; i < n && s[i] >= '0' && s[i] <= '9'; i++)
			;
		if (i == n)
			return perr(p, p->start, "octal literal '%.*s' is not "
				    "supported: write decimal or 0x hex",
				    shown, s);
		return perr(p, p->start, "malformed number '%.*s'", shown, s);
	}
	for (; i < n; i++) {
		unsigned dig;

		if (s[i] >= '0' && s[i] <= '9')
			dig = (unsigned)(s[i] - '0');
		else if (base == 16 && s[i] >= 'a' && s[i] <= 'f')
			dig = (unsigned)(s[i] - 'a' + 10);
		else if (base == 16 && s[i] >= 'A' && s[i] <= 'F')
			dig = (unsigned)(s[i] - 'A' + 10);
		else
			return perr(p, p->start, "malformed number '%.*s'",
				    shown, s);
		if (v > ((uint64_t)INT64_MAX - dig) / base)
			return perr(p, p->start, "literal %.*s%s overflows "
				    "64-bit signed arithmetic", shown, s,
				    n > TOKEN_SHOWN ? "..." : "");
		v = v * base + dig;
	}
	p->value = (int64_t)v;
	return 0;
}

static int lex_ident(struct parser *p)
{
	static const struct { const char *name; enum opcode op; } vars[] = {
		{ "lane", OP_LANE }, { "warp", OP_WARP }, { "tid", OP_TID },
	};
	const char *s = p->text + p->start;

	for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++)
		if (strlen(vars[i].name) == p->len &&
		    !memcmp(vars[i].name, s, p->len)) {
			p->value = vars[i].op;
			return 0;
		}
	return perr(p, p->start, "unknown identifier '%.*s%s': expected "
		    "lane, warp or tid",
		    (int)(p->len < TOKEN_SHOWN ? p->len : TOKEN_SHOWN), s,
		    p->len > TOKEN_SHOWN ? "..." : "");
}

/* Move to the next token.  0, or -1 with the error set. */
static int next(struct parser *p)
{
	static const struct { char s[3]; enum token t; } ops[] = {
		{ "<<", T_SHL }, { ">>", T_SHR }, { "<=", T_LE },
		{ ">=", T_GE }, { "==", T_EQ }, { "!=", T_NE },
		{ "&&", T_ANDAND }, { "||", T_OROR },
		{ "(", T_LP }, { ")", T_RP }, { "?", T_QUEST },
		{ ":", T_COLON }, { "~", T_TILDE }, { "!", T_BANG },
		{ "*", T_STAR }, { "/", T_SLASH }, { "%", T_PCT },
		{ "+", T_PLUS }, { "-", T_MINUS }, { "<", T_LT },
		{ ">", T_GT }, { "&", T_AMP }, { "^", T_CARET },
		{ "|", T_PIPE },
	};
	const char *t = p->text;
	size_t i = p->pos;
	unsigned char c;

	while (t[i] == ' ' || t[i] == '\t' || t[i] == '\n' || t[i] == '\r' ||
	       t[i] == '\f' || t[i] == '\v')
		i++;
	p->start = i;
	c = (unsigned char)t[i];
	if (!c) {
		p->tok = T_END;
		p->len = 0;
		p->pos = i;
		return 0;
	}
	if (is_ident((char)c)) {
		while (is_ident(t[i]))
			i++;
		p->len = i - p->start;
		p->pos = i;
		if (c >= '0' && c <= '9') {
			p->tok = T_NUM;
			return lex_number(p);
		}
		p->tok = T_VAR;
		return lex_ident(p);
	}
	for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++) {
		size_t n = strlen(ops[k].s);

		if (!strncmp(t + i, ops[k].s, n)) {
			p->tok = ops[k].t;
			p->len = n;
			p->pos = i + n;
			return 0;
		}
	}
	if (c == '=')
		return perr(p, i, "unexpected character '=' (did you mean "
			    "'==')");
	if (c > ' ' && c < 0x7f)
		return perr(p, i, "unexpected character '%c'", c);
	return perr(p, i, "unexpected byte 0x%02x", c);
}

/* Append one instruction that moves the stack depth by delta. */
static int emit(struct parser *p, enum opcode op, size_t at, int64_t arg,
		int delta)
{
	if (bs_grow(&p->code, &p->cap, p->n, 32, sizeof *p->code) < 0)
		return bs_error_set(p->err, p->source, 0, 0, "out of memory");
	p->sp += delta;
	if (p->sp > EXPR_MAX_DEPTH)
		return perr(p, at, "expression nested deeper than %d levels",
			    EXPR_MAX_DEPTH);
	p->code[p->n++] = (struct insn){ .op = op, .col = COL(at),
					 .arg = arg };
	return 0;
}

static int enter(struct parser *p)
{
	if (++p->depth > EXPR_MAX_DEPTH)
		return perr(p, p->start, "expression nested deeper than %d "
			    "levels", EXPR_MAX_DEPTH);
	return 0;
}

static int parse_cond(struct parser *p);

static int parse_primary(struct parser *p)
{
	size_t at = p->start;
	int shown = (int)(p->len < TOKEN_SHOWN ? p->len : TOKEN_SHOWN);

	switch (p->tok) {
	case T_NUM:
		if (emit(p, OP_NUM, at, p->value, 1) < 0)
			return -1;
		return next(p);
	case T_VAR:
		if (emit(p, (enum opcode)p->value, at, 0, 1) < 0)
			return -1;
		return next(p);
	case T_LP:
		if (next(p) < 0 || parse_cond(p) < 0)
			return -1;
		if (p->tok != T_RP)
			return perr(p, p->start, "missing ')' to close the "
				    "'(' at column %ld", COL(at));
		return next(p);
	case T_END:
		return perr(p, at, "expected an operand (number, lane, warp, "
			    "tid or '(') at the end of the expression");
	default:
		return perr(p, at, "expected an operand (number, lane, warp, "
			    "tid or '('), found '%.*s'", shown,
			    p->text + at);
	}
}

static int parse_unary(struct parser *p)
{
	enum token t = p->tok;
	size_t at = p->start;

	if (t != T_MINUS && t != T_PLUS && t != T_TILDE && t != T_BANG)
		return parse_primary(p);
	if (enter(p) < 0 || next(p) < 0 || parse_unary(p) < 0)
		return -1;
	p->depth--;
	if (t == T_PLUS)
		return 0;
	return emit(p, t == T_MINUS ? OP_NEG : tokens[t].op, at, 0, 0);
}

/* Binary operators of precedence min and tighter, left to right. */
static int parse_binary(struct parser *p, int min)
{
	if (parse_unary(p) < 0)
		return -1;
	while (p->tok > T_COLON && tokens[p->tok].prec >= min) {
		enum token t = p->tok;
		size_t at = p->start, jump = p->n;

		if (next(p) < 0)
			return -1;
		if (t == T_ANDAND || t == T_OROR) {
			if (emit(p, tokens[t].op, at, 0, -1) < 0 ||
			    parse_binary(p, tokens[t].prec + 1) < 0 ||
			    emit(p, OP_BOOL, at, 0, 0) < 0)
				return -1;
			p->code[jump].arg = (int64_t)p->n;
			continue;
		}
		if (parse_binary(p, tokens[t].prec + 1) < 0 ||
		    emit(p, tokens[t].op, at, 0, -1) < 0)
			return -1;
	}
	return 0;
}

/* cond ? expr : cond, right to left. */
static int parse_cond(struct parser *p)
{
	size_t at, jz, jmp;

	if (enter(p) < 0 || parse_binary(p, 1) < 0)
		return -1;
	if (p->tok == T_QUEST) {
		at = p->start;
		jz = p->n;
		if (next(p) < 0 || emit(p, OP_JZ, at, 0, -1) < 0 ||
		    parse_cond(p) < 0)
			return -1;
		jmp = p->n;
		if (emit(p, OP_JMP, at, 0, 0) < 0)
			return -1;
		if (p->tok != T_COLON)
			return perr(p, p->start, "missing ':' for the '?' at "
				    "column %ld", COL(at));
		p->code[jz].arg = (int64_t)p->n;
		p->sp--;
		if (next(p) < 0 || parse_cond(p) < 0)
			return -1;
		p->code[jmp].arg = (int64_t)p->n;
	}
	p->depth--;
	return 0;
}

bs_expr *bs_expr_parse(const char *text, const char *source, bs_error *err)
{
	struct parser p = { .text = text ? text : "",
			    .source = source ? source : "", .err = err };
	bs_expr *e;

	if (strnlen(p.text, EXPR_MAX_BYTES + 1) > EXPR_MAX_BYTES) {
		bs_error_set(err, p.source, 0, EXPR_MAX_BYTES + 1,
			     "expression longer than %d bytes", EXPR_MAX_BYTES);
		return NULL;
	}
	if (next(&p) < 0)
		goto fail;
	if (p.tok == T_END) {
		perr(&p, p.start, "empty expression");
		goto fail;
	}
	if (parse_cond(&p) < 0)
		goto fail;
	if (p.tok != T_END) {
		perr(&p, p.start, "unexpected '%.*s' after a complete "
		     "expression",
		     (int)(p.len < TOKEN_SHOWN ? p.len : TOKEN_SHOWN),
		     p.text + p.start);
		goto fail;
	}
	e = calloc(1, sizeof *e);
	if (!e) {
		bs_error_set(err, p.source, 0, 0, "out of memory");
		goto fail;
	}
	e->code = p.code;
	e->n = p.n;
	snprintf(e->source, sizeof e->source, "%s", p.source);
	return e;
fail:
	free(p.code);
	return NULL;
}

void bs_expr_free(bs_expr *e)
{
	if (!e)
		return;
	free(e->code);
	free(e);
}

/* what, then the lane (and the warp when it is not 0). */
static int eval_error(const bs_expr *e, const struct insn *in,
		      const bs_vars *v, bs_error *err, const char *what)
{
	if (v->warp)
		return bs_error_set(err, e->source, 0, in->col,
				    "%s (lane %lld, warp %lld)", what,
				    (long long)v->lane, (long long)v->warp);
	return bs_error_set(err, e->source, 0, in->col, "%s (lane %lld)",
			    what, (long long)v->lane);
}

static const char *op_text(enum opcode op)
{
	for (size_t t = 0; t < sizeof tokens / sizeof tokens[0]; t++)
		if (tokens[t].prec && tokens[t].op == op)
			return tokens[t].text;
	return "?";
}

/* One binary operator: 0 and *r, or -1 with err. */
static int binary(const bs_expr *e, const struct insn *in, const bs_vars *v,
		  int64_t a, int64_t b, int64_t *r, bs_error *err)
{
	char what[96];
	int ovf = 0;

	switch (in->op) {
	case OP_ADD: ovf = __builtin_add_overflow(a, b, r); break;
	case OP_SUB: ovf = __builtin_sub_overflow(a, b, r); break;
	case OP_MUL: ovf = __builtin_mul_overflow(a, b, r); break;
	case OP_DIV:
	case OP_MOD:
		if (b == 0)
			return eval_error(e, in, v, err, in->op == OP_DIV ?
					  "division by zero" :
					  "modulo by zero");
		ovf = a == INT64_MIN && b == -1;
		if (!ovf)
			*r = in->op == OP_DIV ? a / b : a % b;
		break;
	case OP_SHL:
	case OP_SHR:
		if (b < 0 || b > 63) {
			snprintf(what, sizeof what, "shift count %lld is "
				 "outside 0..63", (long long)b);
			return eval_error(e, in, v, err, what);
		}
		if (in->op == OP_SHR) {
			*r = a >= 0 ? a >> b : ~(~a >> b);
			break;
		}
		if (a < 0) {
			snprintf(what, sizeof what, "left shift of negative "
				 "value %lld", (long long)a);
			return eval_error(e, in, v, err, what);
		}
		ovf = a > INT64_MAX >> b;
		if (!ovf)
			*r = (int64_t)((uint64_t)a << b);
		break;
	case OP_LT: *r = a < b; break;
	case OP_LE: *r = a <= b; break;
	case OP_GT: *r = a > b; break;
	case OP_GE: *r = a >= b; break;
	case OP_EQ: *r = a == b; break;
	case OP_NE: *r = a != b; break;
	case OP_AND: *r = a & b; break;
	case OP_XOR: *r = a ^ b; break;
	case OP_OR: *r = a | b; break;
	default: *r = 0; break;
	}
	if (ovf) {
		snprintf(what, sizeof what, "integer overflow in '%s'",
			 op_text(in->op));
		return eval_error(e, in, v, err, what);
	}
	return 0;
}

int bs_expr_eval(const bs_expr *e, const bs_vars *v, int64_t *out,
		 bs_error *err)
{
	int64_t st[EXPR_MAX_DEPTH];
	size_t sp = 0, pc = 0;

#define TOP st[sp - 1]
	while (pc < e->n) {
		const struct insn *in = &e->code[pc++];

		switch (in->op) {
		case OP_NUM: st[sp++] = in->arg; break;
		case OP_LANE: st[sp++] = v->lane; break;
		case OP_WARP: st[sp++] = v->warp; break;
		case OP_TID: st[sp++] = v->tid; break;
		case OP_NEG:
			if (__builtin_sub_overflow((int64_t)0, TOP, &TOP))
				return eval_error(e, in, v, err, "integer "
						  "overflow in unary '-'");
			break;
		case OP_NOT: TOP = !TOP; break;
		case OP_BNOT: TOP = ~TOP; break;
		case OP_BOOL: TOP = TOP != 0; break;
		case OP_ANDJ:
			if (TOP == 0)
				pc = (size_t)in->arg;
			else
				sp--;
			break;
		case OP_ORJ:
			if (TOP != 0) {
				TOP = 1;
				pc = (size_t)in->arg;
			} else {
				sp--;
			}
			break;
		case OP_JZ:
			if (st[--sp] == 0)
				pc = (size_t)in->arg;
			break;
		case OP_JMP: pc = (size_t)in->arg; break;
		default:
			if (binary(e, in, v, st[sp - 2], TOP, &st[sp - 2],
				   err) < 0)
				return -1;
			sp--;
			break;
		}
	}
#undef TOP
	*out = st[0];
	return 0;
}

/* ---- one warp's access from expressions ---------------------------------- */

int bs_access_from_expr(const bs_expr_spec *s, bs_access *out, bs_error *err)
{
	bs_expr *index = NULL, *active = NULL;
	const char *name = s->name ? s->name : "expr";
	bs_access a;
	uint32_t keep;
	int rc = -1;

	if (bs_kind_check_width(s->kind, s->width, "--width", err) < 0)
		return -1;
	if (s->base % s->width)
		return bs_error_set(err, "--base", 0, 0, "base %llu is not "
				    "aligned to the %u-byte width",
				    (unsigned long long)s->base, s->width);
	if (s->base > UINT32_MAX)
		return bs_error_set(err, "--base", 0, 0, "base %llu is beyond "
				    "the 32-bit shared window",
				    (unsigned long long)s->base);
	if (s->warp < 0 || s->warp > INT64_MAX / BS_LANES)
		return bs_error_set(err, "--warp", 0, 0, "warp %lld is outside "
				    "0..%lld", (long long)s->warp,
				    (long long)(INT64_MAX / BS_LANES));
	if (strlen(name) >= BS_NAME_MAX)
		return bs_error_set(err, "--name", 0, 0, "access name longer "
				    "than %d bytes", BS_NAME_MAX - 1);

	memset(&a, 0, sizeof a);
	snprintf(a.name, sizeof a.name, "%s", name);
	a.width = s->width;
	a.kind = s->kind;
	keep = bs_kind_get(s->kind)->addr_lanes;
	index = bs_expr_parse(s->index, "--expr", err);
	if (!index)
		goto out;
	if (s->active) {
		active = bs_expr_parse(s->active, "--active", err);
		if (!active)
			goto out;
	}
	for (unsigned l = 0; l < BS_LANES; l++) {
		bs_vars v = { .lane = l, .warp = s->warp,
			      .tid = s->warp * BS_LANES + l };
		int64_t on = 1, idx, off, addr;

		if (!(keep >> l & 1))   /* no address from this lane */
			continue;
		if (active && bs_expr_eval(active, &v, &on, err) < 0)
			goto out;
		if (!on)
			continue;
		if (bs_expr_eval(index, &v, &idx, err) < 0)
			goto out;
		if (__builtin_mul_overflow(idx, (int64_t)s->width, &off) ||
		    __builtin_add_overflow(off, (int64_t)s->base, &addr)) {
			bs_error_set(err, "--expr", 0, 0, "lane %u: the address "
				     "of index %lld overflows 64 bits", l,
				     (long long)idx);
			goto out;
		}
		if (addr < 0) {
			bs_error_set(err, "--expr", 0, 0, "lane %u: address "
				     "%lld is negative", l, (long long)addr);
			goto out;
		}
		if (addr > UINT32_MAX) {
			bs_error_set(err, "--expr", 0, 0, "lane %u: address "
				     "%lld is beyond the 32-bit shared window",
				     l, (long long)addr);
			goto out;
		}
		a.addr[l] = (uint32_t)addr;
		a.active |= 1u << l;
	}
	*out = a;
	rc = 0;
out:
	bs_expr_free(index);
	bs_expr_free(active);
	return rc;
}
