# SPDX-License-Identifier: BSD-2-Clause
# lib/pluginapi: the Allinea/Arm MAP metric plugin API that libmapsampler.so
# provides to plugins (safe allocator, safe I/O, formatting, system info,
# configuration file).  A convenience library linked into the sampler.
