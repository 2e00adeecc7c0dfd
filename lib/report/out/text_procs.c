/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * text_procs: the text report's Processes and Threads tables.
 *
 * A process that exec'd is one pid with several images (model/images.c):
 * its images are listed together, in the order of the exec chain, under
 * a line for the whole process (IMAGE "FIRST-LAST", its samples, its
 * exit and the chain of programs).  Each image keeps its own row with
 * its own samples, and its threads their own rows with their own CPU
 * time and rate.  A process of more images than --images N shows its
 * first and last ones and one line for those between, so that a chain
 * of 60 exec'd wrappers stays readable; --images all lists every one.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <mapsample/maps_error.h>

#include "report/out/text.h"

static double pct(uint64_t a, uint64_t b)
{
	return b ? 100.0 * (double)a / (double)b : 0.0;
}

/* What the tables show of a process of n images (order[i..i+n)):
 * images order[i..i+head) and order[i+n-tail..i+n); the others hidden. */
static void shown(size_t n, unsigned max, size_t *head, size_t *tail)
{
	if (max == 0 || n <= max || max < 2) {
		*head = n;
		*tail = 0;
		return;
	}
	*head = (max + 1) / 2;
	*tail = max - *head;
}

/* The EXIT column of image p. */
static const char *exit_str(const struct rproc *p, char *buf, size_t len)
{
	if (p->exited)
		snprintf(buf, len, "%s %d",
			 p->exit_how == MAPLOG_EXIT_SIGNALED ? "signal" : "status",
			 p->exit_code);
	else if (p->exec_path)
		snprintf(buf, len, "exec");
	else
		snprintf(buf, len, "-");
	return buf;
}

static void proc_row(const struct model *m, const struct rproc *p,
		     int indent, FILE *out)
{
	char ex[32], pb[48];
	fprintf(out, "  %8s %5u %10" PRIu64 " %6.2f%%  %-14s %s",
		model_pid_str(m, p->pid, pb, sizeof(pb)), p->image, p->samples,
		pct(p->samples, m->samples), exit_str(p, ex, sizeof(ex)),
		indent ? "  " : "");
	if (p->cmdline)
		text_put_clean(out, p->cmdline);
	else
		fputs("(no initialize record)", out);
	fputc('\n', out);
}

/* The line for process order[i..i+n) of n > 1 images. */
static void chain_row(const struct model *m, const size_t *order, size_t n,
		      FILE *out)
{
	const struct rproc *first = &m->procs[order[0]];
	const struct rproc *last = &m->procs[order[n - 1]];
	uint64_t samples = 0;
	for (size_t j = 0; j < n; j++)
		samples += m->procs[order[j]].samples;
	char pb[48], im[24], ex[32], chain[512];
	snprintf(im, sizeof(im), "%u-%u", first->image, last->image);
	fprintf(out, "  %8s %5s %10" PRIu64 " %6.2f%%  %-14s exec chain of "
		     "%zu images: ",
		model_pid_str(m, first->pid, pb, sizeof(pb)), im, samples,
		pct(samples, m->samples), exit_str(last, ex, sizeof(ex)), n);
	text_put_clean(out, model_images_chain(m, order, n, chain,
					       sizeof(chain)));
	fputc('\n', out);
}

/* Samples and images of order[from..to). */
static uint64_t hidden_samples(const struct model *m, const size_t *order,
			       size_t from, size_t to)
{
	uint64_t s = 0;
	for (size_t j = from; j < to; j++)
		s += m->procs[order[j]].samples;
	return s;
}

static void thread_row(const struct model *m, const struct rthread *t,
		       int wall, FILE *out)
{
	double secs = model_thread_seconds(t, wall);
	char pb[48];
	fprintf(out, "  %8s %5u %8u %-16s %10" PRIu64 " %6.2f%% %10.3f "
		     "%10.1f%s\n",
		model_pid_str(m, t->pid, pb, sizeof(pb)), t->image, t->tid,
		t->name ? t->name : "-", t->samples, pct(t->samples, m->samples),
		secs, secs > 0 ? (double)t->samples / secs : 0.0,
		t->ended ? "" : " *");
}

