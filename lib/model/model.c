/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * report model: reads logs through logread into per-process, per-thread
 * totals, distinct stacks and metric statistics (see model.h).
 *
 * DESIGN NOTES
 *   One pass: model_load() hands logread a tool whose lt_any callback
 *   folds every record (fold()), giving it first to the caller's tool
 *   when there is one, and whose lt_problem callback keeps problems as
 *   notes.  metrics.c and timeline.c fold their records when fold()
 *   calls them; they call nothing here.
 *
 *   Memory runs out: every allocation goes through lib/common/mem.h and
 *   its failure comes back up as MAPS_ENOMEM.  The first one is kept in
 *   m->error (sticky): the record callback returns it, so logread stops,
 *   and every later model_load() returns it at once.  The model stays
 *   consistent enough to be freed, nothing more.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <mapsample/maps_error.h>

#include "common/mem.h"
#include "model/logread.h"
#include "model/spool.h"
#include "model/model.h"

void model_init(struct model *m)
{
	memset(m, 0, sizeof(*m));
	m->first_ts = UINT64_MAX;
	metrics_init(&m->metrics);
	timeline_init(&m->timeline);
}

/* Frees what process image p holds. */
static void proc_free(struct rproc *p)
{
	for (size_t j = 0; j < p->nmaps; j++)
		free(p->maps[j].path);
	free(p->maps);
	free(p->host);
	free(p->exe);
	free(p->cmdline);
	free(p->job_id);
	free(p->launcher);
	free(p->perfmap);
	free(p->exec_path);
}

void model_free(struct model *m)
{
	model_manifests_free(m);
	for (size_t i = 0; i < m->nprocs; i++)
		proc_free(&m->procs[i]);
	for (size_t i = 0; i < m->nthreads; i++)
		free(m->threads[i].name);
	for (size_t i = 0; i < m->nnotes; i++)
		free(m->notes[i].file);
	free(m->procs);
	free(m->threads);
	free(m->notes);
	free(m->stacks);
	free(m->spc);
	free(m->frames);
	free(m->lstacks);
	free(m->lidx);
	free(m->lspc);
	free(m->sidmap);
	pidkeys_free(&m->pk);
	for (size_t i = 0; i < m->nmpicalls; i++)
		free(m->mpicalls[i].function);
	free(m->mpicalls);
	metrics_free(&m->metrics);
	timeline_free(&m->timeline);
	keymap_free(&m->pkeys);
	memset(m, 0, sizeof(*m));
}

/* The index of process image (pid, image) in m->procs, or -1. */
static long proc_index(const struct model *m, uint32_t pid, uint32_t image)
{
	if (m->pkeys.n == m->nprocs)
		return keymap_find(&m->pkeys, pid, image, 0);
	for (size_t i = m->nprocs; i-- > 0;)
		if (m->procs[i].pid == pid && m->procs[i].image == image)
			return (long)i;
	return -1;
}

/* The process image (pid, image), added if new; NULL when out of memory. */
static struct rproc *proc_get(struct model *m, uint32_t pid, uint32_t image)
{
	long i = proc_index(m, pid, image);
	if (i >= 0)
		return &m->procs[i];
	if (mem_grow(&m->procs, &m->capprocs, m->nprocs, sizeof(*m->procs)))
		return NULL;
	/* the index keeps up while it can; else procs is searched */
	if (m->pkeys.n == m->nprocs &&
	    keymap_put(&m->pkeys, pid, image, 0, m->nprocs))
		keymap_free(&m->pkeys);
	struct rproc *p = &m->procs[m->nprocs++];
	memset(p, 0, sizeof(*p));
	p->pid = pid;
	p->image = image;
	p->start_ts = UINT64_MAX;
	p->rank = -1;
	/* a process's images are one process: the seq of the image it
	 * exec'd from (read before it), else the next */
	long prev = image ? proc_index(m, pid, image - 1) : -1;
	p->seq = prev >= 0 ? m->procs[prev].seq : m->nseq++;
	p->log = m->nlogs ? m->nlogs - 1 : 0;
	const struct pidkey *pk = pidkeys_of(&m->pk, pid);
	p->os_pid = pk ? pk->os_pid : pid;
	return p;
}

