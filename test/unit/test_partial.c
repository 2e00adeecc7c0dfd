/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Unit tests of the partial reports (lib/defs/partial*.c, definition
 * files, and lib/report/partial_eval.c, values; reference section 3;
 * mapreport(1), PARTIAL REPORTS).  One case per rule of sections 3.4-3.6,
 * each asserting the exact message of a file with that one problem and
 * that the file is left out; warnings that keep a file; every colour form;
 * the plain text of <text>; where definitions are found and in which
 * order; values of the metrics scenario of test/common/logsynth.
 */
#include "config.h"

#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <check.h>

#include <mapsample/maps_error.h>

#include "logsynth.h"
#include "model/model.h"
#include "report/partial_eval.h"

#define NS "http://www.allinea.com/2016/AllineaReports"

/* Default attributes of the skeleton's elements. */
#define RM "id=\"com.example.m\" displayName=\"M\" units=\"/s\" " \
	   "source=\"metric\""
#define SD "metricRef=\"com.example.src\" sampleValue=\"mean\" " \
	   "aggregation=\"mean\""
#define SS "id=\"s1\" heading=\"H\""
#define EN "reportMetric=\"com.example.m\""

/*
 * A file with one report metric, one subsection and one entry, each
 * element's attributes given (NULL: the default).  Its start tags:
 *   line 1 col 1  <partialReport>      line 7 col 3  <subsections>
 *   line 2 col 3  <reportMetrics>      line 8 col 5  <subsection>
 *   line 3 col 5  <reportMetric>       line 9 col 7  <text>
 *   line 4 col 7  <sourceDetails>      line 10 col 7 <entry>
 */
static char *skeleton(const char *root, const char *rm, const char *sd,
		      const char *ss, const char *en)
{
	char *s;
	ck_assert_int_ge(
		asprintf(&s,
			 "<partialReport %s>\n"
			 "  <reportMetrics>\n"
			 "    <reportMetric %s>\n"
			 "      <sourceDetails %s/>\n"
			 "    </reportMetric>\n"
			 "  </reportMetrics>\n"
			 "  <subsections>\n"
			 "    <subsection %s>\n"
			 "      <text>Hello <b>world</b></text>\n"
			 "      <entry %s/>\n"
			 "    </subsection>\n"
			 "  </subsections>\n"
			 "</partialReport>\n",
			 root ? root
			      : "name=\"com.example.r\" xmlns=\"" NS "\"",
			 rm ? rm : RM, sd ? sd : SD, ss ? ss : SS,
			 en ? en : EN),
		0);
	return s;
}

/* Loads text as t.xml into a new set. */
static struct partial_set *load(const char *text)
{
	struct partial_set *ps = partial_set_new();
	ck_assert_ptr_nonnull(ps);
	ck_assert_int_eq(partial_load_buffer(ps, "t.xml", text, strlen(text)),
			 0);
	return ps;
}

/* The set holds exactly one diagnostic, an error of rule with text
 * want, and t.xml is left out. */
static void one_error(struct partial_set *ps, enum partial_rule rule,
		      const char *want)
{
	ck_assert_msg(ps->ps_ndiags == 1, "%zu diagnostics, first: %s",
		      ps->ps_ndiags,
		      ps->ps_ndiags ? ps->ps_diags[0].pd_text : "");
	ck_assert_str_eq(ps->ps_diags[0].pd_text, want);
	ck_assert_int_eq(ps->ps_diags[0].pd_severity, PARTIAL_ERROR);
	ck_assert_int_eq(ps->ps_diags[0].pd_rule, rule);
	ck_assert_uint_eq(ps->ps_nerrors, 1);
	ck_assert_uint_eq(ps->ps_nfiles, 1);
	ck_assert_int_eq(ps->ps_files[0].pf_used, 0);
	ck_assert_uint_eq(ps->ps_ndefs, 0);
}

/* Skeleton with the given attributes must give exactly want. */
static void expect(const char *root, const char *rm, const char *sd,
		   const char *ss, const char *en, enum partial_rule rule,
		   const char *want)
{
	char *doc = skeleton(root, rm, sd, ss, en);
	struct partial_set *ps = load(doc);
	one_error(ps, rule, want);
	partial_set_free(ps);
	free(doc);
}

/* ------------------------------------------------------------------ */
/* A valid file */

START_TEST(partial_valid_skeleton)
{
	char *doc = skeleton(NULL, NULL, NULL, NULL, NULL);
	struct partial_set *ps = load(doc);
	ck_assert_uint_eq(ps->ps_ndiags, 0);
	ck_assert_uint_eq(ps->ps_nerrors, 0);
	ck_assert_int_eq(ps->ps_files[0].pf_used, 1);
	ck_assert_uint_eq(ps->ps_ndefs, 1);
	partial_set_free(ps);
	free(doc);
}
END_TEST

