/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * format.c: pluginapi_vsnformat(), the printf(3) formatter behind
 * allinea_safe_printf(), allinea_safe_fprintf(), allinea_safe_vfprintf()
 * and the *_error_messagef() functions.  Unlike snprintf(3) it may be
 * called from a signal handler: no locale, no malloc, no stdio, no static
 * state; everything lives on the stack (about 1.5 KiB for a floating
 * point conversion).
 *
 * Design notes
 *   - Output goes through struct out, which copies what fits and counts
 *     everything, giving snprintf's return contract.  A conversion is
 *     described as a prefix (sign, "0x") and a list of segments (a run of
 *     bytes or a run of one repeated byte), so that width padding and '0'
 *     padding are decided in one place (emit()) and long runs of zeros
 *     (%.500f, %.300d) need no buffer.
 *   - Floating point is exact: dec_from_double() expands the double's
 *     binary value m * 2^e into all of its decimal digits (at most 767
 *     significant ones) with a little big-integer arithmetic on uint32
 *     limbs; dec_round() then rounds those digits to nearest, ties to
 *     even, as glibc does in the default rounding mode.  %a works on the
 *     bits directly.  Output therefore equals glibc's snprintf for every
 *     double; the differences are listed below and in
 *     mapsample-plugin(3).
 *
 * Conversions: d i u o x X c s p n % f F e E g G a A, and C S as %lc %ls.
 * Flags: - + space # 0, and ' (grouping; a no-op, as in the C locale).
 * Width and precision: digits or *.  Length modifiers: hh h l ll q L j z
 * Z t.  Differences from glibc:
 *   - %n stores nothing (its pointer argument is consumed and ignored).
 *   - %Lf etc. convert the long double argument to double first: a value
 *     outside double's range prints as inf, extra precision is lost, and
 *     %La prints double's 0x1... form where glibc prints 0x8...
 *   - %lc and %ls always encode UTF-8, whatever the locale; glibc uses
 *     the locale's encoding (and fails with EILSEQ on non-ASCII in the
 *     C locale).
 *   - The rounding mode (fesetround) is ignored: always to nearest.
 *   - Positional arguments (%1$d) and %m are not supported; an
 *     unsupported conversion is copied to the output as written.
 * Where glibc departs from C11 this follows glibc: with %#g, a value that
 * rounding carries to 10^P, so that style e is used, is printed with no
 * fraction digits ("%#.2g" of 99.5 gives "1.e+02"; C11 asks for
 * "1.0e+02").
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <wchar.h>

#include "pluginapi.h"

/* --- output --- */

struct out {
	char *buf;
	size_t size;	/* bytes in buf, the terminating NUL included */
	size_t len;	/* bytes the whole output has so far */
};

/* Appends n bytes from s, or n copies of fill when s is NULL.
 * Async-signal-safe. */
static void out_put(struct out *o, const char *s, char fill, size_t n)
{
	if (o->size > 0 && o->len < o->size - 1) {
		size_t room = o->size - 1 - o->len;
		size_t k = n < room ? n : room;
		if (s != NULL)
			memcpy(o->buf + o->len, s, k);
		else
			memset(o->buf + o->len, fill, k);
	}
	/* a conversion adds at most 2 * INT_MAX + a little, and we stop
	 * once past INT_MAX: no wrap-around */
	o->len += n;
}

/* --- one conversion --- */

enum lmod { LM_NONE, LM_HH, LM_H, LM_L, LM_LL, LM_J, LM_Z, LM_T, LM_LD };

struct spec {
	bool minus, plus, space, alt, zero;
	int width;		/* 0: none */
	int prec;		/* -1: none */
	enum lmod lm;
	char conv;
};

/* A piece of a converted field: n bytes from s, or n copies of fill. */
struct seg {
	const char *s;
	size_t n;
	char fill;
};

#define SEG_STR(str, len) ((struct seg){ (str), (size_t)(len), 0 })
#define SEG_FILL(c, len) ((struct seg){ NULL, (size_t)(len), (c) })