/* The thread (pid, image, tid), added if new; NULL when out of memory. */
static struct rthread *thread_get(struct model *m, uint32_t pid,
				  uint32_t image, uint32_t tid)
{
	for (size_t i = m->nthreads; i-- > 0;)
		if (m->threads[i].tid == tid && m->threads[i].pid == pid &&
		    m->threads[i].image == image)
			return &m->threads[i];
	if (mem_grow(&m->threads, &m->capthreads, m->nthreads,
		     sizeof(*m->threads)))
		return NULL;
	struct rthread *t = &m->threads[m->nthreads++];
	memset(t, 0, sizeof(*t));
	t->pid = pid;
	t->image = image;
	t->tid = tid;
	t->first_ts = UINT64_MAX;
	/* --time keeps the range's samples, --region those inside the
	 * region; the end record's seconds are of the whole thread */
	t->cut = (m->filter && m->filter->fi_time) ||
		 (m->regions && m->regions->filter);
	return t;
}

/* Keeps a problem of the log as a note.  Returns 0 or MAPS_ENOMEM. */
static int note_add(struct model *m, enum rnote_kind kind, const char *file,
		    uint64_t off, uint64_t len, int code)
{
	char *f = mem_strdup(file);
	if (!f || mem_grow(&m->notes, &m->capnotes, m->nnotes,
			   sizeof(*m->notes))) {
		free(f);
		return MAPS_ENOMEM;
	}
	m->notes[m->nnotes++] = (struct rnote){kind, f, off, len, code,
					       m->records, LOGREAD_LOSS_NONE,
					       0, 0, 0, 0, 0};
	return 0;
}

double model_thread_seconds(const struct rthread *t, int wall)
{
	uint64_t ns = model_thread_measured(t) ? (wall ? t->wall_ns : t->cpu_ns)
					       : t->weight;
	return (double)ns / 1e9;
}

int model_thread_measured(const struct rthread *t)
{
	return t->ended && !t->cut;
}

int model_clock(const struct model *m)
{
	for (size_t i = 0; i < m->nprocs; i++)
		if (m->procs[i].have_init)
			return (int)m->procs[i].clock;
	return MAPLOG_CLOCK_CPU;
}

double model_rate(const struct model *m)
{
	int wall = model_clock(m) == MAPLOG_CLOCK_WALL;
	double secs = 0;
	uint64_t n = 0;
	for (size_t i = 0; i < m->nthreads; i++) {
		const struct rthread *t = &m->threads[i];
		if (!t->samples)
			continue;
		secs += model_thread_seconds(t, wall);
		n += t->samples;
	}
	return secs > 0 ? (double)n / secs : 0.0;
}

const struct rproc *model_find_proc(const struct model *m, uint32_t pid,
				    uint32_t image)
{
	long i = proc_index(m, pid, image);
	return i < 0 ? NULL : &m->procs[i];
}

const struct rmap *model_find_map(const struct model *m, uint32_t pid,
				  uint32_t image, uint64_t pc)
{
	long i = proc_index(m, pid, image);
	if (i < 0)
		return NULL;
	const struct rproc *p = &m->procs[i];
	/* latest mapping first: addresses can be reused after dlclose */
	for (size_t j = p->nmaps; j-- > 0;)
		if (pc >= p->maps[j].start && pc < p->maps[j].end)
			return &p->maps[j];
	return NULL;
}

double model_run_seconds(const struct model *m)
{
	return m->first_ts != UINT64_MAX && m->last_ts >= m->first_ts
		       ? (double)(m->last_ts - m->first_ts) / 1e9
		       : 0.0;
}

/* The command line as a shell would take it back: arguments with
 * spaces or quotes are single-quoted.  NULL when out of memory. */
