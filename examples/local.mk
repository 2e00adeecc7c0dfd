# SPDX-License-Identifier: BSD-2-Clause
# The example ./build.sh example profiles (not installed).
noinst_PROGRAMS += examples/demo
examples_demo_SOURCES = examples/demo.c
examples_demo_CFLAGS = -O2 -g -fno-omit-frame-pointer -pthread
examples_demo_LDFLAGS = -pthread
