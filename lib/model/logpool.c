/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * logpool: logs decoded on a pool of threads ahead of the model (see
 * logpool.h).
 *
 * DESIGN NOTES (threading model)
 *   Threads: the reader (the thread that started the pool: it calls
 *   logpool_read() and logpool_stop(), and folds into the model) and
 *   the pool's workers.  A worker takes the next log not yet taken
 *   (pl->next, in order) when it is less than pl->window logs ahead of
 *   the reader's (pl->reading), opens it and reads it with logread_fd()
 *   through a capturing tool: every record (deep-copied: its strings and
 *   frames), problem and progress call becomes an entry in a block of
 *   its own.  Full blocks are published to the log's slot; a worker whose
 *   log has more than LOG_BUDGET bytes published and not yet consumed
 *   waits.  The reader takes the blocks of its log in order, replays
 *   their entries to its tool (logread_dispatch(), lt_problem,
 *   lt_progress) and frees them; when the log is done it takes the
 *   result and the counts.
 *
 *   Shared state: everything in struct logpool and its slots is read and
 *   written under pl->mu only, but a block, which belongs to one thread
 *   at a time: the worker fills it unpublished, the reader replays it once
 *   taken off the slot.  Conditions: pl->more (a block published, a log
 *   done: the reader waits on it), pl->room (a block taken, the reader
 *   moved on, a log dropped, stop: workers wait on it).  The parser, the
 *   CRC and logread keep no state across calls but what they set up in
 *   constructors, so workers share nothing else.
 *
 *   No deadlock: the reader waits only for the log it is at, which a
 *   worker has taken (it is within the window) and fills until its
 *   budget, which the reader consumes; a worker waits only for room in
 *   its own log, which the reader reaches since every log before it is
 *   being or has been read, or for the window, which the reader moves.
 *   Dropping (a callback of the reader's tool stopped, or
 *   logpool_stop()) marks the slot or the pool; the worker sees it at its
 *   next block, frees what it holds and stops its log.
 *
 *   Determinism: the reader replays each log's entries in the order its
 *   worker's logread_fd() made them, logs in their order, on one thread:
 *   what the reader's tool sees does not depend on the threads' timing.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <mapsample/maps_error.h>

#include "model/logpool.h"
#include "model/spool.h"

#define BLOCK_SIZE (256u * 1024u)
#define LOG_BUDGET (4u * 1024u * 1024u)

enum { ENT_EV = 1, ENT_PROBLEM, ENT_PROGRESS };

/* An entry: this header, then its body; size (header included) a
 * multiple of 8. */
struct ent {
	uint32_t kind, size;
};

struct block {
	struct block *next;
	size_t len, cap;
	uint64_t data[]; /* entries, 8-byte aligned */
};

enum { SLOT_WAITING, SLOT_READING, SLOT_DONE };

struct slot {
	struct block *head, *tail; /* published, not taken */
	size_t buffered;           /* their bytes */
	int state;
	int dropped;               /* the reader does not want the rest */
	int open_errno;
	int rc;
	struct maplog_stats st;
};

struct logpool {
	pthread_mutex_t mu;
	pthread_cond_t more, room;
	const char *const *paths;
	size_t n;
	size_t next;       /* the next log for a worker */
	size_t reading;    /* the log the reader is at */
	size_t window;
	int stop;
	struct slot *slots;
	pthread_t *tids;
	unsigned nthreads;
};

/* A worker's log being captured. */
struct cap {
	struct logpool *pl;
	size_t i;
	struct block *cur; /* being filled, not published */
	int err;           /* MAPS_ENOMEM, or 1: dropped; 0: going on */
};

static void blocks_free(struct block *b)
{
	while (b) {
		struct block *n = b->next;
		free(b);
		b = n;
	}
}

/* Publishes c's block (if any) to its slot and waits for room; sets
 * c->err when the reader dropped the log or the pool stops. */
static void publish(struct cap *c)
{
	struct logpool *pl = c->pl;
	struct slot *s = &pl->slots[c->i];
	pthread_mutex_lock(&pl->mu);
	if (c->cur && !s->dropped && !pl->stop) {
		if (s->tail)
			s->tail->next = c->cur;
		else
			s->head = c->cur;
		s->tail = c->cur;
		s->buffered += c->cur->len;
		c->cur = NULL;
		pthread_cond_broadcast(&pl->more);
	}
	while (s->buffered > LOG_BUDGET && !s->dropped && !pl->stop)
		pthread_cond_wait(&pl->room, &pl->mu);
	if (s->dropped || pl->stop)
		c->err = 1;
	pthread_mutex_unlock(&pl->mu);
	free(c->cur); /* not published: dropped */
	c->cur = NULL;
}

/* Room for an entry of size bytes in c's block, published and replaced
 * when full; NULL when memory ran out or the log was dropped (c->err). */