static char *join_argv(const struct maplog_ev_initialize *in)
{
	size_t n = 1;
	for (uint32_t i = 0; i < in->in_argc; i++)
		n += 4 * strlen(in->in_argv[i]) + 3;
	char *s = malloc(n), *o = s;
	if (!s)
		return NULL;
	for (uint32_t i = 0; i < in->in_argc; i++) {
		const char *a = in->in_argv[i];
		if (i)
			*o++ = ' ';
		int q = !*a || strpbrk(a, " \t\n'\"\\$`*?;&|<>()") != NULL;
		if (q)
			*o++ = '\'';
		for (; *a; a++) {
			if (*a == '\'') {
				memcpy(o, "'\\''", 4);
				o += 4;
			} else {
				*o++ = *a;
			}
		}
		if (q)
			*o++ = '\'';
	}
	*o = 0;
	return s;
}

static int initialize(struct rproc *p, const struct maplog_ev_initialize *in)
{
	char *host = mem_strdup(in->in_host), *exe = mem_strdup(in->in_exe);
	char *cmdline = join_argv(in);
	if (!host || !exe || !cmdline) {
		free(host);
		free(exe);
		free(cmdline);
		return MAPS_ENOMEM;
	}
	if (p->have_init)
		p->reinits++;
	p->have_init = 1;
	p->ppid = in->in_ppid;
	p->clock = in->in_clock;
	p->timer = in->in_timer;
	p->signal = in->in_signal;
	p->rate_asked = in->in_rate_asked;
	p->period_ns = in->in_period_ns;
	p->wall_sec = in->in_wall_sec;
	p->wall_nsec = in->in_wall_nsec;
	free(p->host);
	free(p->exe);
	free(p->cmdline);
	p->host = host;
	p->exe = exe;
	p->cmdline = cmdline;
	return 0;
}

static int map_in(struct rproc *p, const struct maplog_ev_map_in *mi)
{
	char *path = mem_strdup(mi->mi_path);
	if (!path || mem_grow(&p->maps, &p->capmaps, p->nmaps,
			      sizeof(*p->maps))) {
		free(path);
		return MAPS_ENOMEM;
	}
	struct rmap *r = &p->maps[p->nmaps++];
	memset(r, 0, sizeof(*r));
	r->start = mi->mi_start;
	r->end = mi->mi_end;
	r->offset = mi->mi_offset;
	r->bias = mi->mi_bias;
	r->flags = mi->mi_flags;
	r->path = path;
	r->buildid_len = mi->mi_buildid_len < sizeof(r->buildid)
				 ? mi->mi_buildid_len
				 : (uint32_t)sizeof(r->buildid);
	memcpy(r->buildid, mi->mi_buildid, r->buildid_len);
	return 0;
}

/* A piece of a file the sampler copied: the perf map's pieces are kept
 * in order (a copy starts again at offset 0; a piece out of order, after
 * damage, ends the copy where the last good piece did). */
static int file_piece(struct rproc *p, const struct maplog_ev_file *fi)
{
	if (strcmp(fi->fi_kind, "perf-map") != 0)
		return 0;
	if (fi->fi_offset == 0) {
		p->perfmap_len = 0;
		p->perfmap_cut = 0;
	} else if (fi->fi_offset != p->perfmap_len) {
		return 0;
	}
	char *n = realloc(p->perfmap, p->perfmap_len + fi->fi_len + 1);
	if (!n)
		return MAPS_ENOMEM;
	memcpy(n + p->perfmap_len, fi->fi_data, fi->fi_len);
	p->perfmap = n;
	p->perfmap_len += fi->fi_len;
	n[p->perfmap_len] = 0;
	if (fi->fi_flags & MAPLOG_FILE_CUT)
		p->perfmap_cut = 1;
	return 0;
}

