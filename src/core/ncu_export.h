/*
 * Internal: an ncu CSV export (`ncu --import R --csv --page raw`, or the details page) parsed once into its
 * header, its units row and its rows split into fields. Every reader of an export walks this one structure: the
 * shared-memory model's counters (atl_ncu_report_from_export), the L2 model's (atl_l2_report_from_export), and
 * the launches with their device and NVTX range (src/profile/launches.c). The parse never judges a row: a line
 * too long or malformed is kept, marked, so that each reader says what it said of it when it read the text itself.
 */
#ifndef ATOMLAB_CORE_NCU_EXPORT_H
#define ATOMLAB_CORE_NCU_EXPORT_H

#include <stddef.h>

/** The most fields a row may have, and the longest line (bytes): ncu's raw page has a column per metric. */
enum { ATL_NCU_EXPORT_MAX_FIELDS = 8192, ATL_NCU_EXPORT_LINE_LEN = 1 << 20 };

/** One line after the header, but ncu's notes ("==PROF==") and empty lines. */
struct atl__ncu_row {
  char *text;    /**< the line, split in place into @p f */
  char **f;      /**< its fields */
  int nf;        /**< their number; -1 malformed (an open quote, too many fields), -2 a line too long */
  unsigned line; /**< the line's number in the text (from 1) */
};

struct atl_ncu_export {
  char *name; /**< the export's name in messages */
  int header; /**< 1 found, -1 found but malformed, 0 none (no line starting with "ID") */
  unsigned header_line;
  char *header_text, **cols;
  int ncols;
  char *units_text, **units; /**< the raw page's units row (its ID field empty) as the first row, else NULL */
  int nunits;
  struct atl__ncu_row *rows;
  size_t nrows;
};

/** The index of the first column named @p name, or -1. */
int atl__ncu_export_column(const struct atl_ncu_export *e, const char *name);

/** The unit of column @p c where the export has a units row of as many fields as @p nf, else "". */
const char *atl__ncu_export_unit(const struct atl_ncu_export *e, int c, int nf);

#endif
