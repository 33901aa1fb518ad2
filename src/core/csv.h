/* Internal: the small CSV reader the model's file readers share. */
#ifndef ATOMLAB_MODEL_CSV_H
#define ATOMLAB_MODEL_CSV_H

#include <stddef.h>

/**
 * Splits one CSV record (no newline) in place into at most @p max fields:
 * double-quoted fields may hold commas and "" for a quote; surrounding quotes
 * are removed. Returns the number of fields, or -1 for an unterminated quote
 * or more than @p max fields.
 */
int atl__csv_fields(char *line, char **fields, int max);

/**
 * The next line of @p *text, copied into @p buf (at most @p len - 1 bytes,
 * "\r" dropped, every other control character as '?'); advances @p *text. Returns the line's length, -1 at the end
 * of the text, or -2 if the line does not fit.
 */
long atl__csv_next_line(const char **text, char *buf, size_t len);

/**
 * The next record of @p *text that is not empty or a '#' comment, split into
 * @p fields (as atl__csv_fields) in @p buf; @p *lineno counts the lines read.
 * Returns the number of fields, 0 at the end of the text, or -1 with
 * "NAME:LINE: reason" in @p why for a line too long or malformed.
 */
int atl__csv_record(const char **text, char *buf, size_t len, char **fields, int max, unsigned *lineno,
                    const char *name, char *why, size_t why_len);

/**
 * A number as a counter file writes it: optional quotes already removed,
 * thousands separators (",") allowed between digit groups, a decimal point,
 * an exponent. Returns 0 and the value, or -1 if the text is not a finite number.
 */
int atl__csv_number(const char *text, double *value);

#endif