/*
 * Writes one field: prefix, then the segments, padded to sp->width with
 * spaces (on the left, or on the right with '-') or, when zeropad and no
 * '-', with zeros between the prefix and the segments.  Async-signal-safe.
 */
static void emit(struct out *o, const struct spec *sp, const char *pre,
	size_t plen, const struct seg *seg, int nseg, bool zeropad)
{
	size_t total = plen, pad = 0;

	for (int i = 0; i < nseg; i++)
		total += seg[i].n;
	if ((size_t)sp->width > total)
		pad = (size_t)sp->width - total;
	zeropad = zeropad && !sp->minus;
	if (!sp->minus && !zeropad)
		out_put(o, NULL, ' ', pad);
	out_put(o, pre, 0, plen);
	if (zeropad)
		out_put(o, NULL, '0', pad);
	for (int i = 0; i < nseg; i++)
		out_put(o, seg[i].s, seg[i].fill, seg[i].n);
	if (sp->minus)
		out_put(o, NULL, ' ', pad);
}

/* The sign character a signed conversion of a value starts with, or 0. */
static char sign_char(const struct spec *sp, bool neg)
{
	if (neg)
		return '-';
	if (sp->plus)
		return '+';
	if (sp->space)
		return ' ';
	return 0;
}

/* --- integers --- */

/* Converts v (negated when neg) for d i u o x X p.  Async-signal-safe. */
static void conv_int(struct out *o, const struct spec *sp, uintmax_t v,
	bool neg)
{
	char dig[3 * sizeof(uintmax_t)];
	char *end = dig + sizeof(dig), *p = end;
	char pre[3];
	size_t plen = 0, nd, zeros = 0;
	unsigned base = 10;
	bool upper = sp->conv == 'X', is_ptr = sp->conv == 'p';
	const char *xd = upper ? "0123456789ABCDEF" : "0123456789abcdef";

	if (sp->conv == 'o')
		base = 8;
	else if (sp->conv == 'x' || sp->conv == 'X' || is_ptr)
		base = 16;
	for (uintmax_t t = v; t != 0; t /= base)
		*--p = xd[t % base];
	nd = (size_t)(end - p);

	/* sign: for d i, and (as glibc) for p */
	if (sp->conv == 'd' || sp->conv == 'i' || is_ptr) {
		char c = sign_char(sp, neg);
		if (c)
			pre[plen++] = c;
	}
	if ((sp->alt && base == 16 && v != 0) || is_ptr) {
		pre[plen++] = '0';
		pre[plen++] = upper ? 'X' : 'x';
	}
	if (sp->prec >= 0 && (size_t)sp->prec > nd)
		zeros = (size_t)sp->prec - nd;
	else if (sp->prec < 0 && nd == 0)
		zeros = 1;		/* 0 with the default precision 1 */
	if (sp->alt && base == 8 && zeros == 0 && (nd == 0 || *p != '0'))
		zeros = 1;
	struct seg seg[2] = { SEG_FILL('0', zeros), SEG_STR(p, nd) };
	emit(o, sp, pre, plen, seg, 2, sp->zero && sp->prec < 0);
}

/* --- exact decimal expansion of a double --- */

/* Enough for the 767 significant digits a double can have, plus the
 * up to 8 digits a 9-digit chunk may overshoot by. */
#define DEC_MAX 800

/* A non-negative finite value as 0.d[0]d[1]...d[n-1] x 10^dp.  d holds
 * '0'..'9', d[0] != '0' and d[n-1] != '0'; n == 0 means zero. */
struct dec {
	int n;
	int dp;
	char d[DEC_MAX];
};

/* ORs v << shift into the little-endian limbs a[0..na).
 * Async-signal-safe. */
