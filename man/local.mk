# SPDX-License-Identifier: BSD-2-Clause
# Man pages, mdoc(7).  The C programs in their EXAMPLES sections are built
# and run by test/integration/man-examples.sh.
dist_man_MANS += man/maplog.3 man/mapsample-log.5 man/mapreport.1 man/mapsample.1
dist_man_MANS += man/mapsample-metrics.5
# mapsample-plugin(3): its example plugin is built and loaded by
# test/integration/plugin-man-example.sh.
dist_man_MANS += man/mapsample-plugin.3
# mapsample_mark(3): its C example is built by man-examples.sh, its
# Fortran example by test/integration/mapsample-marks.sh.
dist_man_MANS += man/mapsample_mark.3
# substrate (event) plugins: <mapsample/substrate.h>
dist_man_MANS += man/mapsample-substrate.3
