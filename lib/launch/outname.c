/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * outname: names of logs for many processes (outname.h).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "launch/outname.h"

/* Appends n bytes of s to out at *at; -1 when they do not fit. */
static int put(char *out, size_t len, size_t *at, const char *s, size_t n)
{
	if (*at + n >= len)
		return -1;
	memcpy(out + *at, s, n);
	*at += n;
	out[*at] = 0;
	return 0;
}

/* s with every character that has no place in a file name made '_'. */
static void safe_name(const char *s, char *out, size_t len)
{
	size_t i = 0;
	for (; s[i] && i + 1 < len; i++) {
		char c = s[i];
		int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			 (c >= '0' && c <= '9') || c == '.' || c == '_' ||
			 c == '-';
		out[i] = ok ? c : '_';
	}
	out[i] = 0;
	if (strcmp(out, ".") == 0 || strcmp(out, "..") == 0)
		out[0] = '_';
}

/* Digits of the job's last rank (at least 1). */
static int rank_width(const struct mapjob *j)
{
	unsigned long last = j->size > 0 ? j->size - 1 : 0;
	if ((unsigned long)j->rank > last)
		last = (unsigned long)j->rank;
	int w = 1;
	while (last >= 10) {
		last /= 10;
		w++;
	}
	return w;
}

int outname_expand(const char *pat, const struct mapjob *j, long pid,
		   char *out, size_t len, char *why, size_t whylen)
{
	size_t at = 0;
	char buf[256];
	if (len)
		out[0] = 0;
	for (const char *c = pat; *c; c++) {
		if (*c != '%') {
			if (put(out, len, &at, c, 1))
				goto long_;
			continue;
		}
		c++;
		switch (*c) {
		case '%':
			snprintf(buf, sizeof(buf), "%%");
			break;
		case 'p':
			snprintf(buf, sizeof(buf), "%ld", pid);
			break;
		case 'h': {
			struct utsname u;
			safe_name(uname(&u) == 0 ? u.nodename : "localhost",
				  buf, sizeof(buf));
			break;
		}
		case 'r':
			if (j->rank < 0) {
				snprintf(why, whylen,
					 "%s: %%r: no MPI rank in the "
					 "environment (OMPI_COMM_WORLD_RANK, "
					 "PMIX_RANK, PMI_RANK, SLURM_PROCID); "
					 "run mapsample under mpirun or srun, "
					 "or leave %%r out",
					 pat);
				return -1;
			}
		{
			char digits[16];
			int n = snprintf(digits, sizeof(digits), "%ld",
					 (long)j->rank);
			int pad = rank_width(j) - n;
			memset(buf, '0', pad > 0 ? (size_t)pad : 0);
			memcpy(buf + (pad > 0 ? pad : 0), digits, (size_t)n + 1);
		}
			break;
		case 'j':
			if (!j->job_id[0]) {
				snprintf(why, whylen,
					 "%s: %%j: no job id in the environment "
					 "(PMIX_NAMESPACE, SLURM_JOB_ID, "
					 "MAPSAMPLE_JOB_ID); set "
					 "MAPSAMPLE_JOB_ID or leave %%j out",
					 pat);
				return -1;
			}
			safe_name(j->job_id, buf, sizeof(buf));
			break;
		default:
			if (*c)
				snprintf(why, whylen,
					 "%s: %%%c: unknown; -o takes %%r (rank), "
					 "%%p (pid), %%h (host), %%j (job id) "
					 "and %%%% (a %%)",
					 pat, *c);
			else
				snprintf(why, whylen,
					 "%s: ends in a lone %%; write %%%% for "
					 "a %%", pat);
			return -1;
		}
		if (put(out, len, &at, buf, strlen(buf)))
			goto long_;
	}
	if (!at) {
		snprintf(why, whylen, "-o needs a file name");
		return -1;
	}
	return 0;
long_:
	snprintf(why, whylen, "%s: the name is too long once expanded", pat);
	return -1;
}

int outname_job_default(const char *prog, const struct mapjob *j, char *out,
			size_t len)
{
	const char *base = strrchr(prog, '/');
	base = base ? base + 1 : prog;
	char b[128], id[160];
	safe_name(base, b, sizeof(b));
	if (j->job_id[0]) {
		safe_name(j->job_id, id, sizeof(id));
	} else {
		/* every rank of one launcher process on this host agrees */
		struct utsname u;
		char h[80];
		safe_name(uname(&u) == 0 ? u.nodename : "localhost", h,
			  sizeof(h));
		snprintf(id, sizeof(id), "%s-%ld", h, (long)getppid());
	}
	char size[32] = "";
	if (j->size)
		snprintf(size, sizeof(size), "-%up", (unsigned)j->size);
	char pat[PATH_MAX], why[64];
	int n = snprintf(pat, sizeof(pat), "%s%s-%s/rank-%%r.maplog", b, size,
			 id);
	if (n < 0 || (size_t)n >= sizeof(pat))
		return -1;
	/* the names above hold no '%' (safe_name) */
	return outname_expand(pat, j, 0, out, len, why, sizeof(why));
}

int outname_mkdirs(const char *path, char *failed, size_t failedlen)
{
	char d[PATH_MAX];
	if (snprintf(d, sizeof(d), "%s", path) >= (int)sizeof(d)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	char *last = strrchr(d, '/');
	if (!last)
		return 0;
	*last = 0;
	for (char *s = d + 1; s <= last; s++) {
		if (*s != '/' && *s != 0)
			continue;
		char keep = *s;
		*s = 0;
		/* EEXIST: there already, or another rank made it first */
		if (d[0] && mkdir(d, 0755) && errno != EEXIST) {
			int e = errno;
			snprintf(failed, failedlen, "%s", d);
			errno = e;
			return -1;
		}
		struct stat st;
		if (d[0] && (stat(d, &st) || !S_ISDIR(st.st_mode))) {
			snprintf(failed, failedlen, "%s", d);
			errno = ENOTDIR;
			return -1;
		}
		*s = keep;
	}
	return 0;
}