START_TEST(partial_reference_example)
{
	/* the reference's example as transcribed for the integration test:
	 * loads without a message */
	struct partial_set *ps = partial_set_new();
	ck_assert_int_eq(partial_load_path(ps, ABS_TOP_SRCDIR
					   "/test/integration/partial/"
					   "reference-example.xml", "test"),
			 0);
	ck_assert_msg(ps->ps_ndiags == 0, "%s", ps->ps_diags[0].pd_text);
	ck_assert_int_eq(ps->ps_files[0].pf_used, 1);
	partial_set_free(ps);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Section 3.4: structure and required values */

START_TEST(partial_not_xml)
{
	struct partial_set *ps = load("<partialReport name=\"a\"\n  <x");
	one_error(ps, PARTIAL_R_XML,
		  "t.xml:2:3: not well-formed XML: not well-formed (invalid "
		  "token); correct the XML syntax here");
	partial_set_free(ps);
}
END_TEST

START_TEST(partial_root)
{
	struct partial_set *ps = load("<metricdefinitions version=\"1\"/>");
	one_error(ps, PARTIAL_R_ROOT,
		  "t.xml:1:1: <metricdefinitions>: the root element is not "
		  "<partialReport>, so this is no partial report definition "
		  "(section 3.4); start the file with <partialReport "
		  "name=\"com.example.myReport\" xmlns=\"" NS "\">");
	partial_set_free(ps);
}
END_TEST

START_TEST(partial_xmlns_missing)
{
	expect("name=\"com.example.r\"", NULL, NULL, NULL, NULL,
	       PARTIAL_R_XMLNS,
	       "t.xml:1:1: <partialReport name=\"com.example.r\">: no xmlns "
	       "attribute (section 3.4.1 requires it); add xmlns=\"" NS "\"");
}
END_TEST

START_TEST(partial_xmlns_wrong)
{
	expect("name=\"com.example.r\" "
	       "xmlns=\"http://www.allinea.com/2016/AllineaMetrics\"",
	       NULL, NULL, NULL, NULL, PARTIAL_R_XMLNS,
	       "t.xml:1:1: <partialReport name=\"com.example.r\">: xmlns "
	       "\"http://www.allinea.com/2016/AllineaMetrics\" is not the "
	       "partial report namespace (section 3.4.1); use xmlns=\"" NS
	       "\"");
}
END_TEST

START_TEST(partial_name_missing)
{
	expect("xmlns=\"" NS "\"", NULL, NULL, NULL, NULL, PARTIAL_R_MISSING,
	       "t.xml:1:1: <partialReport>: no name attribute; add "
	       "name=\"com.example.myReport\", a name of your own that "
	       "identifies the report");
}
END_TEST

START_TEST(partial_name_empty)
{
	expect("name=\"\" xmlns=\"" NS "\"", NULL, NULL, NULL, NULL,
	       PARTIAL_R_EMPTY,
	       "t.xml:1:1: <partialReport name=\"\">: empty name; add "
	       "name=\"com.example.myReport\", a name of your own that "
	       "identifies the report");
}
END_TEST

START_TEST(partial_display_name_missing)
{
	expect(NULL, "id=\"com.example.m\" units=\"/s\" source=\"metric\"",
	       NULL, NULL, NULL, PARTIAL_R_MISSING,
	       "t.xml:3:5: <reportMetric id=\"com.example.m\">: no "
	       "displayName attribute; add displayName=\"...\", the name the "
	       "report shows");
}
END_TEST

START_TEST(partial_units_missing)
{
	expect(NULL, "id=\"com.example.m\" displayName=\"M\" source=\"metric\"",
	       NULL, NULL, NULL, PARTIAL_R_MISSING,
	       "t.xml:3:5: <reportMetric id=\"com.example.m\">: no units "
	       "attribute; add units=\"...\" (e.g. units=\"/s\"; units=\"\" "
	       "for a plain number)");
	/* empty units: a plain number, no message */
	char *doc = skeleton(NULL,
			     "id=\"com.example.m\" displayName=\"M\" units=\"\" "
			     "source=\"metric\"",
			     NULL, NULL, NULL);
	struct partial_set *ps = load(doc);
	ck_assert_uint_eq(ps->ps_ndiags, 0);
	partial_set_free(ps);
	free(doc);
}
END_TEST

START_TEST(partial_source_missing)
{
	expect(NULL, "id=\"com.example.m\" displayName=\"M\" units=\"/s\"",
	       NULL, NULL, NULL, PARTIAL_R_SOURCE,
	       "t.xml:3:5: <reportMetric id=\"com.example.m\">: no source "
	       "attribute (section 3.4.3 requires source=\"metric\"); add "
	       "source=\"metric\"");
}
END_TEST

START_TEST(partial_source_not_metric)
{
	expect(NULL,
	       "id=\"com.example.m\" displayName=\"M\" units=\"/s\" "
	       "source=\"file\"",
	       NULL, NULL, NULL, PARTIAL_R_SOURCE,
	       "t.xml:3:5: <reportMetric id=\"com.example.m\" "
	       "source=\"file\">: source \"file\" is not \"metric\", the only "
	       "source of section 3.4.3; write source=\"metric\"");
}
END_TEST

START_TEST(partial_metric_ref_missing)
{
	expect(NULL, NULL, "sampleValue=\"mean\" aggregation=\"mean\"", NULL,
	       NULL, PARTIAL_R_MISSING,
	       "t.xml:4:7: <sourceDetails>: no metricRef attribute; add "
	       "metricRef=\"...\", the id of the metric to show (e.g. "
	       "metricRef=\"com.mapsample.metrics.cpu.user\")");
}
END_TEST

START_TEST(partial_sample_value)
{
	expect(NULL, NULL,
	       "metricRef=\"com.example.src\" sampleValue=\"median\" "
	       "aggregation=\"mean\"",
	       NULL, NULL, PARTIAL_R_SAMPLE_VALUE,
	       "t.xml:4:7: <sourceDetails metricRef=\"com.example.src\" "
	       "sampleValue=\"median\">: sampleValue \"median\" is not min, "
	       "max, mean or sum (section 3.4.4); use one of those");
	expect(NULL, NULL, "metricRef=\"com.example.src\" aggregation=\"mean\"",
	       NULL, NULL, PARTIAL_R_MISSING,
	       "t.xml:4:7: <sourceDetails metricRef=\"com.example.src\">: "
	       "no sampleValue attribute; add sampleValue=\"min\", "
	       "\"max\", \"mean\" or \"sum\"");
}
END_TEST

START_TEST(partial_aggregation)
{
	/* sum combines processes, not time (section 3.4.4) */
	expect(NULL, NULL,
	       "metricRef=\"com.example.src\" sampleValue=\"sum\" "
	       "aggregation=\"sum\"",
	       NULL, NULL, PARTIAL_R_AGGREGATION,
	       "t.xml:4:7: <sourceDetails metricRef=\"com.example.src\" "
	       "aggregation=\"sum\">: aggregation \"sum\" is not min, max or "
	       "mean (section 3.4.4); use one of those");
}
END_TEST

START_TEST(partial_every_stat)
{
	static const char *const sv[] = {"min", "max", "mean", "sum"};
	for (int i = 0; i < 4; i++)
		for (int j = 0; j < 3; j++) {
			char sd[128];
			snprintf(sd, sizeof(sd),
				 "metricRef=\"x\" sampleValue=\"%s\" "
				 "aggregation=\"%s\"", sv[i], sv[j]);
			char *doc = skeleton(NULL, NULL, sd, NULL, NULL);
			struct partial_set *ps = load(doc);
			ck_assert_uint_eq(ps->ps_ndiags, 0);
			partial_set_free(ps);
			free(doc);
		}
}
END_TEST

START_TEST(partial_source_details_missing)
{
	struct partial_set *ps = load(
		"<partialReport name=\"com.example.r\" xmlns=\"" NS "\">\n"
		"  <reportMetrics>\n"
		"    <reportMetric " RM "/>\n"
		"  </reportMetrics>\n"
		"  <subsections><subsection " SS "/></subsections>\n"
		"</partialReport>\n");
	one_error(ps, PARTIAL_R_MISSING,
		  "t.xml:3:5: <reportMetric id=\"com.example.m\">: no "
		  "<sourceDetails>; add <sourceDetails metricRef=\"...\" "
		  "sampleValue=\"mean\" aggregation=\"mean\"/> naming the "
		  "metric to show");
	partial_set_free(ps);
}
END_TEST

START_TEST(partial_source_details_twice)
{
	struct partial_set *ps = load(
		"<partialReport name=\"com.example.r\" xmlns=\"" NS "\">\n"
		"  <reportMetrics>\n"
		"    <reportMetric " RM ">\n"
		"      <sourceDetails " SD "/>\n"
		"      <sourceDetails metricRef=\"y\" sampleValue=\"min\" "
		"aggregation=\"min\"/>\n"
		"    </reportMetric>\n"
		"  </reportMetrics>\n"
		"  <subsections><subsection " SS "/></subsections>\n"
		"</partialReport>\n");
	one_error(ps, PARTIAL_R_REPEATED,
		  "t.xml:5:7: <sourceDetails metricRef=\"y\">: a second "
		  "<sourceDetails> in <reportMetric id=\"com.example.m\"> (the "
		  "first is at line 4); keep one");
	partial_set_free(ps);
}
END_TEST

START_TEST(partial_containers)
{
	struct partial_set *ps = load(
		"<partialReport name=\"com.example.r\" xmlns=\"" NS "\">\n"
		"  <subsections><subsection " SS "/></subsections>\n"
		"</partialReport>\n");
	one_error(ps, PARTIAL_R_MISSING,
		  "t.xml:1:1: <partialReport name=\"com.example.r\">: no "
		  "<reportMetrics>; define the report metrics in "
		  "<reportMetrics> first (section 3.4)");
	partial_set_free(ps);

	ps = load("<partialReport name=\"com.example.r\" xmlns=\"" NS "\">\n"
		  "  <reportMetrics>\n"
		  "    <reportMetric " RM "><sourceDetails " SD "/>"
		  "</reportMetric>\n"
		  "  </reportMetrics>\n"
		  "</partialReport>\n");
	one_error(ps, PARTIAL_R_MISSING,
		  "t.xml:1:1: <partialReport name=\"com.example.r\">: no "
		  "<subsections>; lay the report out in <subsections> after "
		  "<reportMetrics> (section 3.4)");
	partial_set_free(ps);

	ps = load("<partialReport name=\"com.example.r\" xmlns=\"" NS "\">\n"
		  "  <reportMetrics/>\n"
		  "  <subsections><subsection " SS "/></subsections>\n"
		  "</partialReport>\n");
	one_error(ps, PARTIAL_R_MISSING,
		  "t.xml:2:3: <reportMetrics>: holds no <reportMetric> "
		  "(section 3.4.2 asks for one or more); add one");
	partial_set_free(ps);

	ps = load("<partialReport name=\"com.example.r\" xmlns=\"" NS "\">\n"
		  "  <reportMetrics>\n"
		  "    <reportMetric " RM "><sourceDetails " SD "/>"
		  "</reportMetric>\n"
		  "  </reportMetrics>\n"
		  "  <subsections>\n"
		  "  </subsections>\n"
		  "</partialReport>\n");
	one_error(ps, PARTIAL_R_MISSING,
		  "t.xml:5:3: <subsections>: holds no <subsection> (section "
		  "3.4.5 asks for one or more); add one");
	partial_set_free(ps);

	ps = load("<partialReport name=\"com.example.r\" xmlns=\"" NS "\">\n"
		  "  <reportMetrics>\n"
		  "    <reportMetric " RM "><sourceDetails " SD "/>"
		  "</reportMetric>\n"
		  "  </reportMetrics>\n"
		  "  <subsections><subsection " SS "/></subsections>\n"
		  "  <reportMetrics>\n"
		  "  </reportMetrics>\n"
		  "</partialReport>\n");
	one_error(ps, PARTIAL_R_REPEATED,
		  "t.xml:6:3: <reportMetrics>: a second <reportMetrics> in "
		  "<partialReport name=\"com.example.r\"> (the first is at "
		  "line 2); keep one and move what this one holds into it");
	partial_set_free(ps);
}
END_TEST

START_TEST(partial_text_twice)
{
	struct partial_set *ps = load(
		"<partialReport name=\"com.example.r\" xmlns=\"" NS "\">\n"
		"  <reportMetrics>\n"
		"    <reportMetric " RM "><sourceDetails " SD "/>"
		"</reportMetric>\n"
		"  </reportMetrics>\n"
		"  <subsections>\n"
		"    <subsection " SS ">\n"
		"      <text>one</text>\n"
		"      <text>two</text>\n"
		"    </subsection>\n"
		"  </subsections>\n"
		"</partialReport>\n");
	one_error(ps, PARTIAL_R_REPEATED,
		  "t.xml:8:7: <text>: a second <text> in <subsection "
		  "id=\"s1\"> (the first is at line 7); keep one and move what "
		  "this one holds into it");
	partial_set_free(ps);
}
END_TEST

START_TEST(partial_heading_missing)
{
	expect(NULL, NULL, NULL, "id=\"s1\"", NULL, PARTIAL_R_MISSING,
	       "t.xml:8:5: <subsection id=\"s1\">: no heading attribute; add "
	       "heading=\"...\", the title the report shows");
}
END_TEST

START_TEST(partial_entry_missing_ref)
{
	expect(NULL, NULL, NULL, NULL, "group=\"g\"", PARTIAL_R_MISSING,
	       "t.xml:10:7: <entry>: no reportMetric attribute; add "
	       "reportMetric=\"...\", the id of a <reportMetric> of this "
	       "file");
}
END_TEST

START_TEST(partial_entry_undefined)
{
	expect(NULL, NULL, NULL, NULL, "reportMetric=\"com.example.other\"",
	       PARTIAL_R_ENTRY_REF,
	       "t.xml:10:7: <entry reportMetric=\"com.example.other\">: no "
	       "<reportMetric id=\"com.example.other\"> in this file; define "
	       "it in <reportMetrics> or correct reportMetric");
}
END_TEST

/* ------------------------------------------------------------------ */
/* Section 3.6: reserved names, NCNames; 3.4.3: unique ids */

START_TEST(partial_reserved)
{
	expect("name=\"allinea.r\" xmlns=\"" NS "\"", NULL, NULL, NULL, NULL,
	       PARTIAL_R_RESERVED,
	       "t.xml:1:1: <partialReport name=\"allinea.r\">: name "
	       "\"allinea.r\" starts with the reserved prefix \"allinea.\" "
	       "(section 3.6); start it with your reversed Internet domain "
	       "name, e.g. name=\"com.example.r\"");
	expect(NULL,
	       "id=\"com.allinea.m\" displayName=\"M\" units=\"\" "
	       "source=\"metric\"",
	       NULL, NULL, "reportMetric=\"com.allinea.m\"",
	       PARTIAL_R_RESERVED,
	       "t.xml:3:5: <reportMetric id=\"com.allinea.m\">: id "
	       "\"com.allinea.m\" starts with the reserved prefix "
	       "\"com.allinea.\" (section 3.6); start it with your reversed "
	       "Internet domain name, e.g. id=\"com.example.m\"");
	expect(NULL,
	       "id=\"mapsample.m\" displayName=\"M\" units=\"\" "
	       "source=\"metric\"",
	       NULL, NULL, "reportMetric=\"mapsample.m\"", PARTIAL_R_RESERVED,
	       "t.xml:3:5: <reportMetric id=\"mapsample.m\">: id "
	       "\"mapsample.m\" starts with the reserved prefix "
	       "\"mapsample.\" (section 3.6); start it with your reversed "
	       "Internet domain name, e.g. id=\"com.example.m\"");
	expect(NULL, NULL, NULL, "id=\"com.mapsample.s\" heading=\"H\"", NULL,
	       PARTIAL_R_RESERVED,
	       "t.xml:8:5: <subsection id=\"com.mapsample.s\">: id "
	       "\"com.mapsample.s\" starts with the reserved prefix "
	       "\"com.mapsample.\" (section 3.6); start it with your reversed "
	       "Internet domain name, e.g. id=\"com.example.s\"");
	/* a metricRef may name an Allinea metric: it defines nothing */
	char *doc = skeleton(NULL, NULL,
			     "metricRef=\"com.allinea.metrics.sample.interrupts"
			     "\" sampleValue=\"mean\" aggregation=\"mean\"",
			     NULL, NULL);
	struct partial_set *ps = load(doc);
	ck_assert_uint_eq(ps->ps_ndiags, 0);
	partial_set_free(ps);
	free(doc);
}
END_TEST

START_TEST(partial_ncname)
{
	expect(NULL,
	       "id=\"1m\" displayName=\"M\" units=\"\" source=\"metric\"", NULL,
	       NULL, "reportMetric=\"1m\"", PARTIAL_R_NCNAME,
	       "t.xml:3:5: <reportMetric id=\"1m\">: id \"1m\" is not an XML "
	       "NCName (section 3.6): it starts with \"1\"; use letters, "
	       "digits, '.', '-' and '_', starting with a letter, e.g. "
	       "id=\"com.example.metric_1\"");
	expect(NULL,
	       "id=\".m\" displayName=\"M\" units=\"\" source=\"metric\"", NULL,
	       NULL, "reportMetric=\".m\"", PARTIAL_R_NCNAME,
	       "t.xml:3:5: <reportMetric id=\".m\">: id \".m\" is not an XML "
	       "NCName (section 3.6): it starts with \".\"; use letters, "
	       "digits, '.', '-' and '_', starting with a letter, e.g. "
	       "id=\"com.example.metric_1\"");
	/* section 3.6: not with '_' either, though NCNames may */
	expect(NULL, NULL, NULL, "id=\"_s\" heading=\"H\"", NULL,
	       PARTIAL_R_NCNAME,
	       "t.xml:8:5: <subsection id=\"_s\">: id \"_s\" is not an XML "
	       "NCName (section 3.6): it starts with \"_\"; use letters, "
	       "digits, '.', '-' and '_', starting with a letter, e.g. "
	       "id=\"my_metrics\"");
	expect(NULL, NULL, NULL, "id=\"my:s\" heading=\"H\"", NULL,
	       PARTIAL_R_NCNAME,
	       "t.xml:8:5: <subsection id=\"my:s\">: id \"my:s\" is not an "
	       "XML NCName (section 3.6): it contains \":\"; use letters, "
	       "digits, '.', '-' and '_', starting with a letter, e.g. "
	       "id=\"my_metrics\"");
	expect(NULL, NULL, NULL, "id=\"my s\" heading=\"H\"", NULL,
	       PARTIAL_R_NCNAME,
	       "t.xml:8:5: <subsection id=\"my s\">: id \"my s\" is not an "
	       "XML NCName (section 3.6): it contains \" \"; use letters, "
	       "digits, '.', '-' and '_', starting with a letter, e.g. "
	       "id=\"my_metrics\"");
	/* '.', '-', '_', digits and non-ASCII letters are fine after the
	 * first character */
	char *doc = skeleton(NULL, NULL, NULL,
			     "id=\"s.1-x_y\xc3\xa9\" heading=\"H\"", NULL);
	struct partial_set *ps = load(doc);
	ck_assert_uint_eq(ps->ps_ndiags, 0);
	partial_set_free(ps);
	free(doc);
}
END_TEST

START_TEST(partial_id_empty)
{
	/* and the entry that named it names nothing now */
	char *doc = skeleton(NULL,
			     "id=\"\" displayName=\"M\" units=\"\" "
			     "source=\"metric\"",
			     NULL, NULL, NULL);
	struct partial_set *ps = load(doc);
	ck_assert_uint_eq(ps->ps_ndiags, 2);
	ck_assert_str_eq(ps->ps_diags[0].pd_text,
			 "t.xml:3:5: <reportMetric id=\"\">: empty id; add "
			 "id=\"com.example.metrics.myMetric\", a unique name "
			 "for this report metric");
	ck_assert_int_eq(ps->ps_diags[0].pd_rule, PARTIAL_R_EMPTY);
	ck_assert_int_eq(ps->ps_diags[1].pd_rule, PARTIAL_R_ENTRY_REF);
	partial_set_free(ps);
	free(doc);
}
END_TEST

/* Two report metrics a and b (b on line 4), one entry naming a. */
static char *two_metrics(const char *a, const char *b)
{
	char *s;
	ck_assert_int_ge(
		asprintf(&s,
			 "<partialReport name=\"com.example.r\" xmlns=\"" NS
			 "\">\n"
			 "  <reportMetrics>\n"
			 "    <reportMetric id=\"%s\" displayName=\"A\" "
			 "units=\"\" source=\"metric\"><sourceDetails " SD
			 "/></reportMetric>\n"
			 "    <reportMetric id=\"%s\" displayName=\"B\" "
			 "units=\"\" source=\"metric\"><sourceDetails " SD
			 "/></reportMetric>\n"
			 "  </reportMetrics>\n"
			 "  <subsections><subsection " SS "><entry "
			 "reportMetric=\"%s\"/></subsection></subsections>\n"
			 "</partialReport>\n",
			 a, b, a),
		0);
	return s;
}

START_TEST(partial_duplicate_id)
{
	char *doc = two_metrics("com.example.m", "com.example.m");
	struct partial_set *ps = load(doc);
	one_error(ps, PARTIAL_R_DUPLICATE,
		  "t.xml:4:5: <reportMetric id=\"com.example.m\">: id "
		  "\"com.example.m\" is already used by the <reportMetric> at "
		  "t.xml:3:5; give each report metric its own id");
	partial_set_free(ps);
	free(doc);
}
END_TEST

START_TEST(partial_substring_ids)
{
	/* the reference's own example of the rule */
	char *doc = two_metrics("com.allinea.metrics.sample.average",
				"com.allinea.metrics.sample");
	struct partial_set *ps = load(doc);
	/* reserved twice, and the substring */
	ck_assert_uint_eq(ps->ps_ndiags, 3);
	ck_assert_str_eq(ps->ps_diags[2].pd_text,
			 "t.xml:4:5: <reportMetric "
			 "id=\"com.allinea.metrics.sample\">: dotted id "
			 "\"com.allinea.metrics.sample\" is a substring of id "
			 "\"com.allinea.metrics.sample.average\" of the "
			 "<reportMetric> at t.xml:3:5, and dotted ids must not "
			 "be substrings of each other (section 3.4.3); rename "
			 "one of them");
	partial_set_free(ps);
	free(doc);

	doc = two_metrics("com.example.sample", "com.example.sample.average");
	ps = load(doc);
	one_error(ps, PARTIAL_R_SUBSTRING,
		  "t.xml:4:5: <reportMetric id=\"com.example.sample.average\">: "
		  "dotted id \"com.example.sample.average\" contains id "
		  "\"com.example.sample\" of the <reportMetric> at t.xml:3:5, "
		  "and dotted ids must not be substrings of each other "
		  "(section 3.4.3); rename one of them");
	partial_set_free(ps);
	free(doc);

	/* anywhere in the other id, not only at its start */
	doc = two_metrics("org.x.cpu.user", "cpu.user");
	ps = load(doc);
	one_error(ps, PARTIAL_R_SUBSTRING,
		  "t.xml:4:5: <reportMetric id=\"cpu.user\">: dotted id "
		  "\"cpu.user\" is a substring of id \"org.x.cpu.user\" of the "
		  "<reportMetric> at t.xml:3:5, and dotted ids must not be "
		  "substrings of each other (section 3.4.3); rename one of "
		  "them");
	partial_set_free(ps);
	free(doc);

	/* ids without dots may be substrings of each other */
	doc = two_metrics("cpu", "cpu_user");
	ps = load(doc);
	ck_assert_uint_eq(ps->ps_ndiags, 0);
	partial_set_free(ps);
	free(doc);
}
END_TEST

START_TEST(partial_across_files)
{
	/* report names and report metric ids are unique over all files */
	struct partial_set *ps = partial_set_new();
	char *a = skeleton(NULL, NULL, NULL, NULL, NULL);
	char *b = skeleton(NULL,
			   "id=\"com.example.m.x\" displayName=\"M\" units=\"\" "
			   "source=\"metric\"",
			   NULL, NULL, "reportMetric=\"com.example.m.x\"");
	char *c = skeleton("name=\"com.example.c\" xmlns=\"" NS "\"",
			   "id=\"com.example.m.x\" displayName=\"M\" units=\"\" "
			   "source=\"metric\"",
			   NULL, NULL, "reportMetric=\"com.example.m.x\"");
	ck_assert_int_eq(partial_load_buffer(ps, "a.xml", a, strlen(a)), 0);
	ck_assert_int_eq(partial_load_buffer(ps, "b.xml", b, strlen(b)), 0);
	ck_assert_int_eq(partial_load_buffer(ps, "c.xml", c, strlen(c)), 0);
	ck_assert_uint_eq(ps->ps_ndiags, 3);
	ck_assert_str_eq(ps->ps_diags[0].pd_text,
			 "b.xml:1:1: <partialReport name=\"com.example.r\">: "
			 "name \"com.example.r\" is already the name of the "
			 "report of a.xml:1:1; give each report its own name "
			 "(section 3.4.1)");
	ck_assert_int_eq(ps->ps_diags[0].pd_rule, PARTIAL_R_DUPLICATE);
	ck_assert_str_eq(ps->ps_diags[1].pd_text,
			 "b.xml:3:5: <reportMetric id=\"com.example.m.x\">: "
			 "dotted id \"com.example.m.x\" contains id "
			 "\"com.example.m\" of the <reportMetric> at a.xml:3:5, "
			 "and dotted ids must not be substrings of each other "
			 "(section 3.4.3); rename one of them");
	ck_assert_str_eq(ps->ps_diags[2].pd_text,
			 "c.xml:3:5: <reportMetric id=\"com.example.m.x\">: "
			 "dotted id \"com.example.m.x\" contains id "
			 "\"com.example.m\" of the <reportMetric> at a.xml:3:5, "
			 "and dotted ids must not be substrings of each other "
			 "(section 3.4.3); rename one of them");
	ck_assert_int_eq(ps->ps_files[0].pf_used, 1);
	ck_assert_int_eq(ps->ps_files[1].pf_used, 0);
	ck_assert_int_eq(ps->ps_files[2].pf_used, 0);
	ck_assert_uint_eq(ps->ps_ndefs, 1);
	partial_set_free(ps);
	free(a);
	free(b);
	free(c);
}
END_TEST

START_TEST(partial_duplicate_subsection)
{
	struct partial_set *ps = load(
		"<partialReport name=\"com.example.r\" xmlns=\"" NS "\">\n"
		"  <reportMetrics>\n"
		"    <reportMetric " RM "><sourceDetails " SD "/>"
		"</reportMetric>\n"
		"  </reportMetrics>\n"
		"  <subsections>\n"
		"    <subsection " SS "/>\n"
		"    <subsection " SS "/>\n"
		"  </subsections>\n"
		"</partialReport>\n");
	one_error(ps, PARTIAL_R_DUPLICATE,
		  "t.xml:7:5: <subsection id=\"s1\">: id \"s1\" is already used "
		  "by the <subsection> at line 6; give each subsection its own "
		  "id");
	partial_set_free(ps);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Section 3.5: colours */

START_TEST(partial_colours)
{
	static const struct {
		const char *text, *css;
	} good[] = {
		{"#f80", "#ff8800"},
		{"#FF8800", "#ff8800"},
		{"#fff800000", "#ff8000"},
		{"#ffff80000000", "#ff8000"},
		{"rgb(255, 136, 0)", "#ff8800"},
		{"rgb(0,0,0)", "#000000"},
		{"hsv(0, 100, 100)", "#ff0000"},
		{"hsv (120, 100, 50)", "#008000"},
		{"hsl(240, 100, 50)", "#0000ff"},
		{"hsl(19, 70, 71)", "#e9a281"},
		{"hsl(0, 0, 100)", "#ffffff"},
		{"SteelBlue", "steelblue"},
		{"lightgoldenrodyellow", "lightgoldenrodyellow"},
	};
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		char rm[256];
		snprintf(rm, sizeof(rm), RM " colour=\"%s\"", good[i].text);
		char *doc = skeleton(NULL, rm, NULL, NULL, NULL);
		struct partial_set *ps = load(doc);
		ck_assert_msg(ps->ps_ndiags == 0, "%s: %s", good[i].text,
			      ps->ps_ndiags ? ps->ps_diags[0].pd_text : "");
		struct model m;
		model_init(&m);
		struct partial_result *r;
		ck_assert_int_eq(partial_eval(ps, &m, &r), 0);
		const struct partial_entry *en =
			&r->rs_reports[0].pr_subsections[0].ss_entries[0];
		ck_assert_str_eq(en->en_colour.pc_text, good[i].text);
		ck_assert_str_eq(en->en_colour.pc_css, good[i].css);
		partial_result_free(r);
		model_free(&m);
		partial_set_free(ps);
		free(doc);
	}
	/* the reference's own typo, and other near misses */
	expect(NULL, NULL, NULL, "id=\"s1\" heading=\"H\" colour=\"hs1(23, 83, 59)\"",
	       NULL, PARTIAL_R_COLOUR,
	       "t.xml:8:5: <subsection id=\"s1\" colour=\"hs1(23, 83, 59)\">: "
	       "colour \"hs1(23, 83, 59)\" is no colour of section 3.5; use "
	       "#RGB, #RRGGBB, #RRRGGGBBB, #RRRRGGGGBBBB, rgb(R, G, B), "
	       "hsv(H, S, V), hsl(H, S, L) or an SVG colour name");
	static const char *const bad[] = {
		"#12345", "rgb(256, 0, 0)", "hsl(360, 0, 0)", "hsv(0, 101, 0)",
		"rgb(1, 2)", "SpecialLine1", "bluish", "",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char rm[256], want[512];
		snprintf(rm, sizeof(rm), RM " colour=\"%s\"", bad[i]);
		snprintf(want, sizeof(want),
			 "t.xml:3:5: <reportMetric id=\"com.example.m\" "
			 "colour=\"%s\">: colour \"%s\" is no colour of section "
			 "3.5; use #RGB, #RRGGBB, #RRRGGGBBB, #RRRRGGGGBBBB, "
			 "rgb(R, G, B), hsv(H, S, V), hsl(H, S, L) or an SVG "
			 "colour name", bad[i], bad[i]);
		expect(NULL, rm, NULL, NULL, NULL, PARTIAL_R_COLOUR, want);
	}
}
END_TEST

/* ------------------------------------------------------------------ */
/* Warnings keep the file */

START_TEST(partial_warnings)
{
	struct partial_set *ps = load(
		"<partialReport name=\"com.example.r\" xmlns=\"" NS "\" "
		"xmlns:x=\"urn:x\">\n"
		"  <reportMetrics>\n"
		"    <reportMetric " RM " scale=\"2\"><sourceDetails " SD
		"/></reportMetric>\n"
		"  </reportMetrics>\n"
		"  <subsections>\n"
		"    <subsection " SS ">stray\n"
		"      <chart/>\n"
		"    </subsection>\n"
		"  </subsections>\n"
		"</partialReport>\n");
	ck_assert_uint_eq(ps->ps_ndiags, 3);
	ck_assert_uint_eq(ps->ps_nerrors, 0);
	ck_assert_uint_eq(ps->ps_nwarnings, 3);
	ck_assert_str_eq(ps->ps_diags[0].pd_text,
			 "t.xml:3:5: warning: <reportMetric scale=\"2\">: "
			 "unknown attribute \"scale\" of <reportMetric>, "
			 "ignored; allowed: id, displayName, units, colour, "
			 "source");
	ck_assert_int_eq(ps->ps_diags[0].pd_rule,
			 PARTIAL_R_UNKNOWN_ATTRIBUTE);
	ck_assert_str_eq(ps->ps_diags[1].pd_text,
			 "t.xml:6:37: warning: <subsection>: text \"stray\" "
			 "outside <text>, ignored; <subsection> holds elements "
			 "only");
	ck_assert_int_eq(ps->ps_diags[1].pd_rule, PARTIAL_R_TEXT);
	ck_assert_str_eq(ps->ps_diags[2].pd_text,
			 "t.xml:7:7: warning: <chart>: unknown element in "
			 "<subsection>, ignored; allowed there: <text>, "
			 "<entry>");
	ck_assert_int_eq(ps->ps_diags[2].pd_rule, PARTIAL_R_UNKNOWN_ELEMENT);
	ck_assert_int_eq(ps->ps_files[0].pf_used, 1);
	partial_set_free(ps);
}
END_TEST

START_TEST(partial_too_many_problems)
{
	char *doc = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&doc, &len);
	fprintf(f, "<partialReport name=\"com.example.r\" xmlns=\"" NS
		   "\">\n<reportMetrics>\n");
	for (int i = 0; i < 150; i++)
		fprintf(f, "<reportMetric id=\"m%d\" displayName=\"M\" "
			   "units=\"\" source=\"no\"><sourceDetails " SD
			   "/></reportMetric>\n", i);
	fprintf(f, "</reportMetrics>\n<subsections><subsection " SS
		   "/></subsections>\n</partialReport>\n");
	fclose(f);
	struct partial_set *ps = load(doc);
	ck_assert_uint_eq(ps->ps_nerrors, 150);
	ck_assert_uint_eq(ps->ps_ndiags, PARTIAL_MAX_DIAGS + 1);
	ck_assert_str_eq(ps->ps_diags[PARTIAL_MAX_DIAGS].pd_text,
			 "t.xml: more than 100 problems; the others are not "
			 "shown; fix these first");
	ck_assert_int_eq(ps->ps_diags[PARTIAL_MAX_DIAGS].pd_rule,
			 PARTIAL_R_LIMIT);
	partial_set_free(ps);
	free(doc);
}
END_TEST