static struct ent *room_for(struct cap *c, size_t size)
{
	if (c->err)
		return NULL;
	if (c->cur && c->cur->len + size > c->cur->cap)
		publish(c);
	if (c->err)
		return NULL;
	if (!c->cur) {
		size_t cap = size > BLOCK_SIZE ? size : BLOCK_SIZE;
		c->cur = malloc(sizeof(*c->cur) + cap);
		if (!c->cur) {
			c->err = MAPS_ENOMEM;
			return NULL;
		}
		c->cur->next = NULL;
		c->cur->len = 0;
		c->cur->cap = cap;
	}
	struct ent *e = (struct ent *)((char *)c->cur->data + c->cur->len);
	c->cur->len += size;
	return e;
}

static size_t align8(size_t n)
{
	return (n + 7) & ~(size_t)7;
}

static size_t str_size(const char *s)
{
	return s ? align8(strlen(s) + 1) : 0;
}

/* Copies string *sp to *at, points *sp there and moves *at on. */
static void str_copy(const char **sp, char **at)
{
	if (!*sp)
		return;
	size_t n = strlen(*sp) + 1;
	memcpy(*at, *sp, n);
	*sp = *at;
	*at += align8(n);
}

/* The strings of a record of type t: their places in ev (up to 8). */
static size_t ev_strings(struct maplog_ev *ev, const char ***out)
{
	size_t n = 0;
	switch (ev->ev_type) {
	case MAPLOG_TYPE_INITIALIZE:
		out[n++] = &ev->ev_u.init.in_host;
		out[n++] = &ev->ev_u.init.in_exe;
		break;
	case MAPLOG_TYPE_METRIC_DEF:
		out[n++] = &ev->ev_u.mdef.md_id;
		out[n++] = &ev->ev_u.mdef.md_name;
		out[n++] = &ev->ev_u.mdef.md_units;
		out[n++] = &ev->ev_u.mdef.md_description;
		out[n++] = &ev->ev_u.mdef.md_domain;
		out[n++] = &ev->ev_u.mdef.md_colour;
		out[n++] = &ev->ev_u.mdef.md_group;
		out[n++] = &ev->ev_u.mdef.md_plugin;
		break;
	case MAPLOG_TYPE_PLUGIN_ERROR:
		out[n++] = &ev->ev_u.perr.pe_plugin;
		out[n++] = &ev->ev_u.perr.pe_message;
		break;
	case MAPLOG_TYPE_METRIC_ERROR:
		out[n++] = &ev->ev_u.merr.me_message;
		break;
	case MAPLOG_TYPE_MAP_IN:
		out[n++] = &ev->ev_u.map_in.mi_path;
		break;
	case MAPLOG_TYPE_THREAD_BEGIN:
		out[n++] = &ev->ev_u.tbegin.tb_name;
		break;
	case MAPLOG_TYPE_THREAD_NAME:
		out[n++] = &ev->ev_u.tname.tn_name;
		break;
	case MAPLOG_TYPE_PROC_EXEC:
		out[n++] = &ev->ev_u.exec.ex_path;
		break;
	case MAPLOG_TYPE_MARK:
		out[n++] = &ev->ev_u.mark.mk_text;
		break;
	case MAPLOG_TYPE_JOB:
		out[n++] = &ev->ev_u.job.jb_job_id;
		out[n++] = &ev->ev_u.job.jb_launcher;
		out[n++] = &ev->ev_u.job.jb_source;
		break;
	case MAPLOG_TYPE_MPI_CALLS:
		out[n++] = &ev->ev_u.mpi.mc_function;
		break;
	case MAPLOG_TYPE_MANIFEST:
		out[n++] = &ev->ev_u.manifest.mf_plugin;
		out[n++] = &ev->ev_u.manifest.mf_path;
		out[n++] = &ev->ev_u.manifest.mf_description;
		break;
	case MAPLOG_TYPE_FILE:
		out[n++] = &ev->ev_u.file.fi_kind;
		out[n++] = &ev->ev_u.file.fi_name;
		break;
	default:
		break;
	}
	return n;
}

/* The bytes of an array of ev (frames, build-id, file data, argv)
 * and where it is: *pp the array's pointer in ev, *len its bytes. */
static const void **ev_array(struct maplog_ev *ev, size_t *len)
{
	switch (ev->ev_type) {
	case MAPLOG_TYPE_SAMPLE:
		*len = (size_t)ev->ev_u.sample.sa_npc * sizeof(uint64_t);
		return (const void **)&ev->ev_u.sample.sa_pc;
	case MAPLOG_TYPE_MAP_IN:
		*len = ev->ev_u.map_in.mi_buildid_len;
		return (const void **)&ev->ev_u.map_in.mi_buildid;
	case MAPLOG_TYPE_FILE:
		*len = ev->ev_u.file.fi_len;
		return (const void **)&ev->ev_u.file.fi_data;
	default:
		*len = 0;
		return NULL;
	}
}

