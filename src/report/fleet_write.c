/* atl_fleet_write (fleet.h): a fleet's comparison as a text table, Markdown, HTML or CSV. Every name and
 * configuration comes from a result file or a folder name, so each goes through an escape.h emitter. */
#include <math.h>
#include <string.h>

#include "atomlab.h"
#include "atomlab/fleet.h"
#include "core/escape.h"

int atl_fleet_format_from_path(const char *path)
{
  static const struct {
    const char *ext;
    enum atl_fleet_format format;
  } exts[] = {{".txt", ATL_FLEET_TEXT}, {".md", ATL_FLEET_MARKDOWN}, {".html", ATL_FLEET_HTML},
              {".htm", ATL_FLEET_HTML}, {".csv", ATL_FLEET_CSV}};
  const size_t n = strlen(path);
  for (size_t i = 0; i < sizeof exts / sizeof exts[0]; i++) {
    const size_t e = strlen(exts[i].ext);
    if (n > e && strcmp(path + n - e, exts[i].ext) == 0)
      return (int)exts[i].format;
  }
  return -1;
}

/* "datasheet.json op=fetch_add type=u32 ...": the op's file and configuration as one label. */
static void op_label(const struct atl_fleet_op *op, char *out, size_t len)
{
  snprintf(out, len, "%s %s", op->file, op->key);
  for (char *p = out; *p; p++)
    if (*p == ';')
      *p = ' ';
}

/* One cell as the tables show it: the deviation with its verdict, or what stands for a missing value. */
static const char *cell_text(const struct atl_fleet_cell *c, char *buf, size_t len)
{
  switch (c->mark) {
  case ATL_FLEET_IN:
    snprintf(buf, len, "%+.1f%%", 100 * c->deviation);
    break;
  case ATL_FLEET_SLOW:
  case ATL_FLEET_FAST:
    snprintf(buf, len, "%+.1f%% %s", 100 * c->deviation, atl_fleet_mark_name(c->mark));
    break;
  case ATL_FLEET_UNJUDGED:
    snprintf(buf, len, "%+.1f%%?", 100 * c->deviation);
    break;
  case ATL_FLEET_FAILED:
    snprintf(buf, len, "failed");
    break;
  case ATL_FLEET_NONE:
    snprintf(buf, len, "unsupported");
    break;
  default:
    snprintf(buf, len, "-");
  }
  return buf;
}

static void rule_text(const struct atl_fleet *fl, char *buf, size_t len)
{
  snprintf(buf, len,
           "a node is flagged where |value - median| > max(%g x 1.4826 x MAD, %g x its own noise, %g%% of the "
           "median), in ops that at least %d nodes measured; a row that failed or did not verify is flagged too",
           fl->rule.k, fl->rule.noise_factor, 100 * fl->rule.floor, ATL_FLEET_MIN_NODES);
}

static void summary_text(const struct atl_fleet *fl, char *buf, size_t len)
{
  snprintf(buf, len, "%zu nodes, %zu device model%s, %zu ops: %zu flagged cell%s on %zu node%s", fl->nnodes,
           fl->devices, fl->devices == 1 ? "" : "s", fl->nops, fl->flagged, fl->flagged == 1 ? "" : "s",
           fl->flagged_nodes, fl->flagged_nodes == 1 ? "" : "s");
}