START_TEST(partial_quoting)
{
	/* values from the file are quoted with control characters escaped
	 * and long ones cut: every message is one printable line */
	expect(NULL,
	       "id=\"com.example.m\" displayName=\"M\" units=\"\" "
	       "source=\"a&#10;b&#9;&quot;\"",
	       NULL, NULL, NULL, PARTIAL_R_SOURCE,
	       "t.xml:3:5: <reportMetric id=\"com.example.m\" "
	       "source=\"a\\x0ab\\x09\\\"\">: source \"a\\x0ab\\x09\\\"\" is not "
	       "\"metric\", the only source of section 3.4.3; write "
	       "source=\"metric\"");
	char rm[512], want[1024], cut[80];
	memset(cut, 'x', 64);
	cut[64] = '\0';
	snprintf(rm, sizeof(rm),
		 "id=\"com.example.m\" displayName=\"M\" units=\"\" "
		 "source=\"%s%s\"", cut, "yyyy");
	snprintf(want, sizeof(want),
		 "t.xml:3:5: <reportMetric id=\"com.example.m\" "
		 "source=\"%s...\">: source \"%s...\" is not \"metric\", the "
		 "only source of section 3.4.3; write source=\"metric\"",
		 cut, cut);
	expect(NULL, rm, NULL, NULL, NULL, PARTIAL_R_SOURCE, want);
}
END_TEST