/* lt_any of the capturing tool: ev, deep-copied, as an entry. */
static int cap_record(void *ctx, const struct maplog_ev *ev)
{
	struct cap *c = ctx;
	struct maplog_ev copy = *ev;
	const char **strs[8];
	size_t ns = ev_strings(&copy, strs), alen;
	const void **arr = ev_array(&copy, &alen);
	size_t size = align8(sizeof(struct ent)) + align8(sizeof(copy));
	for (size_t k = 0; k < ns; k++)
		size += str_size(*strs[k]);
	if (arr && *arr)
		size += align8(alen);
	uint32_t argc = 0;
	if (ev->ev_type == MAPLOG_TYPE_INITIALIZE && ev->ev_u.init.in_argv) {
		argc = ev->ev_u.init.in_argc;
		size += align8((argc + 1) * sizeof(char *));
		for (uint32_t k = 0; k < argc; k++)
			size += str_size(ev->ev_u.init.in_argv[k]);
	}
	if (size > UINT32_MAX)
		return c->err = MAPS_ENOMEM;
	struct ent *e = room_for(c, size);
	if (!e)
		return c->err == 1 ? MAPS_ENOTSUP : c->err;
	e->kind = ENT_EV;
	e->size = (uint32_t)size;
	struct maplog_ev *to = (struct maplog_ev *)((char *)e +
						    align8(sizeof(*e)));
	char *at = (char *)to + align8(sizeof(*to));
	if (arr && *arr) {
		memcpy(at, *arr, alen);
		*arr = at;
		at += align8(alen);
	}
	if (argc) {
		const char **argv = (const char **)(void *)at;
		at += align8((argc + 1) * sizeof(char *));
		for (uint32_t k = 0; k < argc; k++) {
			argv[k] = ev->ev_u.init.in_argv[k];
			str_copy(&argv[k], &at);
		}
		argv[argc] = NULL;
		copy.ev_u.init.in_argv = argv;
	}
	for (size_t k = 0; k < ns; k++)
		str_copy(strs[k], &at);
	*to = copy;
	return 0;
}

static void cap_problem(void *ctx, const struct logread_problem *p)
{
	struct cap *c = ctx;
	size_t size = align8(sizeof(struct ent)) + align8(sizeof(*p));
	struct ent *e = room_for(c, size);
	if (!e)
		return;
	e->kind = ENT_PROBLEM;
	e->size = (uint32_t)size;
	/* lp_file is the path given, which outlives the pool */
	memcpy((char *)e + align8(sizeof(*e)), p, sizeof(*p));
}

static void cap_progress(void *ctx, uint64_t done, uint64_t size)
{
	struct cap *c = ctx;
	size_t n = align8(sizeof(struct ent)) + 2 * sizeof(uint64_t);
	struct ent *e = room_for(c, n);
	if (!e)
		return;
	e->kind = ENT_PROGRESS;
	e->size = (uint32_t)n;
	uint64_t v[2] = {done, size};
	memcpy((char *)e + align8(sizeof(*e)), v, sizeof(v));
}

/* A worker reads log i into its slot. */
static void capture(struct logpool *pl, size_t i)
{
	static const struct logread_tool tool = {
		.lt_any = cap_record,
		.lt_problem = cap_problem,
		.lt_progress = cap_progress,
	};
	struct cap c = {pl, i, NULL, 0};
	struct maplog_stats st;
	memset(&st, 0, sizeof(st));
	int rc = LOGREAD_UNREADABLE, e = 0;
	struct spool *sp;
	int fd = spool_open(pl->paths[i], &sp); /* a pipe's: copied */
	if (fd < 0) {
		e = errno ? errno : EIO;
	} else {
		rc = logread_spooled(fd, sp, pl->paths[i], &tool, &c, &st);
		close(fd);
		if (!c.err)
			publish(&c);
		if (c.err == MAPS_ENOMEM)
			rc = MAPS_ENOMEM;
		/* a problem or progress entry lost to memory: the log
		 * cannot be given as it was read */
	}
	free(c.cur);
	pthread_mutex_lock(&pl->mu);
	struct slot *s = &pl->slots[i];
	s->open_errno = e;
	s->rc = rc;
	s->st = st;
	s->state = SLOT_DONE;
	pthread_cond_broadcast(&pl->more);
	pthread_mutex_unlock(&pl->mu);
}