static void big_or_shifted(uint32_t *a, int na, uint64_t v, int shift)
{
	for (int k = 0; k < 2; k++) {
		uint64_t piece = (uint32_t)(v >> (32 * k));
		int pos = shift + 32 * k;
		int w = pos / 32;
		uint64_t t = piece << (pos % 32);

		if (w < na)
			a[w] |= (uint32_t)t;
		if (w + 1 < na)
			a[w + 1] |= (uint32_t)(t >> 32);
	}
}

/* Appends one decimal digit; leading zeros only move the decimal point.
 * Async-signal-safe. */
static void dec_push(struct dec *r, char c)
{
	if (r->n == 0 && c == '0')
		r->dp--;
	else if (r->n < DEC_MAX)
		r->d[r->n++] = c;
}

/* r = m * 2^e for e >= 0: the integer in limbs, then chunks of 9 digits
 * by repeated division by 10^9.  Async-signal-safe. */
static void dec_integer(struct dec *r, uint64_t m, int e)
{
	uint32_t a[36] = { 0 };	/* 53 + 971 bits at most */
	uint32_t chunk[40];	/* 309 digits at most */
	int na = (53 + e + 31) / 32 + 1, nc = 0;

	big_or_shifted(a, na, m, e);
	while (na > 0 && a[na - 1] == 0)
		na--;
	while (na > 0) {
		uint64_t rem = 0;
		for (int i = na - 1; i >= 0; i--) {
			uint64_t cur = (rem << 32) | a[i];
			a[i] = (uint32_t)(cur / 1000000000u);
			rem = cur % 1000000000u;
		}
		chunk[nc++] = (uint32_t)rem;
		while (na > 0 && a[na - 1] == 0)
			na--;
	}
	r->dp = 0;
	for (int i = nc - 1; i >= 0; i--) {
		char c9[9];
		uint32_t v = chunk[i];
		for (int j = 8; j >= 0; j--) {
			c9[j] = (char)('0' + v % 10);
			v /= 10;
		}
		for (int j = 0; j < 9; j++) {
			dec_push(r, c9[j]);
			r->dp++;
		}
	}
}

/* r = m / 2^k for k > 0: the integer part m >> k, then the fraction
 * F / 2^k, kept left-aligned in limbs as F' / 2^(32 * na): each
 * multiplication by 10^9 carries the next 9 digits out of the top limb.
 * At most ceil(k / 9) rounds.  Async-signal-safe. */
static void dec_fraction(struct dec *r, uint64_t m, int k)
{
	uint64_t ip = k < 64 ? m >> k : 0;
	uint64_t fr = k < 64 ? m & ((UINT64_C(1) << k) - 1) : m;
	uint32_t a[34] = { 0 };	/* k <= 1074 */
	int na = (k + 31) / 32, lo = 0;

	r->dp = 0;
	if (ip != 0) {
		char t[20];
		int nt = 0;
		while (ip != 0) {
			t[nt++] = (char)('0' + ip % 10);
			ip /= 10;
		}
		while (nt > 0) {
			dec_push(r, t[--nt]);
			r->dp++;
		}
	}
	big_or_shifted(a, na, fr, 32 * na - k);
	while (lo < na && a[lo] == 0)
		lo++;
	while (lo < na) {
		uint64_t carry = 0;
		char c9[9];
		for (int i = lo; i < na; i++) {
			uint64_t t = (uint64_t)a[i] * 1000000000u + carry;
			a[i] = (uint32_t)t;
			carry = t >> 32;
		}
		for (int j = 8; j >= 0; j--) {
			c9[j] = (char)('0' + carry % 10);
			carry /= 10;
		}
		for (int j = 0; j < 9; j++)
			dec_push(r, c9[j]);
		while (lo < na && a[lo] == 0)
			lo++;
	}
}

/* All the decimal digits of the finite double with these bits (sign
 * ignored).  Async-signal-safe. */
