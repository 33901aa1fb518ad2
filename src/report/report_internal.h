/* What the report writers share: the sections (sections.c) that the
 * document (write.c) embeds, and the base64 encoder both use for images. */
#ifndef ATOMLAB_REPORT_INTERNAL_H
#define ATOMLAB_REPORT_INTERNAL_H

#include <stdio.h>

#include "atomlab.h"

/** Writes the Strategies, Histogram and Model sections as Markdown (@p html 0) or HTML. */
void atl__report_sections(FILE *o, int html, const struct atl_report_inputs *x);

/** The file's bytes in base64 (a data: URL's payload); -1 if it cannot be read. */
int atl__report_base64_file(FILE *o, const char *path);

/** Writes @p len bytes of @p text to the report folder's file @p path (atl_file_write_text_nofollow: a link
 *  planted under its name is replaced); 0, or -1 after telling @p notify why. */
int atl__report_write_text(atl_report_notify notify, void *arg, const char *path, const char *text, size_t len);

#endif