/* ------------------------------------------------------------------ */
/* <text> */

START_TEST(partial_text_raw)
{
	/* ss_text keeps the markup and references as written */
	char *doc = skeleton(NULL, NULL, NULL, NULL, NULL);
	struct partial_set *ps = load(doc);
	struct model m;
	model_init(&m);
	struct partial_result *r;
	ck_assert_int_eq(partial_eval(ps, &m, &r), 0);
	const struct partial_subsection *ss = &r->rs_reports[0].pr_subsections[0];
	ck_assert_str_eq(ss->ss_text, "Hello <b>world</b>");
	ck_assert_str_eq(ss->ss_id, "s1");
	ck_assert_str_eq(ss->ss_heading, "H");
	ck_assert_str_eq(r->rs_reports[0].pr_name, "com.example.r");
	ck_assert_str_eq(r->rs_reports[0].pr_file, "t.xml");
	/* no metric in the run */
	const struct partial_entry *en = &ss->ss_entries[0];
	ck_assert_int_eq(en->en_recorded, 0);
	ck_assert_int_eq(en->en_state, PARTIAL_NOT_RECORDED);
	ck_assert_str_eq(en->en_scaled, "not recorded in this run");
	ck_assert(en->en_bar < 0);
	ck_assert_uint_eq(r->rs_nbins, 0);
	partial_result_free(r);
	model_free(&m);
	partial_set_free(ps);
	free(doc);

	ps = load("<partialReport name=\"com.example.r\" xmlns=\"" NS "\">\n"
		  "<reportMetrics><reportMetric " RM "><sourceDetails " SD
		  "/></reportMetric></reportMetrics>\n"
		  "<subsections><subsection " SS ">"
		  "<text>a &amp; <a href=\"x?a=1&amp;b=2\">link</a> "
		  "<![CDATA[<raw>]]><br/>&#233;</text>"
		  "</subsection><subsection id=\"s2\" heading=\"H2\">"
		  "<text/></subsection></subsections>\n"
		  "</partialReport>\n");
	ck_assert_uint_eq(ps->ps_ndiags, 0);
	model_init(&m);
	ck_assert_int_eq(partial_eval(ps, &m, &r), 0);
	ck_assert_str_eq(r->rs_reports[0].pr_subsections[0].ss_text,
			 "a &amp; <a href=\"x?a=1&amp;b=2\">link</a> "
			 "<![CDATA[<raw>]]><br/>&#233;");
	ck_assert_str_eq(r->rs_reports[0].pr_subsections[1].ss_text, "");
	partial_result_free(r);
	model_free(&m);
	partial_set_free(ps);
}
END_TEST

