/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mapreport: turn mapsample logs into reports.  Choosing the output
 * back-ends (lib/report/out/output.h) and exit codes only: the options
 * are parsed in args.c, the work is in lib/model, lib/report and
 * lib/report/out.
 *
 * Exit status: 0 all logs read cleanly, 1 bad input (damaged, truncated or
 * unreadable log; whatever could be read is still reported), 2 usage.
 * A partial report definition with an error is bad input too: it is left
 * out, the rest is reported, the status is 1.  With --compare
 * (compare.c): 0 no rule broken, 3 a rule broken, 1 an
 * input problem (it wins over 3: the figures are not to be trusted), 2
 * usage, an invalid rule included.
 */
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <mapsample/maps_error.h>

#include "cmd/mapreport/args.h"
#include "cmd/mapreport/compare.h"
#include "cmd/mapreport/run.h"
#include "config.h"
#include "model/model.h"
#include "model/model_regions.h"
#include "model/runid.h"
#include "report/analyze.h"
#include "report/calltree.h"
#include "report/compare.h"
#include "report/mpi.h"
#include "report/out/output.h"
#include "report/partial_eval.h"
#include "report/progress.h"

/* The outputs a asks for, into outs: -D alone; else the files asked for,
 * and the text report when standard output is not taken.  Returns what
 * they need (OUTPUT_NEED_*); *tool is the one written as the logs are
 * read, or NULL. */
static unsigned pick_outputs(const struct args *a, struct output *outs,
			     struct output **tool)
{
	if (a->dump) {
		pick(outs, "dump", NULL);
	} else {
		if (a->folded)
			pick(outs, "folded", a->folded_path);
		if (a->html_path)
			pick(outs, "html", a->html_path);
		if (a->json)
			pick(outs, "json", a->json_path);
		if (a->pprof_path)
			pick(outs, "pprof", a->pprof_path);
		if (a->speedscope_path)
			pick(outs, "speedscope", a->speedscope_path);
		if (a->trace_path)
			pick(outs, "trace", a->trace_path);
		if ((!a->folded || a->folded_path) && (!a->json || a->json_path))
			pick(outs, "text", NULL);
	}
	unsigned needs = 0;
	*tool = NULL;
	for (size_t i = 0; i < output_nbackends; i++) {
		if (!outs[i].ou_backend)
			continue;
		needs |= outs[i].ou_backend->ob_needs;
		if (outs[i].ou_backend->ob_tool)
			*tool = &outs[i];
	}
	return needs;
}

/*
 * The MPI rank whose log note n is about: the rank of the process it
 * names, or the one rank of its log (a rank's log of a job folder); -1
 * when none or several.
 */
static int32_t note_rank(const struct model *m, const struct args *a,
			 const struct rnote *n)
{
	size_t li = 0;
	while (li < a->nlogs && (!n->file || strcmp(a->logs[li], n->file)))
		li++;
	if (li == a->nlogs)
		return -1;
	int32_t rank = -1;
	for (size_t i = 0; i < m->nprocs; i++) {
		const struct rproc *p = &m->procs[i];
		if (p->log != li || p->rank < 0 || p->is_launcher)
			continue;
		if (n->pid && p->pid == n->pid)
			return p->rank;
		if (rank >= 0 && rank != p->rank)
			rank = INT32_MAX; /* several */
		else if (rank < 0)
			rank = p->rank;
	}
	return rank == INT32_MAX ? -1 : rank;
}

/* What names run id in a message: "'CMD' started DATE", and " in job ID"
 * when it has one. */
static void run_str(const struct runid *id, char *buf, size_t len)
{
	snprintf(buf, len, "'%s' started %s%s%s", id->command, id->started,
		 id->job_id ? " in job " : "", id->job_id ? id->job_id : "");
}

/*
 * Whether the logs of a, whose runs are ids, are of one run
 * (runid_same(): the same job id, or with none the same command line
 * and times that overlap).  Returns 0, or 2 after saying on standard
 * error which two logs are of different runs and what to do; with
 * a->merge, 0 after a warning that says it.
 */