/* The text and Markdown forms share their layout; @p md escapes the data and draws table rules. */
static void text_escaped(FILE *o, int md, const char *s)
{
  if (md)
    atl__esc_md(o, s);
  else /* a terminal: no control characters from a file */
    for (; *s; s++)
      fputc((unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s, o);
}

static void write_nodes(FILE *o, int md, const struct atl_fleet *fl)
{
  fputs(md ? "## Nodes\n\n| node | device | files | rows | flagged | worst deviation |\n|---|---|---|---|---|---|\n"
           : "node                 files   rows flagged  worst  device\n",
        o);
  for (size_t i = 0; i < fl->nnodes; i++) {
    const struct atl_fleet_node *n = &fl->nodes[i];
    char worst[32] = "-";
    if (n->worst != 0)
      snprintf(worst, sizeof worst, "%+.1f%%", 100 * n->worst);
    if (md) {
      fputs("| ", o);
      atl__esc_md(o, n->name);
      fputs(" | ", o);
      atl__esc_md(o, n->device);
      fprintf(o, " | %zu | %zu | %zu | %s |\n", n->files, n->rows, n->flagged, worst);
    } else {
      char name[21];
      snprintf(name, sizeof name, "%.*s", (int)sizeof name - 1, n->name);
      text_escaped(o, 0, name);
      fprintf(o, "%*s %5zu %6zu %7zu %6s  ", (int)(20 - strlen(name)), "", n->files, n->rows, n->flagged, worst);
      text_escaped(o, 0, n->device);
      fputc('\n', o);
    }
  }
  fputc('\n', o);
}

static void write_flagged(FILE *o, int md, const struct atl_fleet *fl)
{
  fputs(md ? "## Flagged\n\n" : "flagged:\n", o);
  if (fl->flagged == 0) {
    fputs(md ? "No node lies outside its band.\n\n" : "  none\n\n", o);
    return;
  }
  if (md)
    fputs("| node | verdict | deviation | band | value | median | measure | op |\n|---|---|---|---|---|---|---|---|\n", o);
  for (size_t k = 0; k < fl->nops; k++) {
    const struct atl_fleet_op *op = &fl->ops[k];
    char label[800];
    op_label(op, label, sizeof label);
    for (size_t i = 0; i < fl->nnodes; i++) {
      const struct atl_fleet_cell *c = &op->cells[i];
      if (!atl_fleet_mark_flagged(c->mark))
        continue;
      char dev[32] = "-", band[32] = "-", value[32] = "-";
      if (c->mark != ATL_FLEET_FAILED) {
        snprintf(dev, sizeof dev, "%+.1f%%", 100 * c->deviation);
        snprintf(band, sizeof band, "±%.1f%%", 100 * c->band);
        snprintf(value, sizeof value, "%.4g", c->value);
      }
      fputs(md ? "| " : "  ", o);
      text_escaped(o, md, fl->nodes[i].name);
      fprintf(o, md ? " | %s | %s | %s | %s | %.4g | %s | " : "  %s %s (band %s): %s against the median %.4g %s, ",
              atl_fleet_mark_name(c->mark), dev, band, value, op->median, op->measure);
      text_escaped(o, md, label);
      fputs(md ? " |\n" : "\n", o);
    }
  }
  fputc('\n', o);
}

static void write_ops(FILE *o, int md, const struct atl_fleet *fl)
{
  char buf[64], label[800];
  if (md) {
    fputs("## Ops\n\nThe fleet's median of each op and each node's deviation from it (slow, fast: flagged; ? too "
          "few nodes to judge; - no such row).\n\n| op | measure | median |",
          o);
    for (size_t i = 0; i < fl->nnodes; i++) {
      fputc(' ', o);
      atl__esc_md(o, fl->nodes[i].name);
      fputs(" |", o);
    }
    fputs("\n|---|---|---|", o);
    for (size_t i = 0; i < fl->nnodes; i++)
      fputs("---|", o);
    fputc('\n', o);
  } else {
    fputs("ops: the median and each node's deviation from it (slow, fast: flagged; ? too few nodes to judge; - no "
          "such row), in the order",
          o);
    for (size_t i = 0; i < fl->nnodes; i++) {
      fputc(' ', o);
      text_escaped(o, 0, fl->nodes[i].name);
    }
    fputc('\n', o);
  }
  for (size_t k = 0; k < fl->nops; k++) {
    const struct atl_fleet_op *op = &fl->ops[k];
    op_label(op, label, sizeof label);
    fputs(md ? "| " : "  ", o);
    text_escaped(o, md, label);
    fprintf(o, md ? " | %s | %.4g |" : "\n    %s median %.4g:", op->measure, op->median);
    for (size_t i = 0; i < fl->nnodes; i++)
      fprintf(o, md ? " %s |" : " %s", cell_text(&op->cells[i], buf, sizeof buf));
    fputc('\n', o);
  }
}

static void write_text(FILE *o, int md, const struct atl_fleet *fl)
{
  char line[400];
  summary_text(fl, line, sizeof line);
  fprintf(o, md ? "# atomlab fleet\n\n%s.\n\n" : "fleet: %s\n", line);
  rule_text(fl, line, sizeof line);
  fprintf(o, md ? "The rule (docs/guide/fleet.md): %s.\n\n" : "rule: %s\n\n", line);
  if (fl->devices > 1)
    fprintf(o, "%sThe nodes hold %zu device models: each op compares the nodes of one model only.\n\n",
            md ? "" : "note: ", fl->devices);
  write_nodes(o, md, fl);
  write_flagged(o, md, fl);
  write_ops(o, md, fl);
}

static void html_cell(FILE *o, const char *tag, const char *text, const char *cls)
{
  fprintf(o, "<%s%s%s%s>", tag, cls ? " class=\"" : "", cls ? cls : "", cls ? "\"" : "");
  atl__esc_html(o, text);
  fprintf(o, "</%s>", tag);
}

static void write_html(FILE *o, const struct atl_fleet *fl)
{
  char line[400], buf[64], label[800];
  fputs("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>atomlab fleet</title>\n<style>body{font-family:"
        "sans-serif}table{border-collapse:collapse}td,th{border:1px solid #bbb;padding:2px 6px}"
        ".slow,.fast,.failed{background:#f8c0c0;font-weight:bold}.unjudged,.missing,.none{color:#888}</style>"
        "</head><body>\n<h1>atomlab fleet</h1>\n<p>",
        o);
  summary_text(fl, line, sizeof line);
  atl__esc_html(o, line);
  fputs(".</p>\n<p>The rule (docs/guide/fleet.md): ", o);
  rule_text(fl, line, sizeof line);
  atl__esc_html(o, line);
  fputs(".</p>\n", o);
  if (fl->devices > 1)
    fprintf(o, "<p>The nodes hold %zu device models: each op compares the nodes of one model only.</p>\n",
            fl->devices);
  fputs("<h2>Nodes</h2>\n<table><tr><th>node</th><th>device</th><th>files</th><th>rows</th><th>flagged</th>"
        "<th>worst deviation</th></tr>\n",
        o);
  for (size_t i = 0; i < fl->nnodes; i++) {
    const struct atl_fleet_node *n = &fl->nodes[i];
    fputs("<tr>", o);
    html_cell(o, "td", n->name, n->flagged ? "slow" : NULL);
    html_cell(o, "td", n->device, NULL);
    snprintf(buf, sizeof buf, "%+.1f%%", 100 * n->worst);
    fprintf(o, "<td>%zu</td><td>%zu</td><td>%zu</td><td>%s</td></tr>\n", n->files, n->rows, n->flagged,
            n->worst != 0 ? buf : "-");
  }
  fputs("</table>\n<h2>Ops</h2>\n<p>The fleet's median of each op and each node's deviation from it (flagged cells "
        "marked; ? too few nodes to judge; - no such row).</p>\n<table><tr><th>op</th><th>measure</th><th>median</th>",
        o);
  for (size_t i = 0; i < fl->nnodes; i++)
    html_cell(o, "th", fl->nodes[i].name, NULL);
  fputs("</tr>\n", o);
  for (size_t k = 0; k < fl->nops; k++) {
    const struct atl_fleet_op *op = &fl->ops[k];
    op_label(op, label, sizeof label);
    fputs("<tr>", o);
    html_cell(o, "td", label, NULL);
    html_cell(o, "td", op->measure, NULL);
    fprintf(o, "<td>%.4g</td>", op->median);
    for (size_t i = 0; i < fl->nnodes; i++) {
      const struct atl_fleet_cell *c = &op->cells[i];
      html_cell(o, "td", cell_text(c, buf, sizeof buf), c->mark == ATL_FLEET_IN ? NULL : atl_fleet_mark_name(c->mark));
    }
    fputs("</tr>\n", o);
  }
  fputs("</table>\n</body></html>\n", o);
}

static void write_csv(FILE *o, const struct atl_fleet *fl)
{
  fputs("node,device,file,config,measure,value,median,deviation,band,noise,mark\n", o);
  for (size_t k = 0; k < fl->nops; k++) {
    const struct atl_fleet_op *op = &fl->ops[k];
    for (size_t i = 0; i < fl->nnodes; i++) {
      const struct atl_fleet_cell *c = &op->cells[i];
      const int valued = c->mark == ATL_FLEET_IN || c->mark == ATL_FLEET_SLOW || c->mark == ATL_FLEET_FAST ||
                         c->mark == ATL_FLEET_UNJUDGED;
      atl_csv_field(o, fl->nodes[i].name);
      fputc(',', o);
      atl_csv_field(o, op->device);
      fputc(',', o);
      atl_csv_field(o, op->file);
      fputc(',', o);
      atl_csv_field(o, op->key);
      fprintf(o, ",%s,", op->measure);
      if (valued)
        fprintf(o, "%.6g,%.6g,%.6g,%.6g,%.6g,%s\n", c->value, op->median, c->deviation, c->band, c->noise,
                atl_fleet_mark_name(c->mark));
      else
        fprintf(o, ",%.6g,,,,%s\n", op->median, atl_fleet_mark_name(c->mark));
    }
  }
}

int atl_fleet_write(FILE *out, enum atl_fleet_format format, const struct atl_fleet *fleet)
{
  switch (format) {
  case ATL_FLEET_HTML:
    write_html(out, fleet);
    break;
  case ATL_FLEET_CSV:
    write_csv(out, fleet);
    break;
  default:
    write_text(out, format == ATL_FLEET_MARKDOWN, fleet);
  }
  return ferror(out) ? ATL_EIO : 0;
}

int atl_fleet_write_file(FILE *out, const void *writer)
{
  const struct atl_fleet_writer *w = writer;
  return atl_fleet_write(out, w->format, w->fleet);
}