START_TEST(partial_plain_text_forms)
{
	static const struct {
		const char *html, *text;
	} cases[] = {
		{"Section one:", "Section one:"},
		{"  a\n\t b  ", "a b"},
		{"a <b>bold</b> &amp; <i>it</i>", "a bold & it"},
		{"<p>one</p><p>two</p>", "one\ntwo"},
		{"x<br/>y", "x\ny"},
		{"<ul><li>a</li><li>b</li></ul>", "- a\n- b"},
		{"<h1>T</h1>body", "T\nbody"},
		{"&lt;tag&gt; &quot;q&quot; &apos;", "<tag> \"q\" '"},
		{"&#233;&#xe9;", "\xc3\xa9\xc3\xa9"},
		{"&#1; &unknown; &", "&unknown; &"},
		{"<![CDATA[<b>raw</b>]]>", "<b>raw</b>"},
		{"a<!-- note -->b", "ab"},
		{"<img src=\"x.png\" alt=\"x\"/>", ""},
		{"a<script>var x = 1 < 2;</script>b<STYLE>p{}</STYLE>c",
		 "abc"},
		{"<script/>x", "x"},
		{"", ""},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *t = partial_plain_text(cases[i].html);
		ck_assert_ptr_nonnull(t);
		ck_assert_msg(!strcmp(t, cases[i].text), "%s: got \"%s\"",
			      cases[i].html, t);
		free(t);
	}
}
END_TEST