static int sample(struct model *m, struct rproc *p, const struct maplog_ev *ev,
		  struct rthread **tcache)
{
	const struct maplog_ev_sample *s = &ev->ev_u.sample;
	struct rthread *t = *tcache;
	if (!t || t->tid != s->sa_tid || t->pid != ev->ev_pid ||
	    t->image != ev->ev_image)
		t = *tcache = thread_get(m, ev->ev_pid, ev->ev_image,
					 s->sa_tid);
	if (!t)
		return MAPS_ENOMEM;
	t->samples++;
	t->weight += s->sa_weight;
	if (ev->ev_ts < t->first_ts)
		t->first_ts = ev->ev_ts;
	if (ev->ev_ts > t->last_ts)
		t->last_ts = ev->ev_ts;
	p->samples++;
	m->samples++;
	return model_stack_count(m, ev);
}

/* A thread begin, drop, thread name or thread end record of process p. */
static int thread_record(struct model *m, struct rproc *p,
			 const struct maplog_ev *ev)
{
	uint32_t tid = ev->ev_u.tend.te_tid;
	const char *rename = NULL;
	if (ev->ev_type == MAPLOG_TYPE_THREAD_BEGIN) {
		tid = ev->ev_u.tbegin.tb_tid;
		rename = ev->ev_u.tbegin.tb_name;
	} else if (ev->ev_type == MAPLOG_TYPE_DROP) {
		tid = ev->ev_u.drop.dr_tid;
	} else if (ev->ev_type == MAPLOG_TYPE_THREAD_NAME) {
		tid = ev->ev_u.tname.tn_tid;
		rename = ev->ev_u.tname.tn_name; /* the last name wins */
	}
	struct rthread *t = thread_get(m, ev->ev_pid, ev->ev_image, tid);
	if (!t)
		return MAPS_ENOMEM;
	if (rename) {
		if (rename[0]) {
			char *name = mem_strdup(rename);
			if (!name)
				return MAPS_ENOMEM;
			free(t->name);
			t->name = name;
		}
	} else if (ev->ev_type == MAPLOG_TYPE_DROP &&
		   ev->ev_u.drop.dr_reason == MAPLOG_DROP_MARK) {
		/* marks, not samples */
		m->marks_lost += ev->ev_u.drop.dr_count;
	} else if (ev->ev_type == MAPLOG_TYPE_DROP) {
		t->dropped += ev->ev_u.drop.dr_count;
		p->dropped += ev->ev_u.drop.dr_count;
		m->dropped += ev->ev_u.drop.dr_count;
	} else {
		t->ended = 1;
		t->cpu_ns = ev->ev_u.tend.te_cpu_ns;
		t->wall_ns = ev->ev_u.tend.te_wall_ns;
	}
	return 0;
}

/* A JOB record of process p: the variables' word until the MPI
 * library's (source "MPI") is in, a rank's child's too; a launcher
 * stays one.  Returns 0 or
 * MAPS_ENOMEM. */
static int job(struct rproc *p, const struct maplog_ev_job *j)
{
	if (j->jb_role == MAPLOG_JOB_LAUNCHER)
		p->is_launcher = 1;
	int mpi = strcmp(j->jb_source, "MPI") == 0;
	if (mpi || !p->rank_from_mpi) {
		p->rank = j->jb_rank;
		p->job_size = j->jb_size;
		p->rank_from_mpi = mpi;
		p->is_rank_child = j->jb_role == MAPLOG_JOB_RANK_CHILD;
	}
	if (j->jb_job_id[0] && (!p->job_id || strcmp(p->job_id, j->jb_job_id))) {
		char *id = mem_strdup(j->jb_job_id);
		if (!id)
			return MAPS_ENOMEM;
		free(p->job_id);
		p->job_id = id;
	}
	if (j->jb_launcher[0] &&
	    (!p->launcher || strcmp(p->launcher, j->jb_launcher))) {
		char *l = mem_strdup(j->jb_launcher);
		if (!l)
			return MAPS_ENOMEM;
		free(p->launcher);
		p->launcher = l;
	}
	return 0;
}

/* Whether m's filter keeps the sample ev of process p: 1, 0, or
 * MAPS_ENOMEM. */