static int check_one_run(const struct args *a, const struct runid *ids)
{
	const struct runid *first = NULL;
	size_t fi = 0;
	for (size_t i = 0; i < a->nlogs; i++) {
		if (!ids[i].command)
			continue; /* nothing says which run it is */
		if (!first) {
			first = &ids[i];
			fi = i;
			continue;
		}
		if (runid_same(first, &ids[i]))
			continue;
		char w1[1024], w2[1024];
		run_str(first, w1, sizeof(w1));
		run_str(&ids[i], w2, sizeof(w2));
		if (a->merge) {
			/* asked for: said once, not refused */
			fprintf(stderr, "mapreport: warning: %s and %s are "
					"logs of different runs (%s; %s); "
					"reported as one (--merge)\n",
				a->logs[fi], a->logs[i], w1, w2);
			return 0;
		}
		fprintf(stderr, "mapreport: %s and %s are logs of different "
				"runs (%s; %s); give --merge to report them "
				"as one, or --compare BASE NEW to compare "
				"them\n",
			a->logs[fi], a->logs[i], w1, w2);
		return 2;
	}
	return 0;
}

/*
 * Reads every log of a into m, with a progress line on a terminal for
 * large logs, giving each record to tool's logread tool too (when not
 * NULL).  Returns 1 when a log was damaged, truncated or unreadable,
 * else 0, or MAPS_ENOMEM (reading stopped); *readable counts the logs
 * read at least in part; ids[i] is the run of log i.
 */
static int read_logs(struct model *m, const struct args *a,
		     struct output *tool, int *readable, struct runid *ids)
{
	struct progress prog;
	uint64_t logbytes = 0, base = 0;
	struct stat sb;
	int status = 0;
	for (size_t i = 0; i < a->nlogs; i++)
		if (stat(a->logs[i], &sb) == 0 && S_ISREG(sb.st_mode))
			logbytes += (uint64_t)sb.st_size;
	progress_init(&prog, a->show_progress && !tool &&
				     isatty(STDERR_FILENO) &&
				     logbytes >= PROGRESS_MIN_BYTES
			     ? stderr
			     : NULL,
		      logbytes);
	m->progress = progress_update;
	m->progress_ctx = &prog;
	*readable = 0;
	/* --jobs: the logs decoded on jobs - 1 threads ahead of this one,
	 * which folds them in their order (the same model); one by one
	 * when the pool cannot start */
	unsigned jobs = a->jobs ? a->jobs : run_auto_jobs();
	struct logpool *pool =
		jobs > 1 && a->nlogs > 1
			? logpool_start(a->logs, a->nlogs,
					jobs - 1 < a->nlogs ? jobs - 1
							    : (unsigned)a->nlogs)
			: NULL;
	for (size_t i = 0; i < a->nlogs; i++) {
		progress_file(&prog, a->logs[i], base);
		if (stat(a->logs[i], &sb) == 0 && S_ISREG(sb.st_mode))
			base += (uint64_t)sb.st_size;
		size_t procs_before = m->nprocs;
		const struct logread_tool *also =
			tool ? tool->ou_backend->ob_tool : NULL;
		void *also_ctx = tool ? tool->ou_file : NULL;
		int rc = pool ? model_load_pool(m, pool, i, a->logs[i], also,
						also_ctx)
			      : model_load(m, a->logs[i], also, also_ctx);
		if (rc < 0) {
			status = rc; /* out of memory: the model is lost */
			break;
		}
		if (rc)
			status = 1;
		if (rc != LOGREAD_UNREADABLE)
			(*readable)++;
		ids[i] = runid_of(m, procs_before);
	}
	logpool_stop(pool);
	progress_end(&prog);
	m->progress = NULL;
	m->progress_ctx = NULL;
	return status;
}

