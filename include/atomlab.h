/**
 * @file atomlab.h
 * Umbrella header of atomlab: characterize, model and optimize atomic
 * read-modify-write operations on GPUs and CPUs.
 *
 * The first group is the stable API, exported by libatomlab.so.1 (include/atomlab/context.h says what that
 * promises); the second, the models' and the command line's internals, is experimental: declared only where
 * ATL_EXPERIMENTAL is defined, linked only from the static libatomlab.a, and free to change in any release.
 */
#ifndef ATOMLAB_H
#define ATOMLAB_H

#include "atomlab/error.h"
#include "atomlab/device.h"
#include "atomlab/context.h"
#include "atomlab/experiment.h"
#include "atomlab/result.h"
#include "atomlab/rmw.h"
#include "atomlab/sweep.h"
#include "atomlab/grid.h"
#include "atomlab/app.h"
#include "atomlab/scatter.h"
#include "atomlab/histogram.h"

#ifdef ATL_EXPERIMENTAL
#include "atomlab/experimental.h"
#include "atomlab/row_layout.h"
#include "atomlab/findings.h"
#include "atomlab/datasheet.h"
#include "atomlab/compare.h"
#include "atomlab/strategy.h"
#include "atomlab/model.h"
#include "atomlab/swmodel.h"
#include "atomlab/l2model.h"
#include "atomlab/file.h"
#include "atomlab/stop.h"
#include "atomlab/process.h"
#include "atomlab/plot.h"
#include "atomlab/report.h"
#include "atomlab/fleet.h"
#include "atomlab/diagnose.h"
#endif

#endif
