/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * summary: the Performance-Reports-style summary at the top of a report.
 * The job's time split into compute, MPI and I/O (report/ranks.h: from
 * the samples, with the time-in-MPI metric where the logs hold it), a
 * verdict in one line and at most SUMMARY_ADVICE lines of advice drawn
 * from the figures.  Every sentence carries the figure it rests on;
 * nothing is said that the figures do not show.  No formatting of the
 * report here: the outputs print the strings and numbers as they are.
 */
#ifndef MAPSAMPLE_REPORT_SUMMARY_H
#define MAPSAMPLE_REPORT_SUMMARY_H

#include <stddef.h>

#include "report/mpi.h"
#include "report/ranks.h"

#define SUMMARY_ADVICE 2
#define SUMMARY_TEXT 256

/* A share of the time from which a part is what the run is bound by. */
#define SUMMARY_BOUND 0.30
/* Load imbalance (max / mean of compute) worth a line of advice. */
#define SUMMARY_IMBALANCE 1.10
/* Point-to-point calls moving fewer bytes than this on average are small
 * messages: their cost is the per-call latency, not the bytes. */
#define SUMMARY_SMALL_MSG 4096

enum summary_kind {
	SUMMARY_NONE = 0,    /* no samples: nothing to say */
	SUMMARY_COMPUTE,
	SUMMARY_MPI,
	SUMMARY_IO,
};

struct summary {
	enum summary_kind kind;
	size_t nprocs;        /* processes (ranks) summed */
	double seconds;       /* of the sampling clock, all of them */
	double wall;          /* the run's wall-clock seconds */
	double compute, mpi, io; /* shares of seconds; they add up to 1 */
	double coll;          /* share of seconds in collective MPI calls */
	int mpi_metric;       /* MPI time from the time-in-MPI metric */
	double imbalance;     /* report/ranks.h's, 0 with one process */
	/* point-to-point calls that moved bytes (MPI call statistics:
	 * every function but the collective ones with bytes sent or
	 * received), summed over the ranks, and their bytes sent and
	 * received; 0 without MPI call statistics */
	uint64_t p2p_calls;
	double p2p_bytes;
	char verdict[SUMMARY_TEXT];
	char advice[SUMMARY_ADVICE][SUMMARY_TEXT];
	size_t nadvice;
};

/*
 * Fills s from the figures of rk, the MPI call statistics ms (NULL, or
 * none: the logs hold none), wall seconds of run, and the hottest
 * function by self samples (top, NULL if none) with its share of the
 * samples (top_share, 0..1).
 */
void summary_make(struct summary *s, const struct ranks *rk,
		  const struct mpi_stats *ms, double wall, const char *top,
		  double top_share);

/* The id of s's kind for programs: "none", "compute", "mpi", "io". */
const char *summary_kind_id(enum summary_kind k);

#endif