/*
 * Analyses m as needs says, evaluates the partial reports of pset (into
 * *presult) and runs the picked outputs that write after reading, in
 * table order; then says the symbolizer's problems on standard error.
 * Returns 0, 1 when an output could not be written, or MAPS_ENOMEM.
 */
static int write_reports(const struct model *m, const struct args *a,
			 struct output *outs, unsigned needs,
			 const struct partial_set *pset,
			 struct partial_result **presult)
{
	struct analysis an;
	struct calltree t = {0};
	int status = 0, rc = analysis_run(&an, m);
	if (rc)
		return rc;
	if (((needs & OUTPUT_NEED_RANKS) && analysis_rank(&an)) ||
	    (pset && pset->ps_ndefs &&
	     partial_eval(pset, m, presult)) ||
	    ((needs & OUTPUT_NEED_CALLTREE) && calltree_build(&t, m, &an))) {
		rc = MAPS_ENOMEM;
		goto out;
	}
	struct output_in in = {
		m, &an, (needs & OUTPUT_NEED_CALLTREE) ? &t : NULL, *presult,
		pset, a->logs, a->nlogs, a->top,
		"mapreport " PACKAGE_VERSION, NULL, a->callers, a->callees,
		a->lines, a->lines_func, &a->srcpaths, a->html_sources,
		a->full_names, a->disasm, a->html_source_max,
		a->html_sources_max, a->images};
	for (size_t i = 0; i < output_nbackends; i++) {
		if (!outs[i].ou_backend || !outs[i].ou_backend->ob_emit)
			continue;
		if ((rc = run_output(&outs[i], &in)) == MAPS_ENOMEM)
			goto out;
		status |= rc;
	}
	const char *const *lines;
	size_t np = sym_problems(an.st, &lines);
	for (size_t i = 0; i < np; i++)
		fprintf(stderr, "mapreport: %s\n", lines[i]);
	rc = status;
out:
	calltree_free(&t);
	analysis_free(&an);
	return rc;
}

