/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * text_clean.c: text from plugins and user files put in the text reports
 * with control characters as spaces (text.h).  A file of its own: the
 * partial report's fuzz target links it without the rest of the text
 * report.
 */
#include <stdio.h>

#include "report/out/text.h"

void text_put_clean(FILE *out, const char *s)
{
	for (; s && *s; s++)
		fputc((unsigned char)*s < 0x20 || *s == 0x7f ? ' ' : *s, out);
}