/* Does m's filter keep sample ev of thread t in process p? */
static int proc_keeps(const struct model *m, const struct rproc *p,
		      const struct rthread *t, const struct maplog_ev *ev)
{
	const char *prog = p->exe ? strrchr(p->exe, '/') : NULL;
	if (!filter_keep_rank(m->filter, p->rank >= 0 ? p->rank
						      : (int32_t)p->seq))
		return 0;
	/* --pid is the pid people saw (model_real_pid()): every process
	 * of it, whichever its log or PID namespace */
	return filter_keep(m->filter, p->os_pid & (MODEL_PIDNS_TAG - 1),
			   prog ? prog + 1 : p->exe, ev->ev_u.sample.sa_tid,
			   t->name, ev->ev_ts);
}

static int sample_passes(struct model *m, struct rproc *p,
			 const struct maplog_ev *ev, struct rthread **tcache)
{
	uint32_t tid = ev->ev_u.sample.sa_tid;
	struct rthread *t = *tcache;
	if (!t || t->tid != tid || t->pid != ev->ev_pid ||
	    t->image != ev->ev_image)
		t = *tcache = thread_get(m, ev->ev_pid, ev->ev_image, tid);
	if (!t)
		return MAPS_ENOMEM;
	return proc_keeps(m, p, t, ev);
}

int model_sample_kept(const struct model *m, const struct maplog_ev *ev,
		      size_t thread)
{
	if (!regions_keeps(m->regions, ev))
		return 0;
	if (!m->filter)
		return 1;
	const struct rproc *p = model_find_proc(m, ev->ev_pid, ev->ev_image);
	if (!p || thread >= m->nthreads)
		return 0;
	return proc_keeps(m, p, &m->threads[thread], ev);
}

int model_mark_kept(const struct model *m, const struct maplog_ev *ev)
{
	const struct rfilter *f = m->filter;
	if (!f)
		return 1;
	if (!filter_keep_time(f, ev->ev_ts))
		return 0;
	uint32_t tid = ev->ev_u.mark.mk_tid;
	const char *name = NULL;
	for (size_t i = m->nthreads; i-- > 0;)
		if (m->threads[i].tid == tid && m->threads[i].pid == ev->ev_pid &&
		    m->threads[i].image == ev->ev_image) {
			name = m->threads[i].name;
			break;
		}
	const struct rproc *p = model_find_proc(m, ev->ev_pid, ev->ev_image);
	if (!p)
		return filter_keep_thread(f, ev->ev_pid & (MODEL_PIDNS_TAG - 1),
					  NULL, -1, tid, name);
	const char *prog = p->exe ? strrchr(p->exe, '/') : NULL;
	return filter_keep_thread(f, p->os_pid & (MODEL_PIDNS_TAG - 1),
				  prog ? prog + 1 : p->exe,
				  p->rank >= 0 ? p->rank : (int32_t)p->seq, tid,
				  name);
}

/* The (pid, image) index of m's processes, after the array changed. */
static void reindex_procs(struct model *m)
{
	keymap_free(&m->pkeys);
	for (size_t i = 0; i < m->nprocs; i++)
		if (keymap_put(&m->pkeys, m->procs[i].pid, m->procs[i].image,
			       0, i)) {
			keymap_free(&m->pkeys); /* searched instead */
			break;
		}
}

void model_drop_unsampled(struct model *m)
{
	size_t n = 0;
	for (size_t i = 0; i < m->nthreads; i++) {
		if (m->threads[i].samples)
			m->threads[n++] = m->threads[i];
		else
			free(m->threads[i].name);
	}
	m->nthreads = n;
	n = 0;
	for (size_t i = 0; i < m->nprocs; i++) {
		if (m->procs[i].samples)
			m->procs[n++] = m->procs[i];
		else
			proc_free(&m->procs[i]);
	}
	m->nprocs = n;
	reindex_procs(m);
}

