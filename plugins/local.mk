# SPDX-License-Identifier: BSD-2-Clause
# plugins: the built-in metric plugins, each plugins/<name>/<name>.c + .xml.
#
# Each plugin is a libtool module, libmapsample-<name>.la, installed in
# $(pkglibdir)/plugins.  Plugins are loaded into the profiled program, so
# they get neither $(SAN_CFLAGS) nor the library headers under lib/: only
# the public API headers of lib/include (and plugins/plugin_i.h).  They
# leave the allinea_* and mapsample_* API undefined (no -no-undefined): the
# preloaded sampler provides it when they are loaded.
#
# Their definition files, plugins/<name>/<name>.xml, name the bare library
# file; two copies are made with the full path of the library instead:
#   - at build time, $(top_builddir)/plugins/metrics/<name>.xml naming the
#     build tree's plugins/<name>/.libs/libmapsample-<name>.so, for the
#     launcher and the tests run from the build tree;
#   - on make install, $(pkgdatadir)/metrics/<name>.xml naming
#     $(pkglibdir)/plugins/libmapsample-<name>.so.
mapsampleinclude_HEADERS += lib/include/mapsample/plugin.h

MAPSAMPLE_PLUGINS = cpu memory io sched system energy example-backfill \
	example-startstop
mapsampleplugindir = $(pkglibdir)/plugins
mapsamplemetricsdir = $(pkgdatadir)/metrics
plugins_cppflags = -I$(top_srcdir)/lib/include -I$(top_srcdir)/plugins \
	-D_GNU_SOURCE
plugins_cflags = $(WARN_CFLAGS) -fvisibility=hidden
plugins_ldflags = -module -avoid-version -shared

mapsampleplugin_LTLIBRARIES = plugins/cpu/libmapsample-cpu.la \
	plugins/memory/libmapsample-memory.la \
	plugins/io/libmapsample-io.la \
	plugins/sched/libmapsample-sched.la \
	plugins/system/libmapsample-system.la \
	plugins/energy/libmapsample-energy.la \
	plugins/example-backfill/libmapsample-example-backfill.la \
	plugins/example-startstop/libmapsample-example-startstop.la

plugins_cpu_libmapsample_cpu_la_SOURCES = plugins/cpu/cpu.c \
	plugins/plugin_i.h
plugins_cpu_libmapsample_cpu_la_CPPFLAGS = $(plugins_cppflags)
plugins_cpu_libmapsample_cpu_la_CFLAGS = $(plugins_cflags)
plugins_cpu_libmapsample_cpu_la_LDFLAGS = $(plugins_ldflags)

plugins_memory_libmapsample_memory_la_SOURCES = plugins/memory/memory.c \
	plugins/plugin_i.h
plugins_memory_libmapsample_memory_la_CPPFLAGS = $(plugins_cppflags)
plugins_memory_libmapsample_memory_la_CFLAGS = $(plugins_cflags)
plugins_memory_libmapsample_memory_la_LDFLAGS = $(plugins_ldflags)

plugins_io_libmapsample_io_la_SOURCES = plugins/io/io.c plugins/plugin_i.h
plugins_io_libmapsample_io_la_CPPFLAGS = $(plugins_cppflags)
plugins_io_libmapsample_io_la_CFLAGS = $(plugins_cflags)
plugins_io_libmapsample_io_la_LDFLAGS = $(plugins_ldflags)

plugins_sched_libmapsample_sched_la_SOURCES = plugins/sched/sched.c \
	plugins/plugin_i.h
plugins_sched_libmapsample_sched_la_CPPFLAGS = $(plugins_cppflags)
plugins_sched_libmapsample_sched_la_CFLAGS = $(plugins_cflags)
plugins_sched_libmapsample_sched_la_LDFLAGS = $(plugins_ldflags)

plugins_system_libmapsample_system_la_SOURCES = plugins/system/system.c \
	plugins/plugin_i.h
plugins_system_libmapsample_system_la_CPPFLAGS = $(plugins_cppflags)
plugins_system_libmapsample_system_la_CFLAGS = $(plugins_cflags)
plugins_system_libmapsample_system_la_LDFLAGS = $(plugins_ldflags)