static void dec_from_bits(struct dec *r, uint64_t bits)
{
	int bexp = (int)((bits >> 52) & 0x7ff), e;
	uint64_t m = bits & ((UINT64_C(1) << 52) - 1);

	r->n = 0;
	r->dp = 1;
	if (bexp == 0) {
		e = -1074;
	} else {
		m |= UINT64_C(1) << 52;
		e = bexp - 1075;
	}
	if (m == 0)
		return;
	while ((m & 1) == 0) {
		m >>= 1;
		e++;
	}
	if (e >= 0)
		dec_integer(r, m, e);
	else
		dec_fraction(r, m, -e);
	while (r->n > 0 && r->d[r->n - 1] == '0')
		r->n--;
}

/* Rounds r to its first keep digits (keep <= 0 included: the cut is then
 * left of d[0]), to nearest, ties to even.  Async-signal-safe. */
static void dec_round(struct dec *r, long long keep)
{
	bool up;

	if (r->n == 0 || keep >= r->n)
		return;
	if (keep < 0) {
		r->n = 0;	/* below half a unit */
		return;
	}
	char next = r->d[keep];
	if (next != '5')
		up = next > '5';
	else if (keep + 1 < r->n)
		up = true;	/* more non-zero digits follow */
	else
		up = keep > 0 && ((r->d[keep - 1] - '0') & 1);
	r->n = (int)keep;
	if (up) {
		int i = r->n - 1;
		while (i >= 0 && r->d[i] == '9')
			i--;
		if (i < 0) {
			r->d[0] = '1';
			r->n = 1;
			r->dp++;
		} else {
			r->d[i]++;
			r->n = i + 1;
		}
	}
	while (r->n > 0 && r->d[r->n - 1] == '0')
		r->n--;
}

/* --- floating point --- */

/* %f with precision p: integer digits, point, p fraction digits, into
 * seg (5 entries at most).  r must be rounded already.  Returns the
 * number of segments.  Async-signal-safe. */
static int f_segs(const struct dec *r, long long p, bool point,
	struct seg *seg)
{
	int ns = 0;

	if (r->n == 0 || r->dp <= 0) {
		seg[ns++] = SEG_STR("0", 1);
	} else {
		int take = r->n < r->dp ? r->n : r->dp;
		seg[ns++] = SEG_STR(r->d, take);
		if (r->dp > take)
			seg[ns++] = SEG_FILL('0', r->dp - take);
	}
	if (point)
		seg[ns++] = SEG_STR(".", 1);
	if (r->n == 0) {
		if (p > 0)
			seg[ns++] = SEG_FILL('0', p);
		return ns;
	}
	long long lead = r->dp < 0 ? -(long long)r->dp : 0;
	if (lead > p)
		lead = p;
	int start = r->dp > 0 ? r->dp : 0;
	long long take = r->n > start ? r->n - start : 0;
	if (take > p - lead)
		take = p - lead;
	if (lead > 0)
		seg[ns++] = SEG_FILL('0', lead);
	if (take > 0)
		seg[ns++] = SEG_STR(r->d + start, take);
	if (p - lead - take > 0)
		seg[ns++] = SEG_FILL('0', p - lead - take);
	return ns;
}

/* "e+dd" or "e-ddd" for exponent x into buf; returns its length. */
static size_t exp_str(char *buf, char e, int x, int mindig)
{
	char t[8];
	size_t n = 0;
	int nt = 0;
	unsigned ux = x < 0 ? (unsigned)-x : (unsigned)x;

	buf[n++] = e;
	buf[n++] = x < 0 ? '-' : '+';
	do {
		t[nt++] = (char)('0' + ux % 10);
		ux /= 10;
	} while (ux != 0 || nt < mindig);
	while (nt > 0)
		buf[n++] = t[--nt];
	return n;
}

/* %a %A of the non-negative finite double with these bits.
 * Async-signal-safe. */