void model_drop_launchers(struct model *m)
{
	if (m->launchers_on)
		return;
	size_t n = 0;
	for (size_t i = 0; i < m->nthreads; i++) {
		const struct rproc *p = model_find_proc(m, m->threads[i].pid,
							m->threads[i].image);
		if (p && p->is_launcher)
			free(m->threads[i].name);
		else
			m->threads[n++] = m->threads[i];
	}
	m->nthreads = n;
	n = 0;
	for (size_t i = 0; i < m->nprocs; i++) {
		if (m->procs[i].is_launcher)
			proc_free(&m->procs[i]);
		else
			m->procs[n++] = m->procs[i];
	}
	m->nprocs = n;
	reindex_procs(m);
}

/* An MPI_CALLS record: adds to process p's totals of its function.
 * A process writes its records together, so only the entries at the end
 * that are p's are searched; a function of p found again after another
 * process's records gets a second entry (readers add them up).
 * Returns 0 or MAPS_ENOMEM. */
static int mpi_calls(struct model *m, const struct rproc *p,
		     const struct maplog_ev_mpi_calls *mc)
{
	struct rmpicall *c = NULL;
	for (size_t i = m->nmpicalls; i-- > 0 && !c &&
				      m->mpicalls[i].pid == p->pid &&
				      m->mpicalls[i].image == p->image;)
		if (m->mpicalls[i].pid == p->pid &&
		    m->mpicalls[i].image == p->image &&
		    !strcmp(m->mpicalls[i].function, mc->mc_function))
			c = &m->mpicalls[i];
	if (!c) {
		char *f = mem_strdup(mc->mc_function);
		if (!f || mem_grow(&m->mpicalls, &m->capmpicalls,
				   m->nmpicalls, sizeof(*m->mpicalls))) {
			free(f);
			return MAPS_ENOMEM;
		}
		c = &m->mpicalls[m->nmpicalls++];
		memset(c, 0, sizeof(*c));
		c->pid = p->pid;
		c->image = p->image;
		c->function = f;
	}
	c->calls += mc->mc_calls;
	c->time_ns += mc->mc_time_ns;
	c->sent += mc->mc_sent;
	c->received += mc->mc_received;
	return 0;
}

/* Folds one record into m.  Returns 0 or MAPS_ENOMEM. */
static int fold(struct model *m, const struct maplog_ev *ev,
		struct rthread **tcache, struct rproc **pcache)
{
	struct rproc *p = *pcache;
	if (!p || p->pid != ev->ev_pid || p->image != ev->ev_image)
		p = *pcache = proc_get(m, ev->ev_pid, ev->ev_image);
	if (!p)
		return MAPS_ENOMEM;
	if (ev->ev_ts < p->start_ts)
		p->start_ts = ev->ev_ts;
	if (ev->ev_ts > p->end_ts)
		p->end_ts = ev->ev_ts;
	if (ev->ev_ts < m->first_ts)
		m->first_ts = ev->ev_ts;
	if (ev->ev_ts > m->last_ts)
		m->last_ts = ev->ev_ts;
	if (ev->ev_type == MAPLOG_TYPE_SAMPLE)
		m->samples_read++;
	if (ev->ev_type == MAPLOG_TYPE_SAMPLE && p->is_launcher &&
	    !m->launchers_on) {
		m->launcher_samples++; /* not the application's */
		return 0;
	}
	if (m->filter && ev->ev_type == MAPLOG_TYPE_SAMPLE) {
		int keep = sample_passes(m, p, ev, tcache);
		if (keep <= 0)
			return keep; /* left out, or out of memory */
	}
	/* --time: metric values of the range only (the processes are
	 * chosen after reading: model_narrow_metrics()) */
	if (m->filter && ev->ev_type == MAPLOG_TYPE_METRIC_VALUE &&
	    !filter_keep_time(m->filter, ev->ev_ts))
		return 0;
	if (m->regions) {
		/* 1: a sample --region leaves out of every total */
		int r = regions_fold(m->regions, ev);
		if (r)
			return r < 0 ? r : 0;
	}
	/* the filters: the timeline's marks (and the range they widen it
	 * to) of the range and the chosen threads only; regions still saw
	 * them all */
	if (m->timeline_on &&
	    !(m->filter && ev->ev_type == MAPLOG_TYPE_MARK &&
	      !model_mark_kept(m, ev)) &&
	    timeline_fold(&m->timeline, ev))
		return MAPS_ENOMEM;

