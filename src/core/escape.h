/* Every string that comes from a file or the command line (a device name, a
 * pattern, a strategy or variant name, a recorded command, a path) and enters
 * a gnuplot script, a gnuplot data file, Markdown or HTML goes through one of
 * these emitters, so a result file cannot carry code into `atomlab plot` or
 * `atomlab report`. The module depends on stdio only: the fuzz harness
 * (tests/fuzz/fuzz_escape.c) links it alone. */
#ifndef ATOMLAB_CLI_ESCAPE_H
#define ATOMLAB_CLI_ESCAPE_H

#include <stddef.h>
#include <stdio.h>

/**
 * Writes @p s as one single-quoted gnuplot string, the quotes included. gnuplot
 * expands nothing inside single quotes except '' (one quote), which is how a
 * quote is written; backquotes, '@', '\\', control characters and bytes outside
 * printable ASCII become '?' all the same (a whitelist: whatever a later gnuplot
 * may give meaning to stays out).
 */
void atl__esc_gp_string(FILE *o, const char *s);

/**
 * Writes @p s as one double-quoted field of a gnuplot data file (the xtic()
 * labels): only letters, digits and "._-+/:=,()" stay, the rest becomes '_',
 * so a name can neither end the field, split the line nor start a comment.
 * An empty @p s gives "_" (an empty field would shift the columns).
 */
void atl__esc_gp_datum(FILE *o, const char *s);

/**
 * Writes @p s inside a '#' comment line of a gnuplot script or data file:
 * printable ASCII but '\\' (which continues a line, comments included); the
 * rest becomes '?'.
 */
void atl__esc_comment(FILE *o, const char *s);

/**
 * Writes @p s as HTML text or a double-quoted attribute value: & < > " ' as
 * entities, control characters as spaces (no caller passes multi-line text).
 */
void atl__esc_html(FILE *o, const char *s);

/**
 * Writes @p s as Markdown text that a renderer shows as written: & < > " ' as
 * the entities of atl__esc_html (so no HTML passes, whatever the renderer), the
 * characters that open code, emphasis, links and table cells (\\ ` * [ ] |)
 * backslash-escaped, control characters as spaces (a newline would end a
 * table row or start a block).
 */
void atl__esc_md(FILE *o, const char *s);

/**
 * atl__esc_md into @p buf (always terminated when @p len > 0): whole escapes only,
 * so a truncated result is still well-formed. Returns @p buf, for use as a
 * printf argument.
 */
char *atl__esc_md_str(char *buf, size_t len, const char *s);

/**
 * Writes Markdown text, constant prose with atl__esc_md'd data, as HTML text: the
 * escapes atl__esc_md writes are undone into their HTML form, everything else is
 * escaped as atl__esc_html does. For every s, atl__esc_md_to_html(atl__esc_md(s)) writes
 * what atl__esc_html(s) writes: one text feeds report.md and report.html.
 */
void atl__esc_md_to_html(FILE *o, const char *md);

/**
 * Writes @p s as a relative URL (a Markdown link target): letters, digits and
 * "-._~/" stay, every other byte is %XX, so it can close neither the link nor
 * name another scheme.
 */
void atl__esc_url(FILE *o, const char *s);

#endif