int text_procs(const struct model *m, unsigned images, FILE *out)
{
	int wall = model_clock(m) == MAPLOG_CLOCK_WALL;
	size_t np = m->nprocs;
	size_t *order = calloc(np ? np : 1, sizeof(*order));
	/* 1: the image at that place of order is hidden */
	unsigned char *hide = calloc(np ? np : 1, 1);
	struct model_tkey *tk =
		calloc(m->nthreads ? m->nthreads : 1, sizeof(*tk));
	if (!order || !hide || !tk ||
	    (np && model_images_order(m, order) != np) ||
	    model_threads_order(m, order, tk)) {
		free(order);
		free(hide);
		free(tk);
		return MAPS_ENOMEM;
	}

	fprintf(out, "\nProcesses\n");
	fprintf(out, "  %8s %5s %10s %7s  %-14s %s\n", "PID", "IMAGE",
		"SAMPLES", "%", "EXIT", "COMMAND");
	int capped = 0;
	for (size_t i = 0; i < np;) {
		size_t n = model_images_run(m, order, np, i), head, tail;
		shown(n, images, &head, &tail);
		if (n > 1)
			chain_row(m, order + i, n, out);
		for (size_t j = 0; j < head; j++)
			proc_row(m, &m->procs[order[i + j]], n > 1, out);
		if (head + tail < n) {
			capped = 1;
			for (size_t j = head; j < n - tail; j++)
				hide[i + j] = 1;
			fprintf(out, "  %8s %5s %10" PRIu64 " %6.2f%%  %-14s "
				     "  ... %zu more images (%u to %u)\n",
				"...", "...",
				hidden_samples(m, order, i + head, i + n - tail),
				pct(hidden_samples(m, order, i + head,
						   i + n - tail),
				    m->samples),
				"", n - head - tail,
				m->procs[order[i + head]].image,
				m->procs[order[i + n - tail - 1]].image);
		}
		for (size_t j = n - tail; j < n; j++)
			proc_row(m, &m->procs[order[i + j]], 1, out);
		i += n;
	}
	if (capped)
		fprintf(out, "  --images all lists every image of a "
			     "process, --images N up to N\n");
	for (size_t i = 0; i < np; i++) {
		const struct rproc *p = &m->procs[i];
		if (p->reinits) {
			char pb[48];
			fprintf(out, "  ! pid %s image %u: %" PRIu32 " more "
				     "program%s wrote under this pid and "
				     "image (an exec the sampler did not "
				     "see, or the pid used again): counted "
				     "as one\n",
				model_pid_str(m, p->pid, pb, sizeof(pb)),
				p->image, p->reinits,
				p->reinits == 1 ? "" : "s");
		}
	}

	size_t nt = m->nthreads;
	fprintf(out, "\nThreads\n");
	fprintf(out, "  %8s %5s %8s %-16s %10s %7s %10s %10s\n", "PID", "IMAGE",
		"TID", "NAME", "SAMPLES", "%", wall ? "WALL-S" : "CPU-S",
		"RATE");
	for (size_t k = 0; k < nt;) {
		const struct rthread *t = &m->threads[tk[k].i];
		if (tk[k].pos >= np || !hide[tk[k].pos]) {
			thread_row(m, t, wall, out);
			k++;
			continue;
		}
		/* one line for the threads of the hidden images here */
		size_t from = tk[k].pos, to = from, threads = 0;
		uint64_t samples = 0;
		double secs = 0;
		for (; k < nt && tk[k].pos < np && hide[tk[k].pos]; k++) {
			const struct rthread *h = &m->threads[tk[k].i];
			to = tk[k].pos;
			samples += h->samples;
			secs += model_thread_seconds(h, wall);
			threads++;
		}
		fprintf(out, "  %8s %5s %8s %-16s %10" PRIu64 " %6.2f%% %10.3f "
			     "%10.1f  (%zu threads of images %u to %u)\n",
			"...", "...", "...", "", samples,
			pct(samples, m->samples), secs,
			secs > 0 ? (double)samples / secs : 0.0, threads,
			m->procs[order[from]].image, m->procs[order[to]].image);
	}
	for (size_t i = 0; i < m->nthreads; i++)
		if (!m->threads[i].ended) {
			fprintf(out, "  * no end recorded (killed?): time "
				     "from its samples' weights\n");
			break;
		}
	if (model_cut_note(m))
		fprintf(out, "  %s\n", model_cut_note(m));
	free(order);
	free(hide);
	free(tk);
	return 0;
}