/* ------------------------------------------------------------------ */
/* Where definitions are found */

static char tmpdir[64];

static void write_file(const char *dir, const char *name, const char *text)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

/* A valid file whose report is called name. */
static char *named(const char *name, const char *metric)
{
	char root[256], rm[256], en[256];
	snprintf(root, sizeof(root), "name=\"%s\" xmlns=\"" NS "\"", name);
	snprintf(rm, sizeof(rm),
		 "id=\"%s\" displayName=\"M\" units=\"\" source=\"metric\"",
		 metric);
	snprintf(en, sizeof(en), "reportMetric=\"%s\"", metric);
	return skeleton(root, rm, NULL, NULL, en);
}

static void setup_tree(void)
{
	char p[512];
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/test_partial.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(tmpdir));
	static const char *const dirs[] = {
		"src", "src/sub", "mcfg", "mcfg/reports", "acfg",
		"acfg/perf-report", "acfg/perf-report/reports", "home",
		"home/.mapsample", "home/.mapsample/reports", "home/.allinea",
		"home/.allinea/perf-report", "home/.allinea/perf-report/reports",
	};
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(p, sizeof(p), "%s/%s", tmpdir, dirs[i]);
		ck_assert_int_eq(mkdir(p, 0755), 0);
	}
	static const struct {
		const char *dir, *file, *name;
	} files[] = {
		{"src", "b.xml", "com.example.src_b"},
		{"src", "a.xml", "com.example.src_a"},
		{"src", "C.xml", "com.example.src_C"},
		{"src/sub", "d.xml", "com.example.sub_d"},
		{"mcfg/reports", "m.xml", "com.example.mcfg"},
		{"acfg/perf-report/reports", "a.xml", "com.example.acfg"},
		{"home/.mapsample/reports", "h.xml", "com.example.home"},
		{"home/.allinea/perf-report/reports", "h.xml",
		 "com.example.home_allinea"},
	};
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		char metric[128];
		snprintf(metric, sizeof(metric), "%s_m", files[i].name);
		char *doc = named(files[i].name, metric);
		snprintf(p, sizeof(p), "%s/%s", tmpdir, files[i].dir);
		write_file(p, files[i].file, doc);
		free(doc);
	}
	snprintf(p, sizeof(p), "%s/src", tmpdir);
	write_file(p, ".hidden.xml", "not even XML");
	write_file(p, "notes.txt", "not XML");
}