	switch (ev->ev_type) {
	case MAPLOG_TYPE_SAMPLE:
		return sample(m, p, ev, tcache);
	case MAPLOG_TYPE_INITIALIZE:
		return initialize(p, &ev->ev_u.init);
	case MAPLOG_TYPE_MAP_IN:
		return map_in(p, &ev->ev_u.map_in);
	case MAPLOG_TYPE_THREAD_BEGIN:
	case MAPLOG_TYPE_DROP:
	case MAPLOG_TYPE_THREAD_END:
	case MAPLOG_TYPE_THREAD_NAME:
		*tcache = NULL;
		return thread_record(m, p, ev);
	case MAPLOG_TYPE_METRIC_DEF:
	case MAPLOG_TYPE_METRIC_VALUE:
	case MAPLOG_TYPE_PLUGIN_ERROR:
	case MAPLOG_TYPE_METRIC_ERROR:
		return metrics_fold(&m->metrics, ev);
	case MAPLOG_TYPE_JOB:
		return job(p, &ev->ev_u.job);
	case MAPLOG_TYPE_FILE:
		return file_piece(p, &ev->ev_u.file);
	case MAPLOG_TYPE_MANIFEST:
		return model_manifest_add(m, p->pid, p->image,
					  &ev->ev_u.manifest);
	case MAPLOG_TYPE_PROC_EXIT:
		p->exited = 1;
		p->exit_how = ev->ev_u.exit.px_how;
		p->exit_code = ev->ev_u.exit.px_code;
		return 0;
	case MAPLOG_TYPE_MPI_CALLS:
		return mpi_calls(m, p, &ev->ev_u.mpi);
	case MAPLOG_TYPE_PROC_EXEC:
		return model_image_exec(p, &ev->ev_u.exec);
	default:
		return 0;
	}
}

struct load {
	struct model *m;
	const struct logread_tool *also;
	void *also_ctx;
	struct rthread *tcache;
	struct rproc *pcache;
};

/* Pids across logs: keyed by m->pk (model/pidkeys.h), which the
 * passes that read the logs again (model_reread()) key them by too. */

struct reread {
	const struct model *m;
	uint32_t log;
	const struct logread_tool *tool;
	void *ctx;
};

static int reread_record(void *ctx, const struct maplog_ev *ev)
{
	struct reread *r = ctx;
	struct maplog_ev copy;
	return logread_dispatch(r->tool, r->ctx,
				pidkeys_rekey(&r->m->pk, r->log, ev, &copy));
}

static void reread_problem(void *ctx, const struct logread_problem *p)
{
	struct reread *r = ctx;
	if (r->tool->lt_problem)
		r->tool->lt_problem(r->ctx, p);
}

static void reread_progress(void *ctx, uint64_t done, uint64_t size)
{
	struct reread *r = ctx;
	if (r->tool->lt_progress)
		r->tool->lt_progress(r->ctx, done, size);
}

int model_reread(const struct model *m, size_t log, const char *path,
		 const struct logread_tool *tool, void *ctx)
{
	if (!m->pk.n)
		return logread_file(path, tool, ctx, NULL);
	static const struct logread_tool rt = {
		.lt_any = reread_record,
		.lt_problem = reread_problem,
		.lt_progress = reread_progress,
	};
	struct reread r = {m, (uint32_t)log, tool, ctx};
	return logread_file(path, &rt, &r, NULL);
}

