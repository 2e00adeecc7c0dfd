/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * units: metric values as people read them, "1.46 MiB/s", "12.5 k/s",
 * "0.25 %": the number scaled by the prefix its units take, with three
 * significant digits.  The rules (mapreport(1), "Units"):
 *
 *   B, B/s, B/S        IEC prefixes Ki Mi Gi Ti Pi Ei (x1024), glued: KiB/s
 *   %, s               never scaled: 1600 %, 12500 s
 *   ns                 a time: ns, us, ms, then s (never larger units)
 *   anything else      SI prefixes k M G T P E (x1000); glued to symbols
 *                      (W, J, Hz: at most two letters before any '/') and
 *                      to units that start with '/' (k/s); a word unit
 *                      gets the prefix as a word of its own: 12.5 k calls/s
 *
 * No prefix below one: values under 1 are decimals (0.25, 0.000123), with
 * at most six decimal places.  Integers in the unscaled unit print whole
 * (1023 B, 0 %); scaled or fractional values get three significant
 * digits (1.00 KiB, 12.5 k/s, 150 W), four from 1000 to 1023 of an IEC
 * prefix (1000 KiB).  Beyond the largest prefix the number takes an
 * exponent (8.67e+11 EiB).  NaN and infinities print as "n/a".
 */
#ifndef MAPSAMPLE_MODEL_UNITS_H
#define MAPSAMPLE_MODEL_UNITS_H

#include <stddef.h>

/* Longest string units_format() writes for units of up to 64 bytes. */
#define UNITS_BUFSZ 112

/*
 * Formats v in units (NULL or "" for a bare number) into buf of len
 * bytes (UNITS_BUFSZ is always enough for units of up to 64 bytes;
 * longer output is cut).  Returns buf.
 */
const char *units_format(char *buf, size_t len, double v, const char *units);

/*
 * The units of the sum of a divide-by-sample-time metric's raw deltas,
 * given the metric's (per-second) units: "B/s" -> "B", "calls/s" ->
 * "calls", "/s" -> "" (a count), "W" -> "J", "%" -> "s" (a percentage of
 * time over seconds is time: CPU % -> CPU seconds), none -> "s"; any
 * other units u -> "u*s".  Writes them into buf of len bytes and returns
 * the factor to multiply the sum by: 0.01 for "%", else 1.
 */
double units_undivided(char *buf, size_t len, const char *units);

#endif