int main(int argc, char **argv)
{
	struct args a = {0};
	/* --partial-report paths; at most one per argument */
	a.partial_paths = calloc((size_t)argc, sizeof(char *));
	/* --base, --new, --fail-if, --rules: at most one per argument */
	const char **cmp_lists = calloc(4 * (size_t)argc, sizeof(char *));
	if (cmp_lists) {
		a.base = cmp_lists;
		a.new = cmp_lists + argc;
		a.fail_if = cmp_lists + 2 * argc;
		a.rules_files = cmp_lists + 3 * argc;
	}
	/* --source-dir and --source-map values, the same */
	a.source_dirs = calloc((size_t)argc, sizeof(char *));
	a.source_maps = calloc((size_t)argc, sizeof(char *));
	a.srcpaths.sp_dirs = a.source_dirs;
	a.srcpaths.sp_maps = a.source_maps;
	/* the back-ends picked, by row of output_backends */
	struct output *outs = calloc(output_nbackends, sizeof(*outs));
	int rc = !a.partial_paths || !outs || !cmp_lists || !a.source_dirs ||
				 !a.source_maps
			 ? run_oom()
			 : args_parse(argc, argv, &a);
	analysis_kernel_frames(!a.no_kernel_frames);
	if (rc < 0 && a.compare)
		rc = run_compare(&a, outs);
	if (rc >= 0) {
		filter_free(&a.filter);
		free(a.source_dirs);
		free(a.source_maps);
		free(a.partial_paths);
		free(cmp_lists);
		free(outs);
		return rc;
	}
	struct output *tool;
	unsigned needs = pick_outputs(&a, outs, &tool);
	int partial_status = 0;
	struct partial_set *pset = NULL;
	struct partial_result *presult = NULL;
	if ((needs & OUTPUT_NEED_ANALYSIS) &&
	    !(pset = load_partials(&a, &partial_status)))
		return run_oom();
	struct model m;
	model_init(&m);
	m.timeline_on = (needs & OUTPUT_NEED_TIMELINE) != 0;
	m.launchers_on = a.launchers;
	struct regions rg;
	regions_init(&rg, a.region);
	m.regions = &rg;
	if (run_spool(a.logs, a.nlogs, (needs & OUTPUT_NEED_ANALYSIS) ||
					       a.region ||
					       filter_active(&a.filter)) ||
	    (a.region && regions_scan(&rg, a.logs, a.nlogs)))
		return run_oom();
	if (tool && start_output(tool))
		return 1;
	if (filter_active(&a.filter)) {
		/* the filters: before reading, so every output follows */
		if (filter_run_start(&a.filter, a.logs, a.nlogs))
			return run_oom();
		m.filter = &a.filter;
	}
	struct runid *ids = calloc(a.nlogs, sizeof(*ids));
	if (!ids)
		return run_oom();
	int readable, status = read_logs(&m, &a, tool, &readable, ids);
	if (tool)
		tool->ou_backend->ob_finish(tool);
	if (status < 0 || ((needs & OUTPUT_NEED_ANALYSIS) &&
			   model_regions_complete(&m, a.logs, a.nlogs)))
		return run_oom();
	int other_runs = !tool && check_one_run(&a, ids);
	for (size_t i = 0; i < a.nlogs; i++)
		runid_free(&ids[i]);
	if (other_runs) {
		free(ids);
		model_free(&m);
		regions_free(&rg);
		filter_free(&a.filter);
		partial_set_free(pset);
		free(a.source_dirs);
		free(a.source_maps);
		free(a.partial_paths);
		free(cmp_lists);
		free(outs);
		return 2;
	}
	free(ids);
	model_drop_launchers(&m);
	if (m.filter) {
		if (model_narrow_metrics(&m))
			return run_oom();
		model_drop_unsampled(&m);
		char f[512];
		if (!m.samples && a.filter.fi_dropped)
			fprintf(stderr, "mapreport: the filters (%s) keep none "
					"of the %" PRIu64 " samples; see the "
					"ids, names and duration in the report "
					"without them\n",
				filter_str(&a.filter, f, sizeof(f)),
				a.filter.fi_dropped);
	}
	if (readable && a.region && rg.filter_id < 0 &&
	    (needs & OUTPUT_NEED_ANALYSIS)) {
		fprintf(stderr, "mapreport: --region %s: no region of that "
				"name in the logs; see the Regions table of the "
				"report without --region\n", a.region);
		readable = 0; /* no report: it would be empty */
		status |= 1;
	}
	/* with no log read, only the JSON report is written: its errors[]
	 * says why, for scripts */
	int json_only = !readable && a.json;
	for (size_t i = 0; json_only && i < output_nbackends; i++)
		if (outs[i].ou_backend &&
		    strcmp(outs[i].ou_backend->ob_name, "json") != 0)
			outs[i].ou_backend = NULL;
	/* samples inside MPI end at the MPI call the program made */
	size_t folded;
	if (!a.mpi_internals && mpi_fold(&m, &folded))
		return run_oom();
	if ((readable || json_only) && (needs & OUTPUT_NEED_ANALYSIS)) {
		rc = write_reports(&m, &a, outs, needs, pset, &presult);
		if (rc == MAPS_ENOMEM)
			return run_oom();
		status |= rc;
	}
	fflush(stdout);
	char line[1024];
	for (size_t i = 0; i < m.nnotes; i++) {
		int32_t r = note_rank(&m, &a, &m.notes[i]);
		model_note_str(&m.notes[i], line, sizeof(line));
		if (r >= 0)
			fprintf(stderr, "mapreport: %s (rank %d)\n", line,
				(int)r);
		else
			fprintf(stderr, "mapreport: %s\n", line);
	}
	model_free(&m);
	regions_free(&rg);
	filter_free(&a.filter);
	free(a.source_dirs);
	free(a.source_maps);
	partial_result_free(presult);
	partial_set_free(pset);
	free(a.partial_paths);
	free(cmp_lists);
	free(outs);
	return status | partial_status;
}