plugins_energy_libmapsample_energy_la_SOURCES = plugins/energy/energy.c \
	plugins/plugin_i.h
plugins_energy_libmapsample_energy_la_CPPFLAGS = $(plugins_cppflags)
plugins_energy_libmapsample_energy_la_CFLAGS = $(plugins_cflags)
plugins_energy_libmapsample_energy_la_LDFLAGS = $(plugins_ldflags)

plugins_example_backfill_libmapsample_example_backfill_la_SOURCES = \
	plugins/example-backfill/example-backfill.c plugins/plugin_i.h
plugins_example_backfill_libmapsample_example_backfill_la_CPPFLAGS = \
	$(plugins_cppflags)
plugins_example_backfill_libmapsample_example_backfill_la_CFLAGS = \
	$(plugins_cflags)
plugins_example_backfill_libmapsample_example_backfill_la_LDFLAGS = \
	$(plugins_ldflags)

plugins_example_startstop_libmapsample_example_startstop_la_SOURCES = \
	plugins/example-startstop/example-startstop.c plugins/plugin_i.h
plugins_example_startstop_libmapsample_example_startstop_la_CPPFLAGS = \
	$(plugins_cppflags)
plugins_example_startstop_libmapsample_example_startstop_la_CFLAGS = \
	$(plugins_cflags)
plugins_example_startstop_libmapsample_example_startstop_la_LDFLAGS = \
	$(plugins_ldflags)

EXTRA_DIST += plugins/cpu/cpu.xml plugins/memory/memory.xml \
	plugins/io/io.xml plugins/sched/sched.xml plugins/system/system.xml \
	plugins/energy/energy.xml \
	plugins/example-backfill/example-backfill.xml \
	plugins/example-startstop/example-startstop.xml

# The build tree's definition files.  The sed script puts DIR/ before the
# library name; the grep fails the build if a file had no <sharedLibrary>
# to rewrite.
plugins_metrics_xml = plugins/metrics/cpu.xml plugins/metrics/memory.xml \
	plugins/metrics/io.xml plugins/metrics/sched.xml \
	plugins/metrics/system.xml plugins/metrics/energy.xml \
	plugins/metrics/example-backfill.xml \
	plugins/metrics/example-startstop.xml
plugins_library_sed = s|<sharedLibrary>[ 	]*\([^< 	]*\)[ 	]*</sharedLibrary>|<sharedLibrary>DIR/\1</sharedLibrary>|
plugins_metrics_gen = $(AM_V_GEN)$(MKDIR_P) plugins/metrics && \
	n=`basename $@ .xml` && \
	sed -e "`echo '$(plugins_library_sed)' | \
		sed "s|DIR|$(abs_top_builddir)/plugins/$$n/.libs|"`" \
		$< >$@.tmp && \
	grep -q '<sharedLibrary>/' $@.tmp && mv -f $@.tmp $@
noinst_DATA = $(plugins_metrics_xml)
CLEANFILES += $(plugins_metrics_xml)

plugins/metrics/cpu.xml: plugins/cpu/cpu.xml
	$(plugins_metrics_gen)
plugins/metrics/memory.xml: plugins/memory/memory.xml
	$(plugins_metrics_gen)
plugins/metrics/io.xml: plugins/io/io.xml
	$(plugins_metrics_gen)
plugins/metrics/sched.xml: plugins/sched/sched.xml
	$(plugins_metrics_gen)
plugins/metrics/system.xml: plugins/system/system.xml
	$(plugins_metrics_gen)
plugins/metrics/energy.xml: plugins/energy/energy.xml
	$(plugins_metrics_gen)
plugins/metrics/example-backfill.xml: \
		plugins/example-backfill/example-backfill.xml
	$(plugins_metrics_gen)
plugins/metrics/example-startstop.xml: \
		plugins/example-startstop/example-startstop.xml
	$(plugins_metrics_gen)

