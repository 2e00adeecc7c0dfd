# SPDX-License-Identifier: BSD-2-Clause
# lib/model: the run model, what a set of logs says (processes, threads,
# stacks, metric statistics, the timeline), read in one pass.  Calls
# lib/log and lib/common only.
noinst_LTLIBRARIES += lib/model/libmodel.la
lib_model_libmodel_la_SOURCES = lib/model/model.c lib/model/model.h \
	lib/model/model_names.c lib/model/manifests.c \
	lib/model/metrics.c lib/model/metrics.h \
	lib/model/timeline.c lib/model/timeline.h \
	lib/model/units.c lib/model/units.h \
	lib/model/logread.c lib/model/logread.h \
	lib/model/window.c lib/model/window.h \
	lib/model/pidkeys.c lib/model/pidkeys.h \
	lib/model/keymap.c lib/model/keymap.h
lib_model_libmodel_la_SOURCES += lib/model/regions.c lib/model/regions.h
lib_model_libmodel_la_LIBADD = lib/common/libcommon.la lib/log/libmaplog_core.la -lm
# filter: the samples a report counts (mapreport --pid, --tid, --comm,
# --time), asked by model.c for every sample
lib_model_libmodel_la_SOURCES += lib/model/filter.c lib/model/filter.h
# model_metrics: the metrics of the processes the filters choose
lib_model_libmodel_la_SOURCES += lib/model/model_metrics.c
# images: a process's exec'd images in chain order, for the reports
lib_model_libmodel_la_SOURCES += lib/model/images.c
lib_model_libmodel_la_SOURCES += lib/model/threads_order.c
# stacks: the distinct stacks of each process image and their frames,
# shared between processes of the same addresses
lib_model_libmodel_la_SOURCES += lib/model/stacks.c
# logpool: the logs of a job decoded on a pool of threads ahead of the
# model (mapreport --jobs)
lib_model_libmodel_la_SOURCES += lib/model/logpool.c lib/model/logpool.h
lib_model_libmodel_la_CFLAGS = $(AM_CFLAGS) -pthread
lib_model_libmodel_la_LIBADD += -lpthread
# runid: which run a log is of, and whether two logs are of one run
# (mapreport's merge check)
lib_model_libmodel_la_SOURCES += lib/model/runid.c lib/model/runid.h
# model_regions: the regions as the filters narrow them (--pid, --tid,
# --time ...), for mapreport
lib_model_libmodel_la_SOURCES += lib/model/model_regions.c lib/model/model_regions.h

# spool: logs that cannot be read twice (pipes, FIFOs) copied to a
# temporary file as they are read the first time, for the passes after
lib_model_libmodel_la_SOURCES += lib/model/spool.c lib/model/spool.h