static void cleanup_tree(void)
{
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpdir);
	ck_assert_int_eq(system(cmd), 0);
}

/* The names of the reports ps uses, comma-separated, into buf. */
static const char *names(const struct partial_set *ps, char *buf, size_t n)
{
	struct model m;
	model_init(&m);
	struct partial_result *r;
	ck_assert_int_eq(partial_eval(ps, &m, &r), 0);
	buf[0] = '\0';
	for (size_t i = 0; i < r->rs_nreports; i++) {
		strncat(buf, i ? "," : "", n - strlen(buf) - 1);
		strncat(buf, r->rs_reports[i].pr_name + strlen("com.example."),
			n - strlen(buf) - 1);
	}
	partial_result_free(r);
	model_free(&m);
	return buf;
}

static void env(const char *var, const char *sub)
{
	char p[512];
	if (!sub) {
		unsetenv(var);
		return;
	}
	snprintf(p, sizeof(p), "%s%s%s", *sub == '/' ? "" : tmpdir,
		 *sub == '/' ? "" : "/", sub);
	setenv(var, p, 1);
}

static const char *loaded(const char *const *paths, size_t n, char *buf,
			  size_t len)
{
	struct partial_set *ps = partial_set_new();
	ck_assert_int_eq(partial_load(ps, paths, n), 0);
	for (size_t i = 0; i < ps->ps_ndiags; i++)
		fprintf(stderr, "%s\n", ps->ps_diags[i].pd_text);
	ck_assert_uint_eq(ps->ps_nerrors, 0);
	names(ps, buf, len);
	partial_set_free(ps);
	return buf;
}

START_TEST(partial_search_precedence)
{
	char buf[512], p[512];
	setup_tree();
	env("HOME", "home");
	env("MAPSAMPLE_CONFIG_DIR", "mcfg");
	env("ALLINEA_CONFIG_DIR", "acfg");
	env("MAPSAMPLE_PARTIAL_REPORT_SOURCE", NULL);
	env("ALLINEA_PARTIAL_REPORT_SOURCE", NULL);
	/* 4. the folders, in order */
	ck_assert_str_eq(loaded(NULL, 0, buf, sizeof(buf)), "mcfg,acfg,home");
	env("ALLINEA_CONFIG_DIR", NULL);
	ck_assert_str_eq(loaded(NULL, 0, buf, sizeof(buf)),
			 "mcfg,home_allinea,home");
	setenv("ALLINEA_CONFIG_DIR", "", 1);
	ck_assert_str_eq(loaded(NULL, 0, buf, sizeof(buf)),
			 "mcfg,home_allinea,home");
	/* the same folder by two names counts once */
	env("MAPSAMPLE_CONFIG_DIR", "home/.mapsample/../.mapsample");
	ck_assert_str_eq(loaded(NULL, 0, buf, sizeof(buf)),
			 "home,home_allinea");
	/* 3. $ALLINEA_PARTIAL_REPORT_SOURCE: a file */
	env("ALLINEA_PARTIAL_REPORT_SOURCE", "src/b.xml");
	ck_assert_str_eq(loaded(NULL, 0, buf, sizeof(buf)), "src_b");
	/* 2. $MAPSAMPLE_PARTIAL_REPORT_SOURCE before it: a folder, its
	 * *.xml files in byte order, not its sub-folders */
	env("MAPSAMPLE_PARTIAL_REPORT_SOURCE", "src");
	ck_assert_str_eq(loaded(NULL, 0, buf, sizeof(buf)),
			 "src_C,src_a,src_b");
	/* 1. --partial-report before all, in the order given */
	const char *paths[2];
	char p2[512];
	snprintf(p, sizeof(p), "%s/src/sub", tmpdir);
	snprintf(p2, sizeof(p2), "%s/mcfg/reports/m.xml", tmpdir);
	paths[0] = p;
	paths[1] = p2;
	ck_assert_str_eq(loaded(paths, 2, buf, sizeof(buf)), "sub_d,mcfg");
	/* an empty variable is unset */
	setenv("MAPSAMPLE_PARTIAL_REPORT_SOURCE", "", 1);
	ck_assert_str_eq(loaded(NULL, 0, buf, sizeof(buf)), "src_b");
	unsetenv("MAPSAMPLE_PARTIAL_REPORT_SOURCE");
	unsetenv("ALLINEA_PARTIAL_REPORT_SOURCE");
	unsetenv("MAPSAMPLE_CONFIG_DIR");
	cleanup_tree();
}
END_TEST

START_TEST(partial_search_dirs_list)
{
	char **dirs;
	size_t n;
	setenv("HOME", "/nonexistent/h", 1);
	setenv("MAPSAMPLE_CONFIG_DIR", "/nonexistent/m/", 1);
	setenv("ALLINEA_CONFIG_DIR", "/nonexistent/a", 1);
	ck_assert_int_eq(partial_search_dirs(&dirs, &n), 0);
	ck_assert_uint_eq(n, 3);
	ck_assert_str_eq(dirs[0], "/nonexistent/m/reports");
	ck_assert_str_eq(dirs[1], "/nonexistent/a/perf-report/reports");
	ck_assert_str_eq(dirs[2], "/nonexistent/h/.mapsample/reports");
	for (size_t i = 0; i < n; i++)
		free(dirs[i]);
	free(dirs);
	unsetenv("MAPSAMPLE_CONFIG_DIR");
	unsetenv("ALLINEA_CONFIG_DIR");
	ck_assert_int_eq(partial_search_dirs(&dirs, &n), 0);
	ck_assert_uint_eq(n, 2);
	ck_assert_str_eq(dirs[0], "/nonexistent/h/.allinea/perf-report/reports");
	ck_assert_str_eq(dirs[1], "/nonexistent/h/.mapsample/reports");
	for (size_t i = 0; i < n; i++)
		free(dirs[i]);
	free(dirs);
	/* nothing there: nothing loaded, no message */
	struct partial_set *ps = partial_set_new();
	ck_assert_int_eq(partial_load(ps, NULL, 0), 0);
	ck_assert_uint_eq(ps->ps_nfiles, 0);
	ck_assert_uint_eq(ps->ps_ndiags, 0);
	partial_set_free(ps);
}
END_TEST

START_TEST(partial_load_errors)
{
	struct partial_set *ps = partial_set_new();
	const char *paths[] = {"/nonexistent/r.xml"};
	ck_assert_int_eq(partial_load(ps, paths, 1), 0);
	one_error(ps, PARTIAL_R_IO,
		  "/nonexistent/r.xml: cannot be read: No such file or "
		  "directory; check the path given by --partial-report");
	partial_set_free(ps);

	setup_tree();
	char p[512];
	snprintf(p, sizeof(p), "%s/src/sub", tmpdir);
	ps = partial_set_new();
	setenv("ALLINEA_PARTIAL_REPORT_SOURCE", "/nonexistent/dir/", 1);
	ck_assert_int_eq(partial_load(ps, NULL, 0), 0);
	one_error(ps, PARTIAL_R_IO,
		  "/nonexistent/dir/: cannot be read: No such file or "
		  "directory; check the path given by "
		  "$ALLINEA_PARTIAL_REPORT_SOURCE");
	partial_set_free(ps);
	unsetenv("ALLINEA_PARTIAL_REPORT_SOURCE");

	/* a folder without definitions: a warning */
	snprintf(p, sizeof(p), "%s/home/.allinea", tmpdir);
	ps = partial_set_new();
	ck_assert_int_eq(partial_load_path(ps, p, "--partial-report"), 0);
	ck_assert_uint_eq(ps->ps_ndiags, 1);
	ck_assert_int_eq(ps->ps_diags[0].pd_severity, PARTIAL_WARNING);
	char want[1024];
	snprintf(want, sizeof(want),
		 "%s: warning: folder holds no *.xml file, so no partial "
		 "report is loaded from it; check the path given by "
		 "--partial-report", p);
	ck_assert_str_eq(ps->ps_diags[0].pd_text, want);
	partial_set_free(ps);
	cleanup_tree();
}
END_TEST