static void conv_hexfloat(struct out *o, const struct spec *sp,
	uint64_t bits, char sign)
{
	bool upper = sp->conv == 'A';
	const char *xd = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	int bexp = (int)((bits >> 52) & 0x7ff), lead, x, nn;
	uint64_t frac = bits & ((UINT64_C(1) << 52) - 1);
	char nib[13], hex[13], ebuf[12], pre[3], dot = '.';
	size_t plen = 0;
	long long p = sp->prec;

	if (bexp == 0) {
		lead = 0;
		x = frac != 0 ? -1022 : 0;
	} else {
		lead = 1;
		x = bexp - 1023;
	}
	for (int i = 0; i < 13; i++)
		nib[i] = (char)((frac >> (48 - 4 * i)) & 0xf);
	if (p < 0) {
		nn = 13;
		while (nn > 0 && nib[nn - 1] == 0)
			nn--;
		p = nn;
	} else if (p < 13) {
		int next = nib[p], last = p > 0 ? nib[p - 1] : lead;
		bool sticky = false, up;
		for (int i = (int)p + 1; i < 13; i++)
			sticky = sticky || nib[i] != 0;
		up = next > 8 || (next == 8 && (sticky || (last & 1)));
		nn = (int)p;
		if (up) {
			int i = nn - 1;
			while (i >= 0 && nib[i] == 15)
				nib[i--] = 0;
			if (i < 0)
				lead++;	/* 0x1.f -> 0x2.0, as glibc */
			else
				nib[i]++;
		}
	} else {
		nn = 13;
	}
	for (int i = 0; i < nn; i++)
		hex[i] = xd[(int)nib[i]];
	if (sign)
		pre[plen++] = sign;
	pre[plen++] = '0';
	pre[plen++] = upper ? 'X' : 'x';
	char ld = xd[lead];
	size_t elen = exp_str(ebuf, upper ? 'P' : 'p', x, 1);
	struct seg seg[5];
	int ns = 0;
	seg[ns++] = SEG_STR(&ld, 1);
	if (p > 0 || sp->alt)
		seg[ns++] = SEG_STR(&dot, 1);
	seg[ns++] = SEG_STR(hex, nn);
	seg[ns++] = SEG_FILL('0', p - nn);
	seg[ns++] = SEG_STR(ebuf, elen);
	emit(o, sp, pre, plen, seg, ns, sp->zero);
}

/* f F e E g G a A.  Async-signal-safe. */
static void conv_float(struct out *o, const struct spec *sp, double v)
{
	uint64_t bits;
	char c = sp->conv | 0x20, pre[1], sign, ebuf[12];
	bool upper = sp->conv != c, alt = sp->alt;
	size_t plen = 0, elen = 0;
	long long p = sp->prec < 0 ? 6 : sp->prec;
	struct dec r;
	struct seg seg[8];
	int ns;

	memcpy(&bits, &v, sizeof(bits));
	sign = sign_char(sp, (bits >> 63) != 0);
	bits &= ~(UINT64_C(1) << 63);
	if (sign)
		pre[plen++] = sign;
	if (((bits >> 52) & 0x7ff) == 0x7ff) {
		bool nan = (bits & ((UINT64_C(1) << 52) - 1)) != 0;
		const char *w = nan ? (upper ? "NAN" : "nan") :
			(upper ? "INF" : "inf");
		struct seg s1 = SEG_STR(w, 3);
		emit(o, sp, pre, plen, &s1, 1, false);
		return;
	}
	if (c == 'a') {
		conv_hexfloat(o, sp, bits, sign);
		return;
	}
	dec_from_bits(&r, bits);
	if (c == 'g') {
		int x = 0, x0 = 0;
		if (p == 0)
			p = 1;
		if (r.n > 0) {
			x0 = r.dp - 1;
			dec_round(&r, p);
			x = r.dp - 1;
		}
		if (p > x && x >= -4) {
			c = 'f';
			p = p - 1 - x;
		} else {
			c = 'e';
			/* glibc: a value that style f would have printed
			 * until rounding carried it to 10^P gets no fraction
			 * digits ("%#.2g" of 99.5 is "1.e+02"; C11 says
			 * "1.0e+02").  Only '#' shows it. */
			p = x0 == p - 1 && x == p ? 0 : p - 1;
		}
		if (!alt) {	/* no trailing zeros */
			long long need = c == 'f' ? (long long)r.n - r.dp :
				(long long)r.n - 1;
			if (need < 0)
				need = 0;
			if (need < p)
				p = need;
		}
	}
	if (c == 'f') {
		dec_round(&r, (long long)r.dp + p);
		ns = f_segs(&r, p, p > 0 || alt, seg);
	} else {
		int x;
		dec_round(&r, p + 1);
		x = r.n > 0 ? r.dp - 1 : 0;
		ns = 0;
		seg[ns++] = r.n > 0 ? SEG_STR(r.d, 1) : SEG_STR("0", 1);
		if (p > 0 || alt)
			seg[ns++] = SEG_STR(".", 1);
		long long take = r.n > 1 ? r.n - 1 : 0;
		if (take > p)
			take = p;
		seg[ns++] = SEG_STR(r.d + 1, take);
		seg[ns++] = SEG_FILL('0', p - take);
		elen = exp_str(ebuf, upper ? 'E' : 'e', x, 2);
		seg[ns++] = SEG_STR(ebuf, elen);
	}
	emit(o, sp, pre, plen, seg, ns, sp->zero);
}

