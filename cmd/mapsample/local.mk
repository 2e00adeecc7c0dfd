# SPDX-License-Identifier: BSD-2-Clause
# cmd/mapsample: the launcher.  It reads the log back for its end-of-run
# summary through lib/model, never the symbolizer or the report writers.
bin_PROGRAMS += cmd/mapsample/mapsample
cmd_mapsample_mapsample_SOURCES = cmd/mapsample/main.c \
	cmd/mapsample/plan.c cmd/mapsample/plan.h
# substrate plugins: --substrate, --list-substrates
cmd_mapsample_mapsample_SOURCES += cmd/mapsample/substrates.c \
	cmd/mapsample/substrates.h
cmd_mapsample_mapsample_LDADD = lib/launch/liblaunch.la lib/model/libmodel.la \
	lib/defs/libdefs.la lib/common/libcli.la