/* ------------------------------------------------------------------ */
/* Values: the metrics scenario of test/common/logsynth */

START_TEST(partial_eval_scenario)
{
	char path[] = "/tmp/test_partial_log.XXXXXX";
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	struct logsynth_opts o;
	logsynth_defaults(&o);
	o.metrics = 1;
	ck_assert_int_eq(logsynth_to_fd(&o, fd, NULL), 0);
	close(fd);
	struct model m;
	model_init(&m);
	ck_assert_int_eq(model_load(&m, path, NULL, NULL), 0);

	/* RSS (B): pid 6000 1..8 MiB, pid 7000 0..4096 B, at times that
	 * never overlap; CPU utilization (%): 5 .. 90.5 */
	struct partial_set *ps = load(
		"<partialReport name=\"com.example.r\" xmlns=\"" NS "\">\n"
		"<reportMetrics>\n"
		"<reportMetric id=\"rss.max\" displayName=\"RSS max\" units=\"B\" "
		"source=\"metric\"><sourceDetails metricRef=\"com.example.mem.rss\" "
		"sampleValue=\"max\" aggregation=\"max\"/></reportMetric>\n"
		"<reportMetric id=\"rss.min\" displayName=\"RSS min\" units=\"B\" "
		"source=\"metric\"><sourceDetails metricRef=\"com.example.mem.rss\" "
		"sampleValue=\"min\" aggregation=\"min\"/></reportMetric>\n"
		"<reportMetric id=\"cpu.max\" displayName=\"CPU\" units=\"%\" "
		"source=\"metric\"><sourceDetails metricRef=\"com.example.cpu.util\" "
		"sampleValue=\"sum\" aggregation=\"max\"/></reportMetric>\n"
		"<reportMetric id=\"flaky\" displayName=\"F\" units=\"/s\" "
		"source=\"metric\"><sourceDetails metricRef=\"com.example.flaky\" "
		"sampleValue=\"mean\" aggregation=\"mean\"/></reportMetric>\n"
		"<reportMetric id=\"gone\" displayName=\"G\" units=\"\" "
		"source=\"metric\"><sourceDetails metricRef=\"com.example.gone\" "
		"sampleValue=\"mean\" aggregation=\"mean\"/></reportMetric>\n"
		"</reportMetrics>\n<subsections><subsection " SS ">\n"
		"<entry reportMetric=\"rss.max\" group=\"rss\"/>\n"
		"<entry reportMetric=\"rss.min\" group=\"rss\"/>\n"
		"<entry reportMetric=\"cpu.max\"/>\n"
		"<entry reportMetric=\"flaky\" group=\"rss\"/>\n"
		"<entry reportMetric=\"gone\"/>\n"
		"</subsection></subsections></partialReport>\n");
	ck_assert_uint_eq(ps->ps_ndiags, 0);
	struct partial_result *r;
	/* the values come from the model: the log may be gone */
	unlink(path);
	ck_assert_int_eq(partial_eval(ps, &m, &r), 0);
	ck_assert_uint_gt(r->rs_nbins, 1);
	ck_assert_uint_le(r->rs_nbins, PARTIAL_MAX_BINS);
	const struct partial_entry *en = r->rs_reports[0].pr_subsections[0].ss_entries;
	ck_assert_int_eq(en[0].en_state, PARTIAL_VALUE);
	ck_assert(en[0].en_value == 8388608.0);
	ck_assert_str_eq(en[0].en_scaled, "8.00 MiB");
	ck_assert(en[0].en_bar == 1.0);
	ck_assert_uint_eq(en[0].en_procs, 2);
	ck_assert(en[1].en_value == 0.0);
	ck_assert_str_eq(en[1].en_scaled, "0 B");
	ck_assert(en[1].en_bar == 0.0);
	/* the two processes never share a bin: the largest sum is one
	 * process's largest value */
	ck_assert(en[2].en_value == 90.5);
	ck_assert(en[2].en_bar < 0);
	ck_assert_int_eq(en[3].en_state, PARTIAL_NO_VALUE);
	ck_assert_int_eq(en[3].en_recorded, 1);
	ck_assert_str_eq(en[3].en_scaled, "no value in this run");
	ck_assert(en[3].en_bar < 0);
	ck_assert_int_eq(en[4].en_state, PARTIAL_NOT_RECORDED);
	ck_assert_int_eq(en[4].en_recorded, 0);
	partial_result_free(r);
	partial_set_free(ps);
	model_free(&m);
	unlink(path);
}
END_TEST

static Suite *partial_suite(void)
{
	Suite *s = suite_create("partial");
	TCase *tc = tcase_create("rules");
	tcase_add_test(tc, partial_valid_skeleton);
	tcase_add_test(tc, partial_reference_example);
	tcase_add_test(tc, partial_not_xml);
	tcase_add_test(tc, partial_root);
	tcase_add_test(tc, partial_xmlns_missing);
	tcase_add_test(tc, partial_xmlns_wrong);
	tcase_add_test(tc, partial_name_missing);
	tcase_add_test(tc, partial_name_empty);
	tcase_add_test(tc, partial_display_name_missing);
	tcase_add_test(tc, partial_units_missing);
	tcase_add_test(tc, partial_source_missing);
	tcase_add_test(tc, partial_source_not_metric);
	tcase_add_test(tc, partial_metric_ref_missing);
	tcase_add_test(tc, partial_sample_value);
	tcase_add_test(tc, partial_aggregation);
	tcase_add_test(tc, partial_every_stat);
	tcase_add_test(tc, partial_source_details_missing);
	tcase_add_test(tc, partial_source_details_twice);
	tcase_add_test(tc, partial_containers);
	tcase_add_test(tc, partial_text_twice);
	tcase_add_test(tc, partial_heading_missing);
	tcase_add_test(tc, partial_entry_missing_ref);
	tcase_add_test(tc, partial_entry_undefined);
	tcase_add_test(tc, partial_reserved);
	tcase_add_test(tc, partial_ncname);
	tcase_add_test(tc, partial_id_empty);
	tcase_add_test(tc, partial_duplicate_id);
	tcase_add_test(tc, partial_substring_ids);
	tcase_add_test(tc, partial_across_files);
	tcase_add_test(tc, partial_duplicate_subsection);
	tcase_add_test(tc, partial_colours);
	tcase_add_test(tc, partial_warnings);
	tcase_add_test(tc, partial_too_many_problems);
	tcase_add_test(tc, partial_quoting);
	suite_add_tcase(s, tc);

	tc = tcase_create("text");
	tcase_add_test(tc, partial_text_raw);
	tcase_add_test(tc, partial_plain_text_forms);
	suite_add_tcase(s, tc);

	tc = tcase_create("search");
	tcase_add_test(tc, partial_search_precedence);
	tcase_add_test(tc, partial_search_dirs_list);
	tcase_add_test(tc, partial_load_errors);
	suite_add_tcase(s, tc);

	tc = tcase_create("values");
	tcase_add_test(tc, partial_eval_scenario);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(partial_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