/* --- characters and strings --- */

/* The UTF-8 encoding of c into u (4 bytes); its length, or 0 if c is no
 * Unicode scalar value. */
static size_t utf8(char *u, uint32_t c)
{
	if (c < 0x80) {
		u[0] = (char)c;
		return 1;
	}
	if (c < 0x800) {
		u[0] = (char)(0xc0 | (c >> 6));
		u[1] = (char)(0x80 | (c & 0x3f));
		return 2;
	}
	if (c >= 0xd800 && c < 0xe000)
		return 0;
	if (c < 0x10000) {
		u[0] = (char)(0xe0 | (c >> 12));
		u[1] = (char)(0x80 | ((c >> 6) & 0x3f));
		u[2] = (char)(0x80 | (c & 0x3f));
		return 3;
	}
	if (c < 0x110000) {
		u[0] = (char)(0xf0 | (c >> 18));
		u[1] = (char)(0x80 | ((c >> 12) & 0x3f));
		u[2] = (char)(0x80 | ((c >> 6) & 0x3f));
		u[3] = (char)(0x80 | (c & 0x3f));
		return 4;
	}
	return 0;
}

/* %ls: a wide string in UTF-8, at most sp->prec bytes of whole
 * characters.  Returns -1 (EILSEQ) on a value that is no character.
 * Async-signal-safe. */
static int conv_wstr(struct out *o, const struct spec *sp, const wchar_t *ws)
{
	size_t total = 0, max = sp->prec < 0 ? SIZE_MAX : (size_t)sp->prec;
	size_t pad;
	char u[4];

	if (ws == NULL) {
		const char *s = (sp->prec < 0 || sp->prec >= 6) ? "(null)" : "";
		struct seg s1 = SEG_STR(s, strlen(s));
		emit(o, sp, NULL, 0, &s1, 1, false);
		return 0;
	}
	for (const wchar_t *w = ws; *w != 0; w++) {
		size_t k = utf8(u, (uint32_t)*w);
		if (k == 0)
			return -1;
		if (total + k > max)
			break;
		total += k;
	}
	pad = (size_t)sp->width > total ? (size_t)sp->width - total : 0;
	if (!sp->minus)
		out_put(o, NULL, ' ', pad);
	for (size_t done = 0; *ws != 0; ws++) {
		size_t k = utf8(u, (uint32_t)*ws);
		if (done + k > total)
			break;
		out_put(o, u, 0, k);
		done += k;
	}
	if (sp->minus)
		out_put(o, NULL, ' ', pad);
	return 0;
}

/* --- arguments --- */