static void *worker(void *arg)
{
	struct logpool *pl = arg;
	pthread_mutex_lock(&pl->mu);
	for (;;) {
		while (!pl->stop && pl->next < pl->n &&
		       pl->next >= pl->reading + pl->window)
			pthread_cond_wait(&pl->room, &pl->mu);
		if (pl->stop || pl->next >= pl->n)
			break;
		size_t i = pl->next++;
		pl->slots[i].state = SLOT_READING;
		pthread_mutex_unlock(&pl->mu);
		capture(pl, i);
		pthread_mutex_lock(&pl->mu);
	}
	pthread_mutex_unlock(&pl->mu);
	return NULL;
}

struct logpool *logpool_start(const char *const *paths, size_t n,
			      unsigned threads)
{
	if (!threads || threads > LOGPOOL_MAX_THREADS)
		return NULL;
	struct logpool *pl = calloc(1, sizeof(*pl));
	if (!pl)
		return NULL;
	pl->paths = paths;
	pl->n = n;
	pl->window = threads + 2;
	pl->slots = calloc(n ? n : 1, sizeof(*pl->slots));
	pl->tids = calloc(threads, sizeof(*pl->tids));
	if (!pl->slots || !pl->tids || pthread_mutex_init(&pl->mu, NULL)) {
		free(pl->slots);
		free(pl->tids);
		free(pl);
		return NULL;
	}
	pthread_cond_init(&pl->more, NULL);
	pthread_cond_init(&pl->room, NULL);
	for (unsigned t = 0; t < threads; t++) {
		if (pthread_create(&pl->tids[t], NULL, worker, pl)) {
			logpool_stop(pl);
			return NULL;
		}
		pl->nthreads++;
	}
	return pl;
}

/* Replays the entries of block b to tool; 0 or the code a record
 * callback returned to stop. */
static int replay(const struct block *b, const struct logread_tool *tool,
		  void *ctx)
{
	for (size_t at = 0; at < b->len;) {
		const struct ent *e =
			(const struct ent *)((const char *)b->data + at);
		const void *body = (const char *)e + align8(sizeof(*e));
		at += e->size;
		if (e->kind == ENT_EV) {
			int rc = logread_dispatch(tool, ctx, body);
			if (rc)
				return rc;
		} else if (e->kind == ENT_PROBLEM) {
			if (tool->lt_problem)
				tool->lt_problem(ctx, body);
		} else if (tool->lt_progress) {
			const uint64_t *v = body;
			tool->lt_progress(ctx, v[0], v[1]);
		}
	}
	return 0;
}

int logpool_read(struct logpool *pl, size_t i,
		 const struct logread_tool *tool, void *ctx,
		 struct maplog_stats *st, int *open_errno)
{
	*open_errno = 0;
	if (i >= pl->n || i < pl->reading)
		return MAPS_EINVAL;
	pthread_mutex_lock(&pl->mu);
	/* logs skipped: dropped */
	for (size_t k = pl->reading; k < i; k++) {
		pl->slots[k].dropped = 1;
		blocks_free(pl->slots[k].head);
		pl->slots[k].head = pl->slots[k].tail = NULL;
		pl->slots[k].buffered = 0;
	}
	pl->reading = i;
	pthread_cond_broadcast(&pl->room);
	struct slot *s = &pl->slots[i];
	int rc = 0;
	for (;;) {
		while (!s->head && s->state != SLOT_DONE)
			pthread_cond_wait(&pl->more, &pl->mu);
		struct block *b = s->head;
		if (!b)
			break;
		s->head = b->next;
		if (!s->head)
			s->tail = NULL;
		s->buffered -= b->len;
		pthread_cond_broadcast(&pl->room);
		pthread_mutex_unlock(&pl->mu);
		rc = replay(b, tool, ctx);
		free(b);
		pthread_mutex_lock(&pl->mu);
		if (rc) {
			/* the tool stopped: the rest of the log is not
			 * wanted */
			s->dropped = 1;
			blocks_free(s->head);
			s->head = s->tail = NULL;
			s->buffered = 0;
			break;
		}
	}
	if (!rc) {
		*open_errno = s->open_errno;
		if (st)
			*st = s->st;
		rc = s->rc;
	}
	pl->reading = i + 1;
	pthread_cond_broadcast(&pl->room);
	pthread_mutex_unlock(&pl->mu);
	return rc;
}

void logpool_stop(struct logpool *pl)
{
	if (!pl)
		return;
	pthread_mutex_lock(&pl->mu);
	pl->stop = 1;
	pthread_cond_broadcast(&pl->room);
	pthread_cond_broadcast(&pl->more);
	pthread_mutex_unlock(&pl->mu);
	for (unsigned t = 0; t < pl->nthreads; t++)
		pthread_join(pl->tids[t], NULL);
	for (size_t i = 0; i < pl->n; i++)
		blocks_free(pl->slots[i].head);
	pthread_cond_destroy(&pl->more);
	pthread_cond_destroy(&pl->room);
	pthread_mutex_destroy(&pl->mu);
	free(pl->slots);
	free(pl->tids);
	free(pl);
}