static int load_record(void *ctx, const struct maplog_ev *ev)
{
	struct load *ld = ctx;
	if (ld->m->error)
		return ld->m->error; /* a problem's note could not be kept */
	ld->m->records++;
	if (ld->also) {
		int rc = logread_dispatch(ld->also, ld->also_ctx, ev);
		if (rc)
			return rc;
	}
	if (pidkeys_see(&ld->m->pk, ev))
		return ld->m->error = MAPS_ENOMEM;
	struct maplog_ev copy;
	int rc = fold(ld->m,
		      pidkeys_rekey(&ld->m->pk, ld->m->nlogs - 1, ev, &copy),
		      &ld->tcache, &ld->pcache);
	if (rc)
		ld->m->error = rc;
	return rc;
}

static void load_problem(void *ctx, const struct logread_problem *p)
{
	struct load *ld = ctx;
	/* a file that cannot be opened keeps its errno in length */
	uint64_t len = p->lp_kind == LOGREAD_FATAL && p->lp_code == MAPS_EIO
			       ? (uint64_t)p->lp_errno
			       : p->lp_length;
	if (note_add(ld->m, (enum rnote_kind)p->lp_kind, p->lp_file,
		     p->lp_offset, len, p->lp_code)) {
		if (!ld->m->error)
			ld->m->error = MAPS_ENOMEM;
		return;
	}
	struct rnote *n = &ld->m->notes[ld->m->nnotes - 1];
	n->loss = p->lp_loss;
	n->pid = p->lp_pid;
	n->image = p->lp_image;
	n->tid = p->lp_tid;
	n->count = p->lp_count;
	n->total = p->lp_total;
}

static void load_progress(void *ctx, uint64_t done, uint64_t size)
{
	struct load *ld = ctx;
	if (ld->m->progress)
		ld->m->progress(ld->m->progress_ctx, done, size);
}

/* model_load() of path, or of log i of pool when pool is not NULL. */
static int load(struct model *m, const char *path, struct logpool *pool,
		size_t i, const struct logread_tool *also, void *also_ctx)
{
	static const struct logread_tool tool = {
		.lt_any = load_record,
		.lt_problem = load_problem,
		.lt_progress = load_progress,
	};
	if (m->error)
		return m->error;
	struct load ld = {m, also, also_ctx, NULL, NULL};
	struct maplog_stats st;
	int rc = 0, e = 0, fd = -1;
	struct spool *sp = NULL;
	m->nlogs++; /* the log's number, read or not (model_reread()) */
	pidkeys_log(&m->pk, (uint32_t)(m->nlogs - 1));
	if (!pool) {
		fd = spool_open(path, &sp); /* a pipe's: copied as read */
		e = fd < 0 ? errno : 0;
	}
	if (pool)
		rc = logpool_read(pool, i, &tool, &ld, &st, &e);
	if (e) {
		if (note_add(m, RNOTE_FATAL, path, 0, (uint64_t)e, MAPS_EIO))
			return m->error = MAPS_ENOMEM;
		return LOGREAD_UNREADABLE;
	}
	m->files++;
	if (!pool) {
		rc = logread_spooled(fd, sp, path, &tool, &ld, &st);
		close(fd);
	}
	model_stacks_flush(m);
	if (rc == MAPS_ENOMEM && !m->error)
		m->error = rc; /* in logread or the parser: sticky too */
	if (m->error)
		return m->error;
	if (rc < 0)
		return rc;
	m->bytes += st.st_bytes;
	m->chunks += st.st_chunks;
	m->open_chunks += st.st_open_chunks;
	if (rc == LOGREAD_CLEAN && st.st_records == 0 && !m->nprocs) {
		if (note_add(m, RNOTE_FATAL, path, 0, 0, MAPS_ETRUNCATED))
			return m->error = MAPS_ENOMEM;
		rc = LOGREAD_UNREADABLE;
	}
	return rc;
}

int model_load(struct model *m, const char *path,
	       const struct logread_tool *also, void *also_ctx)
{
	return load(m, path, NULL, 0, also, also_ctx);
}

int model_load_pool(struct model *m, struct logpool *pool, size_t i,
		    const char *path, const struct logread_tool *also,
		    void *also_ctx)
{
	return load(m, path, pool, i, also, also_ctx);
}