static intmax_t arg_signed(va_list *ap, enum lmod lm)
{
	switch (lm) {
	case LM_HH:
		return (signed char)va_arg(*ap, int);
	case LM_H:
		return (short)va_arg(*ap, int);
	case LM_L:
		return va_arg(*ap, long);
	case LM_LL:
	case LM_LD:
		return va_arg(*ap, long long);
	case LM_J:
		return va_arg(*ap, intmax_t);
	case LM_Z:
		return va_arg(*ap, ssize_t);
	case LM_T:
		return va_arg(*ap, ptrdiff_t);
	default:
		return va_arg(*ap, int);
	}
}

static uintmax_t arg_unsigned(va_list *ap, enum lmod lm)
{
	switch (lm) {
	case LM_HH:
		return (unsigned char)va_arg(*ap, unsigned int);
	case LM_H:
		return (unsigned short)va_arg(*ap, unsigned int);
	case LM_L:
		return va_arg(*ap, unsigned long);
	case LM_LL:
	case LM_LD:
		return va_arg(*ap, unsigned long long);
	case LM_J:
		return va_arg(*ap, uintmax_t);
	case LM_Z:
		return va_arg(*ap, size_t);
	case LM_T:
		return (size_t)va_arg(*ap, ptrdiff_t);
	default:
		return va_arg(*ap, unsigned int);
	}
}

/* Reads a decimal number at *pp into *v; -1 if it exceeds INT_MAX. */
static int parse_num(const char **pp, int *v)
{
	const char *p = *pp;
	long long n = 0;

	while (*p >= '0' && *p <= '9') {
		n = n * 10 + (*p++ - '0');
		if (n > INT_MAX)
			return -1;
	}
	*pp = p;
	*v = (int)n;
	return 0;
}

/* --- the driver --- */

/*
 * See pluginapi.h.  One pass over fmt; each conversion parses its flags,
 * width, precision and length modifier into a struct spec and calls the
 * converter for its letter.  Async-signal-safe.
 */
