/*
 * The histogram app's `photo` distribution: a real photograph decoded with
 * libjpeg-turbo (Debian: libjpeg-dev). Generated inputs have the statistics
 * we chose; a photograph has long runs of near-equal pixels, smooth
 * gradients and a few dominant colours, which is what privatized and
 * aggregated histograms meet in image processing. The decoder is optional at
 * build time (ATL_HAVE_JPEG): without it the distribution says what to
 * install.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app_internal.h"

#ifdef ATL_HAVE_JPEG
#include <setjmp.h>

#include <jpeglib.h>
#endif

/* What a missing default photo tells the user, whichever file was asked for. */
#define PHOTO_HINT                                                                                                     \
  "the default photo " ATL_HIST_PHOTO_DEFAULT " comes from the Debian package " ATL_HIST_PHOTO_PACKAGE               \
  " (apt-get install " ATL_HIST_PHOTO_PACKAGE "; scripts/setup-deps.sh), or give another JPEG file as the photo"

const char *atl__photo_path(const char *path)
{
  return path && *path ? path : ATL_HIST_PHOTO_DEFAULT;
}

int atl_hist_photo_available(const char *path, char *why, size_t why_len)
{
  path = atl__photo_path(path);
#ifndef ATL_HAVE_JPEG
  snprintf(why, why_len,
           "the photo distribution needs libjpeg-turbo at build time: install the Debian package libjpeg-dev "
           "(scripts/setup-deps.sh) and rebuild atomlab");
  return ATL_ENOTSUP;
#else
  unsigned char soi[2] = {0, 0};
  /* Only a regular file: a FIFO would block the read, a folder is not a photo. */
  char detail[200];
  FILE *f = atl_file_open_input(path, detail, sizeof detail);
  if (f == NULL) {
    snprintf(why, why_len, "photo '%s': %s; %s", path, detail, PHOTO_HINT);
    return ATL_EIO;
  }
  size_t got = fread(soi, 1, 2, f);
  fclose(f);
  /* Every JPEG starts with the SOI marker; anything else would fail late, after the device was set up. */
  if (got != 2 || soi[0] != 0xff || soi[1] != 0xd8) {
    snprintf(why, why_len, "the photo distribution needs a JPEG file: '%s' is not one", path);
    return ATL_EINVAL;
  }
  return 0;
#endif
}

#ifdef ATL_HAVE_JPEG
/* libjpeg reports errors through a callback that must not return: jump back to the decoder with the message. */
struct jpeg_fail {
  struct jpeg_error_mgr mgr;
  jmp_buf back;
  char msg[JMSG_LENGTH_MAX];
};

static void on_jpeg_error(j_common_ptr cinfo)
{
  struct jpeg_fail *fail = (struct jpeg_fail *)cinfo->err;
  fail->mgr.format_message(cinfo, fail->msg);
  longjmp(fail->back, 1);
}
#endif

int atl__photo_load(const char *path, struct atl__photo *ph, char *why, size_t why_len)
{
  memset(ph, 0, sizeof *ph);
  int err = atl_hist_photo_available(path, why, why_len);
  if (err)
    return err;
#ifdef ATL_HAVE_JPEG
  struct jpeg_decompress_struct cinfo;
  struct jpeg_fail fail;
  /* Read after a longjmp: volatile so that the values set between setjmp and the jump survive it. */
  const char *volatile file = atl__photo_path(path);
  FILE *volatile f = NULL;
  uint8_t *volatile rgba = NULL;
  volatile int created = 0;
  memset(&cinfo, 0, sizeof cinfo);
  cinfo.err = jpeg_std_error(&fail.mgr);
  fail.mgr.error_exit = on_jpeg_error;
  if (setjmp(fail.back)) {
    snprintf(why, why_len, "cannot decode the photo '%s': %s", file, fail.msg);
    err = ATL_EIO;
    goto out;
  }
  char detail[200];
  if ((f = atl_file_open_input(file, detail, sizeof detail)) == NULL) {
    snprintf(why, why_len, "the photo distribution cannot read '%s' (%s)", file, detail);
    err = ATL_EIO;
    goto out;
  }
  jpeg_create_decompress(&cinfo);
  created = 1;
  jpeg_stdio_src(&cinfo, f);
  jpeg_read_header(&cinfo, TRUE);
  /* libjpeg-turbo writes RGBA directly (alpha 0xff): the rgba input's layout, no second pass. */
  cinfo.out_color_space = JCS_EXT_RGBA;
  jpeg_start_decompress(&cinfo);
  const size_t stride = (size_t)cinfo.output_width * 4;
  if (cinfo.output_components != 4 || cinfo.output_width == 0 || cinfo.output_height == 0) {
    snprintf(why, why_len, "cannot decode the photo '%s' to RGBA (%d components)", file, cinfo.output_components);
    err = ATL_EIO;
    goto out;
  }
  if ((rgba = malloc(stride * cinfo.output_height)) == NULL) {
    snprintf(why, why_len, "out of host memory for the %ux%u photo '%s'", cinfo.output_width, cinfo.output_height,
             file);
    err = ATL_ENOMEM;
    goto out;
  }
  while (cinfo.output_scanline < cinfo.output_height) {
    JSAMPROW line = rgba + stride * cinfo.output_scanline;
    jpeg_read_scanlines(&cinfo, &line, 1);
  }
  jpeg_finish_decompress(&cinfo);
  ph->rgba = rgba;
  ph->width = cinfo.output_width;
  ph->height = cinfo.output_height;
  rgba = NULL;
  const char *slash = strrchr(file, '/');
  snprintf(ph->name, sizeof ph->name, "%s", slash ? slash + 1 : file);
out:
  if (created)
    jpeg_destroy_decompress(&cinfo);
  if (f)
    fclose(f);
  free(rgba);
  return err;
#else
  return ATL_ENOTSUP; /* not reached: atl_hist_photo_available said so */
#endif
}

void atl__photo_release(struct atl__photo *ph)
{
  free(ph->rgba);
  memset(ph, 0, sizeof *ph);
}