# The installed definition files, made at install time so that they name
# the $(pkglibdir) of that time (make install prefix=... works).
install-data-local: install-plugins-metrics
uninstall-local: uninstall-plugins-metrics
.PHONY: install-plugins-metrics uninstall-plugins-metrics
install-plugins-metrics:
	@$(NORMAL_INSTALL)
	$(MKDIR_P) '$(DESTDIR)$(mapsamplemetricsdir)'
	@$(MKDIR_P) plugins/metrics
	@for n in $(MAPSAMPLE_PLUGINS); do \
	  tmp=plugins/metrics/$$n.xml.install; \
	  sed -e "`echo '$(plugins_library_sed)' | \
		sed 's|DIR|$(mapsampleplugindir)|'`" \
	    -e 's|<preload>[ 	]*\([^/< 	][^< 	]*\)[ 	]*</preload>|<preload>$(mapsampleplugindir)/\1</preload>|' \
		$(srcdir)/plugins/$$n/$$n.xml >$$tmp && \
	  grep -q '<sharedLibrary>/' $$tmp || exit 1; \
	  echo " $(INSTALL_DATA) $$tmp '$(DESTDIR)$(mapsamplemetricsdir)/$$n.xml'"; \
	  $(INSTALL_DATA) $$tmp '$(DESTDIR)$(mapsamplemetricsdir)/'$$n.xml \
		|| exit 1; \
	  rm -f $$tmp; \
	done
uninstall-plugins-metrics:
	@$(NORMAL_UNINSTALL)
	@for n in $(MAPSAMPLE_PLUGINS); do \
	  echo " rm -f '$(DESTDIR)$(mapsamplemetricsdir)/$$n.xml'"; \
	  rm -f '$(DESTDIR)$(mapsamplemetricsdir)/'$$n.xml; \
	done

# The mpi plugin: its getters (libmapsample-mpi) and the PMPI wrapper
# library its <preload> names (libmapsample-mpiwrap, plugins/mpi/mpiwrap.c),
# which is linked against no MPI library.  Both definition files' library
# names are rewritten, sharedLibrary and preload.
if MPI_WRAP
MAPSAMPLE_PLUGINS += mpi
mapsampleplugin_LTLIBRARIES += plugins/mpi/libmapsample-mpi.la \
	plugins/mpi/libmapsample-mpiwrap.la
plugins_mpi_libmapsample_mpi_la_SOURCES = plugins/mpi/mpi.c \
	plugins/mpi/mpiwrap.h plugins/plugin_i.h
plugins_mpi_libmapsample_mpi_la_CPPFLAGS = $(plugins_cppflags)
plugins_mpi_libmapsample_mpi_la_CFLAGS = $(plugins_cflags)
plugins_mpi_libmapsample_mpi_la_LDFLAGS = $(plugins_ldflags)
plugins_mpi_libmapsample_mpi_la_LIBADD = -ldl
plugins_mpi_libmapsample_mpiwrap_la_SOURCES = plugins/mpi/mpiwrap.c \
	plugins/mpi/mpiwrap.h plugins/mpi/mpiwrap_i.h \
	plugins/mpi/mpiwrap_p2p.c plugins/mpi/mpiwrap_coll.c \
	plugins/mpi/mpiwrap_nbr.c plugins/mpi/mpiwrap_rma.c \
	plugins/mpi/mpiwrap_file.c plugins/mpi/mpiwrap_fort.c
plugins_mpi_libmapsample_mpiwrap_la_CPPFLAGS = -D_GNU_SOURCE
plugins_mpi_libmapsample_mpiwrap_la_CFLAGS = $(WARN_CFLAGS) \
	-fvisibility=hidden
plugins_mpi_libmapsample_mpiwrap_la_LDFLAGS = -module -avoid-version \
	-shared -no-undefined
plugins_mpi_libmapsample_mpiwrap_la_LIBADD = -ldl
plugins_metrics_xml += plugins/metrics/mpi.xml
plugins/metrics/mpi.xml: plugins/mpi/mpi.xml
	$(AM_V_GEN)$(MKDIR_P) plugins/metrics && \
	sed -e "`echo '$(plugins_library_sed)' | \
		sed "s|DIR|$(abs_top_builddir)/plugins/mpi/.libs|"`" \
	    -e 's|<preload>[ 	]*\([^< 	]*\)[ 	]*</preload>|<preload>$(abs_top_builddir)/plugins/mpi/.libs/\1</preload>|' \
		$< >$@.tmp && \
	grep -q '<preload>/' $@.tmp && mv -f $@.tmp $@
endif
EXTRA_DIST += plugins/mpi/mpi.xml