int pluginapi_vsnformat(char *buf, size_t size, const char *fmt, va_list ap0)
{
	struct out o = { buf, size, 0 };
	const char *p = fmt;
	int err = 0;
	va_list ap;

	va_copy(ap, ap0);
	while (*p != '\0' && err == 0) {
		const char *start;
		struct spec sp = { .prec = -1 };

		if (*p != '%') {
			const char *q = p;
			while (*q != '\0' && *q != '%')
				q++;
			out_put(&o, p, 0, (size_t)(q - p));
			p = q;
			continue;
		}
		start = p++;
		for (;; p++) {
			if (*p == '-')
				sp.minus = true;
			else if (*p == '+')
				sp.plus = true;
			else if (*p == ' ')
				sp.space = true;
			else if (*p == '#')
				sp.alt = true;
			else if (*p == '0')
				sp.zero = true;
			else if (*p != '\'' && *p != 'I')
				break;
		}
		if (*p == '*') {
			int w = va_arg(ap, int);
			p++;
			if (w < 0) {
				if (w == INT_MIN) {
					err = EOVERFLOW;
					break;
				}
				sp.minus = true;
				w = -w;
			}
			sp.width = w;
		} else if (parse_num(&p, &sp.width) < 0) {
			err = EOVERFLOW;
			break;
		}
		if (*p == '.') {
			p++;
			if (*p == '*') {
				int pr = va_arg(ap, int);
				p++;
				sp.prec = pr < 0 ? -1 : pr;
			} else if (parse_num(&p, &sp.prec) < 0) {
				err = EOVERFLOW;
				break;
			}
		}
		switch (*p) {
		case 'h':
			sp.lm = p[1] == 'h' ? LM_HH : LM_H;
			p += sp.lm == LM_HH ? 2 : 1;
			break;
		case 'l':
			sp.lm = p[1] == 'l' ? LM_LL : LM_L;
			p += sp.lm == LM_LL ? 2 : 1;
			break;
		case 'q':
			sp.lm = LM_LL;
			p++;
			break;
		case 'L':
			sp.lm = LM_LD;
			p++;
			break;
		case 'j':
			sp.lm = LM_J;
			p++;
			break;
		case 'z':
		case 'Z':
			sp.lm = LM_Z;
			p++;
			break;
		case 't':
			sp.lm = LM_T;
			p++;
			break;
		default:
			break;
		}
		sp.conv = *p;
		if (sp.conv == '\0') {
			err = EINVAL;	/* the format ends inside a conversion */
			break;
		}
		p++;
		switch (sp.conv) {
		case 'd':
		case 'i': {
			intmax_t v = arg_signed(&ap, sp.lm);
			uintmax_t mag = v < 0 ? (uintmax_t)0 - (uintmax_t)v :
				(uintmax_t)v;
			conv_int(&o, &sp, mag, v < 0);
			break;
		}
		case 'u':
		case 'o':
		case 'x':
		case 'X':
			conv_int(&o, &sp, arg_unsigned(&ap, sp.lm), false);
			break;
		case 'p': {
			void *ptr = va_arg(ap, void *);
			if (ptr == NULL) {
				struct seg s1 = SEG_STR("(nil)", 5);
				emit(&o, &sp, NULL, 0, &s1, 1, false);
			} else {
				conv_int(&o, &sp, (uintptr_t)ptr, false);
			}
			break;
		}
		case 'C':
			sp.lm = LM_L;
			/* fall through */
		case 'c':
			if (sp.lm == LM_L) {
				char u[4];
				size_t k = utf8(u, (uint32_t)va_arg(ap, wint_t));
				struct seg s1 = SEG_STR(u, k);
				if (k == 0) {
					err = EILSEQ;
					break;
				}
				emit(&o, &sp, NULL, 0, &s1, 1, false);
			} else {
				char ch = (char)(unsigned char)va_arg(ap, int);
				struct seg s1 = SEG_STR(&ch, 1);
				emit(&o, &sp, NULL, 0, &s1, 1, false);
			}
			break;
		case 'S':
			sp.lm = LM_L;
			/* fall through */
		case 's':
			if (sp.lm == LM_L) {
				if (conv_wstr(&o, &sp,
					      va_arg(ap, const wchar_t *)) < 0)
					err = EILSEQ;
			} else {
				const char *s = va_arg(ap, const char *);
				struct seg s1;
				if (s == NULL)
					s = (sp.prec < 0 || sp.prec >= 6) ?
						"(null)" : "";
				s1 = SEG_STR(s, sp.prec < 0 ? strlen(s) :
					strnlen(s, (size_t)sp.prec));
				emit(&o, &sp, NULL, 0, &s1, 1, false);
			}
			break;
		case 'f':
		case 'F':
		case 'e':
		case 'E':
		case 'g':
		case 'G':
		case 'a':
		case 'A':
			if (sp.lm == LM_LD)
				conv_float(&o, &sp,
					(double)va_arg(ap, long double));
			else
				conv_float(&o, &sp, va_arg(ap, double));
			break;
		case 'n':
			(void)va_arg(ap, void *);	/* stores nothing */
			break;
		case '%':
			out_put(&o, "%", 0, 1);
			break;
		default:
			/* unsupported: copy it as written */
			out_put(&o, start, 0, (size_t)(p - start));
			break;
		}
		if (o.len > INT_MAX)
			err = EOVERFLOW;
	}
	va_end(ap);
	if (size > 0)
		buf[o.len < size ? o.len : size - 1] = '\0';
	if (err == 0 && o.len > INT_MAX)
		err = EOVERFLOW;
	if (err != 0) {
		errno = err;
		return -1;
	}
	return (int)o.len;
}

/* See pluginapi.h.  Async-signal-safe. */
int pluginapi_snformat(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = pluginapi_vsnformat(buf, size, fmt, ap);
	va_end(ap);
	return n;
}
