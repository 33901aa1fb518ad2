/**
 * @file fleet.h
 * A fleet of nodes compared op by op: every node's result files (one folder
 * per node, read with atl_read_json), the fleet's median of each op, each
 * node's deviation from it, and the nodes that lie outside the fleet's
 * noise-aware band.
 *
 * An op is one rate of one row configuration: a row of file NAME.json with
 * the same configuration (atl_row_key) on the same device model, and one of
 * its measures (a datasheet row gives peak_gops and same_address_gops, any
 * other row its gops, else its median time). Nodes of different device
 * models never share an op.
 *
 * The band (docs/guide/fleet.md gives the reason of each constant): with m
 * the fleet's median of the op and MAD the median absolute deviation from it,
 * node i with value v_i and relative noise n_i (its row's IQR / median) is
 * flagged when
 *
 *     |v_i - m| > max(k * 1.4826 * MAD, c * n_i * m, floor * m)
 *
 * and the op has values on at least ATL_FLEET_MIN_NODES nodes (fewer: no
 * median to trust, nothing judged). A row that ran and failed (status error
 * or deadlock, or not verified) is flagged too.
 */
#ifndef ATOMLAB_FLEET_H
#define ATOMLAB_FLEET_H

#include "experimental.h" /* not the stable API */

#include <stddef.h>
#include <stdio.h>

#include "plot.h"
#include "result.h"

#ifdef __cplusplus
extern "C" {
#endif

/** k: robust standard deviations (1.4826 * MAD) a node may lie from the median. */
#define ATL_FLEET_K 3.0
/** c: multiples of a node's own relative noise (IQR / median) it may lie from the median. */
#define ATL_FLEET_NOISE_FACTOR 2.0
/** floor: the smallest relative deviation that is flagged. */
#define ATL_FLEET_FLOOR 0.05
/** Nodes with a value an op needs before it judges any. */
#define ATL_FLEET_MIN_NODES 3

/** The constants of the band. */
struct atl_fleet_rule {
  double k, noise_factor, floor;
};

/** The defaults: ATL_FLEET_K, ATL_FLEET_NOISE_FACTOR, ATL_FLEET_FLOOR. */
void atl_fleet_rule_init(struct atl_fleet_rule *rule);

/** What a node's cell of an op is. */
enum atl_fleet_mark {
  ATL_FLEET_IN,        /**< inside the band */
  ATL_FLEET_SLOW,      /**< outside the band, the slow side: flagged */
  ATL_FLEET_FAST,      /**< outside the band, the fast side: flagged */
  ATL_FLEET_FAILED,    /**< the row ran and failed or did not verify: flagged */
  ATL_FLEET_UNJUDGED,  /**< a value, but too few nodes have one */
  ATL_FLEET_NONE,      /**< the row is unsupported or skipped on the node */
  ATL_FLEET_MISSING,   /**< the node has no such row */
  ATL_FLEET_MARK_COUNT
};

/** "in", "slow", "fast", "failed", "unjudged", "none", "missing". */
const char *atl_fleet_mark_name(enum atl_fleet_mark mark);

/** Whether @p mark is a finding (slow, fast, failed). */
int atl_fleet_mark_flagged(enum atl_fleet_mark mark);

/** One node's value of one op. */
struct atl_fleet_cell {
  enum atl_fleet_mark mark;
  double value;     /**< the rate (or time) where measured */
  double noise;     /**< its row's relative noise (IQR / median) */
  double deviation; /**< (value - median) / median */
  double band;      /**< the half-width of the node's band, relative to the median */
};

/** One op of the fleet. */
struct atl_fleet_op {
  char device[256];   /**< the device model of the rows */
  char file[128];     /**< the result file's name (no folder) */
  char key[640];      /**< the row's configuration (atl_row_key) */
  char measure[32];   /**< the metric, or "median_ms" */
  int lower_better;   /**< a time: the slow side is above the median */
  size_t values;      /**< nodes with a value */
  double median, mad; /**< of those values */
  size_t flagged;
  struct atl_fleet_cell *cells; /**< one per node, in the nodes' order */
};

/** One node: a folder of result files. */
struct atl_fleet_node {
  char name[256];   /**< the folder's last component */
  char dir[4096];   /**< as given */
  char device[256]; /**< of its first file */
  size_t files, rows, flagged;
  double worst;     /**< the deviation of its farthest flagged cell (0 if none) */
};

/** The fleet's comparison. */
struct atl_fleet {
  struct atl_fleet_rule rule;
  struct atl_fleet_node *nodes;
  size_t nnodes;
  struct atl_fleet_op *ops;
  size_t nops, cap;
  size_t devices;       /**< device models among the nodes */
  size_t flagged;       /**< flagged cells */
  size_t flagged_nodes; /**< nodes with a flagged cell */
};

/**
 * Reads every node folder of @p dirs (its .json files; the .json files of a report folder's
 * data folder where it has none directly) and judges every op with @p rule
 * (NULL: the defaults). Returns 0, or ATL_EINVAL (no folders, a folder
 * without result files, a file that is not an atomlab result, two folders
 * of one name) with a one-line reason in @p why, or ATL_ENOMEM.
 */
int atl_fleet_build(const char *const *dirs, size_t ndirs, const struct atl_fleet_rule *rule, struct atl_fleet *out,
                    char *why, size_t why_len);

void atl_fleet_release(struct atl_fleet *fleet);

/** The forms a fleet comparison is written in. */
enum atl_fleet_format { ATL_FLEET_TEXT, ATL_FLEET_MARKDOWN, ATL_FLEET_HTML, ATL_FLEET_CSV };

/** The form of output file @p path from its extension (.txt, .md, .html, .csv); -1 for another. */
int atl_fleet_format_from_path(const char *path);

/**
 * Writes @p fleet as @p format: the rule, the nodes (files, rows, flagged
 * cells, the worst deviation), the flagged cells, and per op the median
 * and every node's deviation. Returns 0, or ATL_EIO if @p out reports an error.
 */
int atl_fleet_write(FILE *out, enum atl_fleet_format format, const struct atl_fleet *fleet);

/** atl_fleet_write to a stream: an atl_file_writer whose argument is a struct atl_fleet_writer. */
struct atl_fleet_writer {
  enum atl_fleet_format format;
  const struct atl_fleet *fleet;
};
int atl_fleet_write_file(FILE *out, const void *writer);

/**
 * Draws the fleet's figure into the folder @p dir (created if missing):
 * fleet.dat, fleet.gp and (with gnuplot) fleet.png: every node's deviation
 * per op, the band as bars, flagged nodes named. Returns as atl_plot().
 */
int atl_fleet_plot(const struct atl_fleet *fleet, const char *dir, const struct atl_plot_options *o,
                   struct atl_plot_outcome *out, char *why, size_t why_len);

#ifdef __cplusplus
}
#endif
#endif
